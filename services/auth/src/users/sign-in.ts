import type { Kysely } from 'kysely';
import { isConnectionError } from '@secret-push/db-kit';
import { DependencyUnavailable } from '../errors';
import { findAccountByEmail, findAccountById } from '../storage/account.repository';
import type { AuthDatabase } from '../storage/database';
import { EMAIL_MAX_LENGTH, normaliseEmail } from './email';
import { verifyDummy, verifyPassword } from './password';

type Db = Kysely<AuthDatabase>;

/** An account that passed a sign-in step. */
export interface VerifiedAccount {
  id: string;
  email: string;
  /** A second factor (TOTP) is enrolled: the password alone does not sign this account in. */
  secondFactor: boolean;
}

/**
 * The answer to an email and a password: the account, or a refusal that says nothing more. An
 * unknown email, a wrong password and a disabled account are refused alike, after the same work
 * (an unknown email verifies against a dummy hash), so neither the answer nor its timing tells
 * which it was.
 */
export type PasswordCheck = { verified: true; account: VerifiedAccount } | { verified: false };

/** Checks an email (normalised as the operator CLI stores it) and password. */
export async function checkPassword(db: Db, emailInput: string, password: string): Promise<PasswordCheck> {
  const email = normaliseEmail(emailInput);
  const account = email.length <= EMAIL_MAX_LENGTH ? await findAccountByEmail(db, email) : undefined;
  if (!account) {
    await verifyDummy(password);
    return { verified: false };
  }
  const matches = await verifyPassword(account.password_hash, password);
  if (!matches || account.disabled_at !== null) return { verified: false };
  return {
    verified: true,
    account: { id: account.id, email: account.email, secondFactor: account.totp_secret !== null },
  };
}

/**
 * The account behind a `sub`, while it may sign in: undefined once disabled or deleted. A database
 * outage is the provider's 503 `temporarily_unavailable`, not a 500.
 */
export async function findSignInAccount(
  db: Db,
  id: string,
): Promise<{ id: string; email: string; emailVerified: boolean; passwordChangedAt: Date } | undefined> {
  let account;
  try {
    account = await findAccountById(db, id);
  } catch (err) {
    if (isConnectionError(err)) throw new DependencyUnavailable('database', { cause: err });
    throw err;
  }
  if (!account || account.disabled_at !== null) return undefined;
  return {
    id: account.id,
    email: account.email,
    emailVerified: account.email_verified,
    passwordChangedAt: account.password_changed_at,
  };
}
