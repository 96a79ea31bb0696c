import type { Kysely } from 'kysely';
import {
  type AccountRef,
  clearAccountMfa,
  insertAccount,
  listAccounts,
  setAccountDisabled,
  setAccountPassword,
  unlockAccountMfa,
} from '../storage/account.repository';
import type { AuthDatabase } from '../storage/database';
import { emailProblem, normaliseEmail } from './email';
import { generatePassword, hashPassword, passwordRuleViolation } from './password';
import { isSecondFactorLocked } from './second-factor';

/** A request the operator must correct (exit 1 in the CLI); the message says what is wrong. */
export class UserAdminError extends Error {}

/** The (normalised) email already belongs to an account; nothing was created. */
export class EmailTaken extends UserAdminError {
  constructor() {
    super('a user with this email already exists');
  }
}

export interface CreatedUser {
  id: string;
  email: string;
  /** The generated password, present only when none was given; shown once, stored as a hash. */
  password?: string;
}

export interface UserSummary {
  id: string;
  email: string;
  created_at: string;
  disabled: boolean;
  mfa: boolean;
  /** The second factor is locked after too many wrong codes in a row (`unlockMfa`). */
  mfa_locked: boolean;
  /** False for an account made by self sign-up: nobody vouched for the address. */
  email_verified: boolean;
}

type Db = Kysely<AuthDatabase>;

/** The normalised email, or UserAdminError saying why it is not an acceptable address. */
export function validEmail(input: string): string {
  const email = normaliseEmail(input);
  const problem = emailProblem(email);
  if (problem) throw new UserAdminError(problem);
  return email;
}

function found(account: AccountRef | undefined, email: string): AccountRef {
  if (!account) throw new UserAdminError(`no user with email ${email}`);
  return account;
}

/**
 * A new account, by the operator (`users create`) or by the person (self sign-up, with
 * `selfSignUp`). The email is stored normalised and must be free (else `EmailTaken`); the password,
 * when given, must follow the password rules, and when not, one is generated and returned (the only
 * time it is visible: only its hash is stored). The operator's accounts have a verified email;
 * self-signed-up ones do not (`email_verified` false: nobody checked the address is theirs).
 */
export async function createUser(
  db: Db,
  input: { email: string; password?: string; selfSignUp?: boolean },
): Promise<CreatedUser> {
  const email = validEmail(input.email);
  const password = input.password ?? generatePassword();
  const violation = passwordRuleViolation(password, email);
  if (violation) throw new UserAdminError(violation);
  const account = await insertAccount(db, {
    email,
    passwordHash: await hashPassword(password),
    emailVerified: input.selfSignUp !== true,
  });
  if (!account) throw new EmailTaken();
  return input.password === undefined ? { ...account, password } : account;
}

export async function listUsers(db: Db): Promise<UserSummary[]> {
  const rows = await listAccounts(db);
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    created_at: r.created_at.toISOString(),
    disabled: r.disabled_at !== null,
    mfa: r.mfa,
    mfa_locked: r.mfa && isSecondFactorLocked(r.second_factor_failures),
    email_verified: r.email_verified,
  }));
}

/**
 * A disabled account may not sign in; its data stays, and `enableUser` lets it back in. Its
 * sessions, grants and tokens stay stored but are refused from then on: the provider no longer
 * finds the account (provider/sign-in.ts `findAccount`), so refreshes and userinfo fail and a
 * browser session must sign in again.
 */
export async function disableUser(db: Db, email: string): Promise<AccountRef> {
  const normalised = normaliseEmail(email);
  return found(await setAccountDisabled(db, normalised, true), normalised);
}

export async function enableUser(db: Db, email: string): Promise<AccountRef> {
  const normalised = normaliseEmail(email);
  return found(await setAccountDisabled(db, normalised, false), normalised);
}

/**
 * Replaces the password by a generated one, returned once; the old one stops working at once and
 * `password_changed_at` records the change, which also ends every sign-in from before it (the
 * provider refuses sessions and tokens older than the password). The second factor is left as it
 * is (see `resetMfa`).
 */
export async function resetPassword(
  db: Db,
  email: string,
): Promise<{ id: string; email: string; password: string }> {
  const normalised = normaliseEmail(email);
  const password = generatePassword();
  const account = found(await setAccountPassword(db, normalised, await hashPassword(password)), normalised);
  return { ...account, password };
}

/**
 * Removes the second factor (TOTP secret, recovery codes, last accepted step), for a user who lost
 * their device. With AUTH_REQUIRE_TOTP they enrol again at their next sign-in.
 */
export async function resetMfa(db: Db, email: string): Promise<AccountRef> {
  const normalised = normaliseEmail(email);
  return found(await clearAccountMfa(db, normalised), normalised);
}

/**
 * Unlocks a second factor locked after too many wrong codes in a row (its count back to 0): the
 * owner keeps their authenticator and recovery codes. For an owner who still has their device;
 * `resetMfa` for one who lost it.
 */
export async function unlockMfa(db: Db, email: string): Promise<AccountRef> {
  const normalised = normaliseEmail(email);
  return found(await unlockAccountMfa(db, normalised), normalised);
}
