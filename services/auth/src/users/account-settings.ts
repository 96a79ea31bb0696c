import type { Kysely } from 'kysely';
import { findAccountRowById, setPasswordById } from '../storage/account.repository';
import type { AuthDatabase } from '../storage/database';
import { brokenPasswordRule, hashPassword, passwordRuleViolation, verifyPassword } from './password';
import { type MailOutbox, queueNotice } from './mail-outbox';
import { isSecondFactorLocked } from './second-factor';

type Db = Kysely<AuthDatabase>;

/** What the account console shows of the signed-in account. */
export interface AccountOverview {
  id: string;
  email: string;
  secondFactor: boolean;
  /** Recovery codes not used yet (0 without a second factor). */
  recoveryCodesLeft: number;
  /** Locked after too many wrong codes in a row: TOTP codes are refused until a recovery code is used. */
  secondFactorLocked: boolean;
}

export async function accountOverview(db: Db, accountId: string): Promise<AccountOverview | undefined> {
  const row = await findAccountRowById(db, accountId);
  if (!row || row.disabled_at !== null) return undefined;
  return {
    id: row.id,
    email: row.email,
    secondFactor: row.totp_secret !== null,
    recoveryCodesLeft: row.recovery_code_hashes?.length ?? 0,
    secondFactorLocked: row.totp_secret !== null && isSecondFactorLocked(row.second_factor_failures),
  };
}

/** Whether `password` is the current password of the (enabled) account. */
export async function isCurrentPassword(db: Db, accountId: string, password: string): Promise<boolean> {
  const row = await findAccountRowById(db, accountId);
  if (!row || row.disabled_at !== null) return false;
  return verifyPassword(row.password_hash, password);
}

/** Why a password change was refused: the page words it in its language (`problem` is English). */
export type PasswordChangeProblem =
  'wrong_password' | 'mismatch' | 'too_long' | 'too_short' | 'is_email' | 'gone';

/** `wrongPassword`: the current password was wrong (a failed attempt for the login throttle). */
export type PasswordChange =
  | { changed: true; changedAt: Date }
  | { changed: false; wrongPassword: boolean; reason: PasswordChangeProblem; problem: string };

/**
 * A person's own password change: the current password, and the new one twice, which must follow
 * the rules of `users create` (passwordRuleViolation). The change sets `password_changed_at`, which
 * ends every sign-in from before it (provider/sign-in.ts `findAccount`); the caller keeps its own.
 * With email on (`outbox`), the "password changed" notice is queued in the same transaction.
 */
export async function changePassword(
  db: Db,
  accountId: string,
  input: { current: string; next: string; repeat: string },
  outbox?: MailOutbox,
): Promise<PasswordChange> {
  const row = await findAccountRowById(db, accountId);
  if (!row || row.disabled_at !== null || !(await verifyPassword(row.password_hash, input.current))) {
    return {
      changed: false,
      wrongPassword: true,
      reason: 'wrong_password',
      problem: 'The current password is not correct.',
    };
  }
  if (input.next !== input.repeat) {
    return {
      changed: false,
      wrongPassword: false,
      reason: 'mismatch',
      problem: 'The new passwords do not match.',
    };
  }
  const violation = passwordRuleViolation(input.next, row.email);
  const rule = brokenPasswordRule(input.next, row.email);
  if (violation && rule) {
    return {
      changed: false,
      wrongPassword: false,
      reason: rule,
      problem: `The new password is not accepted: ${violation}.`,
    };
  }
  const hash = await hashPassword(input.next);
  const changedAt = await db.transaction().execute(async (trx) => {
    const at = await setPasswordById(trx, accountId, hash);
    if (at) await queueNotice(trx, outbox, accountId, 'password_changed', { via: 'console' });
    return at;
  });
  if (!changedAt) {
    return {
      changed: false,
      wrongPassword: false,
      reason: 'gone',
      problem: 'This account no longer exists.',
    };
  }
  return { changed: true, changedAt };
}
