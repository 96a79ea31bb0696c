import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  acceptTotpStep,
  addSecondFactorFailure,
  clearSecondFactorById,
  consumeRecoveryCode,
  findAccountRowById,
  replaceRecoveryCodes,
  setSecondFactor,
} from '../storage/account.repository';
import type { AuthDatabase } from '../storage/database';
import { type MailOutbox, queueNotice } from './mail-outbox';
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

/**
 * Wrong second-factor codes in a row (across sign-ins, kept in the account row) after which the
 * factor is locked: TOTP codes are refused, right ones included, until the owner signs in with a
 * recovery code or the operator unlocks it (`users unlock-mfa`, `users reset-mfa`). With 5 codes
 * per password typed and the login throttle's counters, a thief of the password gets about 100
 * guesses of 3 valid codes in 10^6 (0.03 %), not thousands a day.
 */
export const SECOND_FACTOR_LOCK_AFTER = 100;

/**
 * `locked`: the factor is locked now (this failure may have been the one that locked it:
 * `failures === SECOND_FACTOR_LOCK_AFTER`).
 */
export type SecondFactorCheck =
  { verified: true; method: SecondFactorMethod } | { verified: false; locked: boolean; failures: number };

/** Whether an account with this many failures in a row has its factor locked. */
export const isSecondFactorLocked = (failures: number): boolean => failures >= SECOND_FACTOR_LOCK_AFTER;

type Row = NonNullable<Awaited<ReturnType<typeof findAccountRowById>>>;

/**
 * One code as the account's factor: its method when it was right (and used up), undefined
 * otherwise. The stored secret is sealed (`secrets`, the data key ring); it is opened in memory
 * only to check a code.
 */
async function useCode(
  db: Db,
  secrets: TotpSecrets,
  account: Row,
  sealed: string,
  input: string,
  nowMs: number,
) {
  if (normaliseTotpCode(input) !== undefined) {
    if (isSecondFactorLocked(account.second_factor_failures)) return undefined;
    const step = totpCodeStep(secrets.open(account.id, sealed), input, nowMs);
    if (step === undefined || !isLaterStep(step, account.totp_last_step)) return undefined;
    const accepted = await acceptTotpStep(db, account.id, sealed, step, SECOND_FACTOR_LOCK_AFTER);
    return accepted ? ('totp' as const) : undefined;
  }
  const code = normaliseRecoveryCode(input);
  if (code === undefined) return undefined;
  const used = await consumeRecoveryCode(db, account.id, hashRecoveryCode(code));
  return used ? ('recovery_code' as const) : undefined;
}

/**
 * Checks what a person typed as their second factor: 6 digits are a TOTP code (accepted once, for
 * a step later than the last accepted one, and only while the factor is not locked), anything else
 * is tried as a recovery code (used up by this check; it also unlocks the factor). Refused alike: a
 * wrong, replayed or used code, an account that is gone, disabled or has no second factor. Either
 * use is one conditional UPDATE, so two requests with one code cannot both pass. Every refusal of
 * an account that has a factor counts one more failure in a row (one UPDATE each); a right code
 * sets the count back to 0. The stored secret is sealed with the data key ring (`secrets`). With
 * email on (`outbox`), the failure that locks the factor also queues the "locked" notice, in the
 * same statement.
 */
export async function checkSecondFactor(
  db: Db,
  secrets: TotpSecrets,
  accountId: string,
  input: string,
  { nowMs = Date.now(), outbox }: MailOptions = {},
): Promise<SecondFactorCheck> {
  const account = await findAccountRowById(db, accountId);
  const sealed = account?.totp_secret;
  if (!account || account.disabled_at !== null || !sealed) {
    return { verified: false, locked: false, failures: 0 };
  }
  const method = await useCode(db, secrets, account, sealed, input, nowMs);
  if (method) return { verified: true, method };
  const lockNotice = outbox && {
    at: SECOND_FACTOR_LOCK_AFTER,
    id: randomUUID(),
    kind: 'second_factor_locked' as const,
    locale: outbox.language(),
  };
  const failures = (await addSecondFactorFailure(db, accountId, lockNotice)) ?? 0;
  return { verified: false, locked: isSecondFactorLocked(failures), failures };
}

export type Enrolment =
  | { enrolled: true; recoveryCodes: string[] }
  | { enrolled: false; reason: 'wrong_code' | 'already_enrolled' };

/** The clock of a check (tests), and the outbox that queues the security notices (email on). */
export interface MailOptions {
  nowMs?: number;
  outbox?: MailOutbox | undefined;
}

/**
 * Enrols `sealedSecret` (from `secrets.generate`, shown to the person) once they typed a code of
 * it, proving their app has it. Stores the secret, sealed by the ring's first key, and a new set of
 * recovery codes, which are returned: the only time they exist in clear. With email on, the
 * "second factor added" notice is queued in the same transaction.
 */
export async function confirmEnrolment(
  db: Db,
  secrets: TotpSecrets,
  accountId: string,
  sealedSecret: string,
  code: string,
  { nowMs = Date.now(), outbox }: MailOptions = {},
): Promise<Enrolment> {
  const secret = secrets.open(accountId, sealedSecret);
  const step = totpCodeStep(secret, code, nowMs);
  if (step === undefined) return { enrolled: false, reason: 'wrong_code' };
  const recoveryCodes = generateRecoveryCodes();
  const stored = await db.transaction().execute(async (trx) => {
    const done = await setSecondFactor(trx, accountId, {
      secret: secrets.seal(accountId, secret),
      step,
      recoveryCodeHashes: hashRecoveryCodes(recoveryCodes),
    });
    if (done) await queueNotice(trx, outbox, accountId, 'second_factor_added');
    return done;
  });
  return stored ? { enrolled: true, recoveryCodes } : { enrolled: false, reason: 'already_enrolled' };
}

/**
 * A new set of recovery codes replacing the old set; undefined when there is no second factor.
 * With email on, the notice is queued in the same transaction.
 */
export async function regenerateRecoveryCodes(
  db: Db,
  accountId: string,
  outbox?: MailOutbox,
): Promise<string[] | undefined> {
  const codes = generateRecoveryCodes();
  const replaced = await db.transaction().execute(async (trx) => {
    const done = await replaceRecoveryCodes(trx, accountId, hashRecoveryCodes(codes));
    if (done) await queueNotice(trx, outbox, accountId, 'recovery_codes_regenerated');
    return done;
  });
  return replaced ? codes : undefined;
}

/**
 * Removes the TOTP secret and the recovery codes; with email on, the notice is queued in the same
 * transaction (only when there was a factor to remove).
 */
export async function removeSecondFactor(db: Db, accountId: string, outbox?: MailOutbox): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (await clearSecondFactorById(trx, accountId)) {
      await queueNotice(trx, outbox, accountId, 'second_factor_removed');
    }
  });
}
