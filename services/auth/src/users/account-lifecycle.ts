import type { Kysely } from 'kysely';
import { isConnectionError } from '@secret-push/db-kit';
import { DependencyUnavailable } from '../errors';
import { deleteAccountById, findAccountById, isAccountIdShape } from '../storage/account.repository';
import type { AuthDatabase } from '../storage/database';
import { deletePayloadsOfAccount } from '../storage/oidc-payload.repository';

type Db = Kysely<AuthDatabase>;

/*
 * What the accounts API (http/accounts-api.ts) tells first-party applications about an account,
 * and what deleting one means. An account is named by its `sub` (the account id, a UUID).
 */

/** Whether `sub` has the shape of an account id (a UUID); anything else is a malformed request. */
export const isAccountId = (sub: string): boolean => isAccountIdShape(sub);

/** The account as the accounts API reports it: active unless disabled (`users disable`). */
export interface AccountStatus {
  sub: string;
  active: boolean;
}

async function guard<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (isConnectionError(err)) throw new DependencyUnavailable('database', { cause: err });
    throw err;
  }
}

/** The status of account `sub`, or undefined when there is none (never created, or deleted). */
export async function accountStatus(db: Db, sub: string): Promise<AccountStatus | undefined> {
  const account = await guard(() => findAccountById(db, sub));
  return account && { sub: account.id, active: account.disabled_at === null };
}

/**
 * Deletes account `sub` and everything of it, in one transaction: the account row (its email,
 * password hash and second factor), and every row oidc-provider stored for it: its provider
 * sessions (every browser signed in as it), its grants, and every authorization code, access token
 * and refresh token issued for it. Its email is free again afterwards. Deleting an account that is
 * already gone changes nothing. A token that a request in flight issues while this runs is dead
 * anyway: the provider no longer finds the account (provider/sign-in.ts `findAccount`).
 */
export async function deleteAccount(
  db: Db,
  sub: string,
): Promise<{ deleted: boolean; providerRows: number }> {
  return guard(() =>
    db.transaction().execute(async (trx) => {
      const deleted = await deleteAccountById(trx, sub);
      const providerRows = await deletePayloadsOfAccount(trx, sub);
      return { deleted, providerRows };
    }),
  );
}
