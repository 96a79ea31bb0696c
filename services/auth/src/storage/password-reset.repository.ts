import { type Kysely, sql } from 'kysely';
import type { AuthDatabase } from './database';

type Db = Kysely<AuthDatabase>;

/** A reset that may still be used, and the (enabled) account it is for. */
export interface LiveReset {
  id: string;
  accountId: string;
  email: string;
  /** The account has a second factor: the reset asks for a code. */
  secondFactor: boolean;
}

const live = sql<boolean>`r.used_at is null and r.voided_at is null and r.expires_at > now()`;

/**
 * Records a new reset of the account, voiding every other one still open (a newer reset voids the
 * older links). Run it in the transaction that queues its email. Returns the reset's id.
 */
export async function insertPasswordReset(
  db: Db,
  values: { accountId: string; tokenHash: Buffer; ttlSeconds: number },
): Promise<string> {
  await voidPasswordResets(db, values.accountId);
  const row = await db
    .insertInto('password_reset')
    .values({
      account_id: values.accountId,
      token_hash: values.tokenHash,
      expires_at: sql<Date>`now() + make_interval(secs => ${values.ttlSeconds})`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The reset with this token hash while it may be used (not used, voided or expired; its account enabled). */
export async function findLiveReset(db: Db, tokenHash: Buffer): Promise<LiveReset | undefined> {
  const row = await db
    .selectFrom('password_reset as r')
    .innerJoin('account as a', 'a.id', 'r.account_id')
    .select(['r.id', 'r.account_id', 'a.email', sql<boolean>`a.totp_secret is not null`.as('second_factor')])
    .where('r.token_hash', '=', tokenHash)
    .where(live)
    .where('a.disabled_at', 'is', null)
    .executeTakeFirst();
  return row && { id: row.id, accountId: row.account_id, email: row.email, secondFactor: row.second_factor };
}

/**
 * Uses the reset `id` (one conditional UPDATE: of two requests with one token, one wins) and voids
 * every other open reset of its account. False when it was no longer usable.
 */
export async function usePasswordReset(db: Db, id: string, accountId: string): Promise<boolean> {
  const used = await db
    .updateTable('password_reset as r')
    .set({ used_at: sql<Date>`now()` })
    .where('r.id', '=', id)
    .where('r.account_id', '=', accountId)
    .where(live)
    .returning('r.id')
    .executeTakeFirst();
  if (!used) return false;
  await voidPasswordResets(db, accountId);
  return true;
}

/** Voids every open reset of the account. */
export async function voidPasswordResets(db: Db, accountId: string): Promise<void> {
  await db
    .updateTable('password_reset')
    .set({ voided_at: sql<Date>`now()` })
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .execute();
}

/** Voids one reset (too many wrong codes were tried with it). */
export async function voidPasswordReset(db: Db, id: string): Promise<void> {
  await db
    .updateTable('password_reset')
    .set({ voided_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('voided_at', 'is', null)
    .execute();
}

/**
 * When the reset with this token hash stops being usable, while it still may be used (a queued
 * reset email checks it before sending); undefined when it is used, voided, expired or unknown.
 */
export async function liveResetExpiry(db: Db, tokenHash: Buffer): Promise<Date | undefined> {
  const row = await db
    .selectFrom('password_reset as r')
    .select('r.expires_at')
    .where('r.token_hash', '=', tokenHash)
    .where(live)
    .executeTakeFirst();
  return row?.expires_at;
}

/** Deletes resets that ended more than a day ago (batches of 1000). Returns how many. */
export async function purgeEndedResets(db: Db): Promise<number> {
  const res = await sql`delete from password_reset where id in (
      select id from password_reset where expires_at < now() - interval '1 day' limit 1000)`.execute(db);
  return Number(res.numAffectedRows ?? 0);
}
