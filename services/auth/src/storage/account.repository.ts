import { type Kysely, type UpdateObject, sql } from 'kysely';
import type { AccountRow } from './account.table';
import type { AuthDatabase } from './database';

type Db = Kysely<AuthDatabase>;

/** What an operator may see of an account: never its password hash or second-factor secrets. */
export interface AccountSummaryRow {
  id: string;
  email: string;
  created_at: Date;
  disabled_at: Date | null;
  /** A second factor is enrolled (a TOTP secret is set). */
  mfa: boolean;
  /** Wrong second-factor codes in a row. */
  second_factor_failures: number;
  email_verified: boolean;
}

export interface AccountRef {
  id: string;
  email: string;
}

const now = sql<Date>`now()`;

/** The new account, or undefined when the (normalised) email is already taken. */
export async function insertAccount(
  db: Db,
  values: { email: string; passwordHash: string; emailVerified: boolean },
): Promise<AccountRef | undefined> {
  return db
    .insertInto('account')
    .values({ email: values.email, password_hash: values.passwordHash, email_verified: values.emailVerified })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning(['id', 'email'])
    .executeTakeFirst();
}

export async function listAccounts(db: Db): Promise<AccountSummaryRow[]> {
  return db
    .selectFrom('account')
    .select([
      'id',
      'email',
      'created_at',
      'disabled_at',
      'email_verified',
      'second_factor_failures',
      sql<boolean>`totp_secret is not null`.as('mfa'),
    ])
    .orderBy('created_at')
    .orderBy('email')
    .execute();
}

export async function findAccountByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
  return db.selectFrom('account').selectAll().where('email', '=', email).executeTakeFirst();
}

