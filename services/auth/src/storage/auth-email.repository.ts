import { type Kysely, sql } from 'kysely';
import type { AuthDatabase } from './database';

type Db = Kysely<AuthDatabase>;

/** The auth service's mail queue table (`@secret-push/mail`'s statements take its name). */
export const AUTH_EMAIL_TABLE = 'auth_email';

/** One email to queue for an account: to its own address, read from the account row. */
export interface QueuedEmail {
  /** The row's id (chosen by the caller: a sealed secret is bound to it). */
  id: string;
  accountId: string;
  kind: string;
  /** Details that are no secret. */
  data?: Record<string, string>;
  /** A secret of the message, sealed with the data key ring. */
  sealed?: { keyId: string; data: Buffer };
  /** The language to write it in (an offered language tag: `de`, `pt-BR`). */
  locale: string;
}

/**
 * Queues an email to the account's own address (one INSERT … SELECT: the recipient is the
 * account's email as stored, never one given by a request). False when there is no such account.
 * Run it in the transaction of the change it reports.
 */
export async function queueAccountEmail(db: Db, email: QueuedEmail): Promise<boolean> {
  const res = await db
    .insertInto('auth_email')
    .columns(['id', 'recipient', 'kind', 'account_id', 'data', 'data_key_id', 'data_sealed', 'locale'])
    .expression((eb) =>
      eb
        .selectFrom('account')
        .select([
          sql<string>`${email.id}::uuid`.as('id'),
          'email',
          sql<string>`${email.kind}`.as('kind'),
          'id as account_id',
          sql<string>`${JSON.stringify(email.data ?? {})}::jsonb`.as('data'),
          sql<string | null>`${email.sealed?.keyId ?? null}::text`.as('data_key_id'),
          sql<Buffer | null>`${email.sealed?.data ?? null}::bytea`.as('data_sealed'),
          sql<string>`${email.locale}::text`.as('locale'),
        ])
        .where('id', '=', email.accountId),
    )
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Deletes what no sender needs any more: email sent or failed more than `keepDays` ago, in
 * batches of 1000 rows. Returns how many rows.
 */
export async function purgeFinishedEmail(db: Db, keepDays: number): Promise<number> {
  const res = await sql`delete from auth_email where id in (
      select id from auth_email
      where status in ('sent', 'failed') and updated_at < now() - make_interval(days => ${keepDays})
      limit 1000)`.execute(db);
  return Number(res.numAffectedRows ?? 0);
}
