/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';
import { mailQueueColumns, mailQueueIndex } from '@secret-push/mail';

/**
 * `auth_email`: the auth service's outgoing email (a mail queue of `@secret-push/mail`: its
 * delivery columns, leased by any number of senders with SKIP LOCKED), plus what composing a
 * message needs: its `kind` (password_reset, password_changed, …), the account it is about (its
 * own address is the recipient), the `locale`, `data` (details that are no secret: how a
 * password was changed) and `data_sealed` (a secret: the reset link's token, sealed with the data
 * key ring `data_key_id`, bound to the row).
 *
 * `password_reset`: one row per reset asked for: only the SHA-256 of the token (the token itself
 * is only in the email, and sealed in its queue row); usable once (`used_at`), until `expires_at`,
 * and voided (`voided_at`) by a newer reset of the account or by the reset that was used.
 *
 * Both go with their account (on delete cascade).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table auth_email (${sql.raw(mailQueueColumns)},
    kind text not null,
    account_id uuid not null references account (id) on delete cascade,
    locale text not null default 'en',
    data jsonb not null default '{}'::jsonb,
    data_key_id text,
    data_sealed bytea)`.execute(db);
  await sql.raw(mailQueueIndex('auth_email')).execute(db);
  await sql`create index auth_email_account_idx on auth_email (account_id)`.execute(db);
  await db.schema
    .createTable('password_reset')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('voided_at', 'timestamptz')
    .execute();
  await sql`create index password_reset_account_idx on password_reset (account_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_reset').execute();
  await db.schema.dropTable('auth_email').execute();
}