/** What signing in reads of an account, by id. */
export interface SignInAccountRow {
  id: string;
  email: string;
  disabled_at: Date | null;
  password_changed_at: Date;
  email_verified: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` could be an account id at all: a UUID (the column's type), in any letter case. */
export const isAccountIdShape = (id: string): boolean => UUID.test(id);

/** The account with this id; undefined for none, and for a string that is not a uuid at all. */
export async function findAccountById(db: Db, id: string): Promise<SignInAccountRow | undefined> {
  if (!UUID.test(id)) return undefined;
  return db
    .selectFrom('account')
    .select(['id', 'email', 'disabled_at', 'password_changed_at', 'email_verified'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Applies `changes` (and a new `updated_at`) to the account; undefined when there is none. */
async function updateAccount(
  db: Db,
  email: string,
  changes: UpdateObject<AuthDatabase, 'account'>,
): Promise<AccountRef | undefined> {
  return db
    .updateTable('account')
    .set({ ...changes, updated_at: now })
    .where('email', '=', email)
    .returning(['id', 'email'])
    .executeTakeFirst();
}

/** Disabling keeps the time it was first disabled; enabling clears it. */
export function setAccountDisabled(db: Db, email: string, disabled: boolean) {
  return updateAccount(db, email, {
    disabled_at: disabled ? sql<Date>`coalesce(disabled_at, now())` : null,
  });
}

export function setAccountPassword(db: Db, email: string, passwordHash: string) {
  return updateAccount(db, email, { password_hash: passwordHash, password_changed_at: now });
}

/**
 * Removes the second factor: the TOTP secret, every recovery code, the last accepted step and the
 * count of failures.
 */
export function clearAccountMfa(db: Db, email: string) {
  return updateAccount(db, email, NO_SECOND_FACTOR);
}

/** Unlocks the second factor (its count of wrong codes back to 0), keeping it. */
export function unlockAccountMfa(db: Db, email: string) {
  return updateAccount(db, email, { second_factor_failures: 0 });
}

const NO_SECOND_FACTOR = {
  totp_secret: null,
  recovery_code_hashes: null,
  totp_last_step: null,
  second_factor_failures: 0,
} as const;

/*
 * The account's own changes (sign-in's second step, the account console), by id. Each is one
 * conditional UPDATE, so that two requests racing cannot both win: the condition is checked and
 * the row changed in the same statement (PostgreSQL locks the row for it).
 */

/** The whole account row by id (credentials included: for the checks of users/, never for display). */
export async function findAccountRowById(db: Db, id: string): Promise<AccountRow | undefined> {
  if (!UUID.test(id)) return undefined;
  return db.selectFrom('account').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Records `step` as the last accepted TOTP step, if the secret is still `secret`, `step` is later
 * than the last one accepted and the factor is not locked (fewer than `lockAfter` failures in a
 * row); the failures go back to 0. False: a replay (or a race lost to the same code), or locked.
 */
export async function acceptTotpStep(
  db: Db,
  id: string,
  secret: string,
  step: number,
  lockAfter: number,
): Promise<boolean> {
  const row = await db
    .updateTable('account')
    .set({ totp_last_step: step, second_factor_failures: 0 })
    .where('id', '=', id)
    .where('totp_secret', '=', secret)
    .where('second_factor_failures', '<', lockAfter)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', sql<string>`${step}`)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Removes one recovery code (by hash) if the account still has it, and unlocks the factor (its
 * failures back to 0). False: unknown or already used.
 */
export async function consumeRecoveryCode(db: Db, id: string, hash: string): Promise<boolean> {
  const row = await db
    .updateTable('account')
    .set({
      recovery_code_hashes: sql<string[]>`array_remove(recovery_code_hashes, ${hash})`,
      second_factor_failures: 0,
    })
    .where('id', '=', id)
    .where('totp_secret', 'is not', null)
    .where(sql<boolean>`${hash} = any(recovery_code_hashes)`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Enrols a second factor: the secret, the step of the code that confirmed it and the recovery
 * codes' hashes. False when the account already has one (enrolled meanwhile elsewhere).
 */
export async function setSecondFactor(
  db: Db,
  id: string,
  values: { secret: string; step: number; recoveryCodeHashes: string[] },
): Promise<boolean> {
  const row = await db
    .updateTable('account')
    .set({
      totp_secret: values.secret,
      totp_last_step: values.step,
      recovery_code_hashes: values.recoveryCodeHashes,
      second_factor_failures: 0,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('totp_secret', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Counts one more wrong second-factor code in a row (one statement: parallel failures each count);
 * the count after it, or undefined when the account has no second factor (any more). With
 * `lockNotice`, the same statement queues that email to the account's address when this failure
 * is the one that locks the factor (the count reaches `lockNotice.at`).
 */
export async function addSecondFactorFailure(
  db: Db,
  id: string,
  lockNotice?: { at: number; id: string; kind: string; locale: string },
): Promise<number | undefined> {
  if (lockNotice) {
    const { rows } = await sql<{ second_factor_failures: number }>`
      with counted as (
        update account set second_factor_failures = second_factor_failures + 1
        where id = ${id} and totp_secret is not null
        returning id, email, second_factor_failures
      ), notice as (
        insert into auth_email (id, recipient, kind, account_id, locale)
        select ${lockNotice.id}::uuid, email, ${lockNotice.kind}, id, ${lockNotice.locale}::text from counted
        where second_factor_failures = ${lockNotice.at}
      )
      select second_factor_failures from counted`.execute(db);
    return rows[0]?.second_factor_failures;
  }
  const row = await db
    .updateTable('account')
    .set({ second_factor_failures: sql<number>`second_factor_failures + 1` })
    .where('id', '=', id)
    .where('totp_secret', 'is not', null)
    .returning('second_factor_failures')
    .executeTakeFirst();
  return row?.second_factor_failures;
}

/** Replaces the whole set of recovery codes of an account that has a second factor. */
export async function replaceRecoveryCodes(db: Db, id: string, hashes: string[]): Promise<boolean> {
  const row = await db
    .updateTable('account')
    .set({ recovery_code_hashes: hashes, updated_at: now })
    .where('id', '=', id)
    .where('totp_secret', 'is not', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Removes the second factor of the account `id`; false when it had none. */
export async function clearSecondFactorById(db: Db, id: string): Promise<boolean> {
  const row = await db
    .updateTable('account')
    .set({ ...NO_SECOND_FACTOR, updated_at: now })
    .where('id', '=', id)
    .where('totp_secret', 'is not', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Sets a new password hash; `password_changed_at` ends the sign-ins from before it. */
export async function setPasswordById(db: Db, id: string, passwordHash: string): Promise<Date | undefined> {
  const row = await db
    .updateTable('account')
    .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
    .where('id', '=', id)
    .returning('password_changed_at')
    .executeTakeFirst();
  return row?.password_changed_at;
}

/** Deletes the account row with this id; whether there was one. */
export async function deleteAccountById(db: Db, id: string): Promise<boolean> {
  const res = await db.deleteFrom('account').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
