import type { Kysely } from 'kysely';
import {
  acceptTotpStep,
  clearSecondFactorById,
  consumeRecoveryCode,
  findAccountRowById,
  replaceRecoveryCodes,
  setSecondFactor,
} from '../storage/account.repository';
import type { AuthDatabase } from '../storage/database';
import {
  generateRecoveryCodes,
  hashRecoveryCode,
  hashRecoveryCodes,
  normaliseRecoveryCode,
} from './recovery-codes';
import { isLaterStep, normaliseTotpCode, totpCodeStep } from './totp';
import type { TotpSecrets } from './totp-secrets';

type Db = Kysely<AuthDatabase>;

/** Which kind of second factor proved the sign-in. */
export type SecondFactorMethod = 'totp' | 'recovery_code';

export type SecondFactorCheck = { verified: true; method: SecondFactorMethod } | { verified: false };

/**
 * Checks what a person typed as their second factor: 6 digits are a TOTP code (accepted once, for
 * a step later than the last accepted one), anything else is tried as a recovery code (used up by
 * this check). Refused alike: a wrong, replayed or used code, an account that is gone, disabled or
 * has no second factor. Either use is one conditional UPDATE, so two requests with one code cannot
 * both pass. The stored secret is sealed (`secrets`, the data key ring); it is opened in memory
 * only to check a code.
 */
export async function checkSecondFactor(
  db: Db,
  secrets: TotpSecrets,
  accountId: string,
  input: string,
  nowMs = Date.now(),
): Promise<SecondFactorCheck> {
  const account = await findAccountRowById(db, accountId);
  const sealed = account?.totp_secret;
  if (!account || account.disabled_at !== null || !sealed) return { verified: false };
  if (normaliseTotpCode(input) !== undefined) {
    const step = totpCodeStep(secrets.open(account.id, sealed), input, nowMs);
    if (step === undefined || !isLaterStep(step, account.totp_last_step)) return { verified: false };
    return (await acceptTotpStep(db, accountId, sealed, step))
      ? { verified: true, method: 'totp' }
      : { verified: false };
  }
  const code = normaliseRecoveryCode(input);
  if (code === undefined) return { verified: false };
  return (await consumeRecoveryCode(db, accountId, hashRecoveryCode(code)))
    ? { verified: true, method: 'recovery_code' }
    : { verified: false };
}

export type Enrolment =
  | { enrolled: true; recoveryCodes: string[] }
  | { enrolled: false; reason: 'wrong_code' | 'already_enrolled' };

/**
 * Enrols `sealedSecret` (from `secrets.generate`, shown to the person) once they typed a code of
 * it, proving their app has it. Stores the secret, sealed by the ring's first key, and a new set of
 * recovery codes, which are returned: the only time they exist in clear.
 */
export async function confirmEnrolment(
  db: Db,
  secrets: TotpSecrets,
  accountId: string,
  sealedSecret: string,
  code: string,
  nowMs = Date.now(),
): Promise<Enrolment> {
  const secret = secrets.open(accountId, sealedSecret);
  const step = totpCodeStep(secret, code, nowMs);
  if (step === undefined) return { enrolled: false, reason: 'wrong_code' };
  const recoveryCodes = generateRecoveryCodes();
  const stored = await setSecondFactor(db, accountId, {
    secret: secrets.seal(accountId, secret),
    step,
    recoveryCodeHashes: hashRecoveryCodes(recoveryCodes),
  });
  return stored ? { enrolled: true, recoveryCodes } : { enrolled: false, reason: 'already_enrolled' };
}

/** A new set of recovery codes replacing the old set; undefined when there is no second factor. */
export async function regenerateRecoveryCodes(db: Db, accountId: string): Promise<string[] | undefined> {
  const codes = generateRecoveryCodes();
  return (await replaceRecoveryCodes(db, accountId, hashRecoveryCodes(codes))) ? codes : undefined;
}

/** Removes the TOTP secret and the recovery codes. */
export function removeSecondFactor(db: Db, accountId: string): Promise<void> {
  return clearSecondFactorById(db, accountId);
}
