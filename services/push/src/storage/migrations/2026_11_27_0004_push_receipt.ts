/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * An anonymous sender's receipt (issue 29; domain/push-receipts.ts): a private status link shown
 * once with the secret link, a random capability separate from the url_token, stored only as its
 * SHA-256 (`receipt_hash`, unique where set). Only anonymous pushes get one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table push add column receipt_hash bytea`.execute(db);
  await sql`create unique index push_receipt_hash on push (receipt_hash) where receipt_hash is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index push_receipt_hash`.execute(db);
  await sql`alter table push drop column receipt_hash`.execute(db);
}
