import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { queueAccountEmail } from '../storage/auth-email.repository';
import { findAccountByEmail, setPasswordById } from '../storage/account.repository';
import type { AuthDatabase } from '../storage/database';
import { deletePayloadsOfAccount } from '../storage/oidc-payload.repository';
import {
  type LiveReset,
  findLiveReset,
  insertPasswordReset,
  usePasswordReset,
  voidPasswordReset,
} from '../storage/password-reset.repository';
import { EMAIL_MAX_LENGTH, normaliseEmail } from './email';
import { type MailOutbox, queueNotice } from './mail-outbox';
import { hashPassword, passwordRuleViolation } from './password';

type Db = Kysely<AuthDatabase>;

/*
 * "Forgot password?": a reset link by email. The token is 32 random bytes (base64url, 43
 * characters); the database keeps only its SHA-256 (`password_reset.token_hash`), and the token
 * itself exists only in the email and, until it is sent, sealed in its queue row. A reset is good
 * once, for AUTH_PASSWORD_RESET_TTL_SECONDS, and a newer reset of the account voids it. Opening the
 * link (GET) changes nothing, so a mail scanner that follows it uses nothing up; only the form's
 * POST uses it. A reset never bypasses the second factor: an account with one gives a code (the
 * interaction checks it as at sign-in, before `finishPasswordReset`).
 */

export type { LiveReset } from '../storage/password-reset.repository';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The stored form of a reset token: SHA-256. */
export const resetTokenHash = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * Asks for a reset of the account `emailInput`: when it has an enabled account, one transaction
 * voids its open resets, records the new one and queues its email (the token sealed in the row).
 * Otherwise nothing is written. The caller answers alike either way (no enumeration); the result
 * is for its log and metrics only.
 */
export async function requestPasswordReset(
  db: Db,
  outbox: MailOutbox,
  emailInput: string,
  ttlSeconds: number,
): Promise<{ queued: boolean }> {
  const token = randomBytes(32).toString('base64url');
  const tokenHash = resetTokenHash(token);
  const email = normaliseEmail(emailInput);
  const account = email.length <= EMAIL_MAX_LENGTH ? await findAccountByEmail(db, email) : undefined;
  if (!account || account.disabled_at !== null) return { queued: false };
  await db.transaction().execute(async (trx) => {
    await insertPasswordReset(trx, { accountId: account.id, tokenHash, ttlSeconds });
    const rowId = randomUUID();
    await queueAccountEmail(trx, {
      id: rowId,
      accountId: account.id,
      kind: 'password_reset',
      sealed: outbox.seal(rowId, token),
      locale: outbox.language(),
    });
  });
  return { queued: true };
}

/** The reset a link's token stands for, while it may be used; undefined for any other token. */
export async function findPasswordReset(db: Db, token: string): Promise<LiveReset | undefined> {
  if (!TOKEN.test(token)) return undefined;
  return findLiveReset(db, resetTokenHash(token));
}

/** Why the new password (typed twice) may not be the account's, or undefined when it may. */
export function newPasswordProblem(reset: LiveReset, next: string, repeat: string): string | undefined {
  if (next !== repeat) return 'The new passwords do not match.';
  const violation = passwordRuleViolation(next, reset.email);
  return violation ? `The new password is not accepted: ${violation}.` : undefined;
}

/**
 * Sets the new password (its rules checked by `newPasswordProblem`, the second factor by the
 * caller), in one transaction: the reset used (false when another request used or voided it
 * first: nothing changed), the account's other resets voided, the password set
 * (`password_changed_at` ends every sign-in from before it), every session, grant and token of the
 * account deleted, and the "password changed" notice queued.
 */
export async function finishPasswordReset(
  db: Db,
  outbox: MailOutbox,
  reset: LiveReset,
  next: string,
): Promise<boolean> {
  const hash = await hashPassword(next);
  return db.transaction().execute(async (trx) => {
    if (!(await usePasswordReset(trx, reset.id, reset.accountId))) return false;
    await setPasswordById(trx, reset.accountId, hash);
    await deletePayloadsOfAccount(trx, reset.accountId);
    await queueNotice(trx, outbox, reset.accountId, 'password_changed', { via: 'reset' });
    return true;
  });
}

/** Voids a reset (too many wrong codes were tried with it: a new link must be asked for). */
export const abandonPasswordReset = (db: Db, reset: LiveReset): Promise<void> =>
  voidPasswordReset(db, reset.id);
