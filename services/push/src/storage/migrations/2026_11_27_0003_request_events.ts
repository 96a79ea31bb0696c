/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * The one-time codes of requests answerable by listed addresses (issue 28; domain/request-codes.ts):
 * besides its hash (`code_hash`, what an answer is checked against), the code is kept sealed with
 * the key ring (`code_sealed` under `key_id`, bound to the request and the address) until the
 * worker has composed its email (`request_code`); the email is composed from the code as it is then,
 * and the sealed copy is wiped once the code is used.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table request_answer_code
    add column code_sealed bytea,
    add column key_id text,
    add constraint request_answer_code_sealed_with_key check ((code_sealed is null) = (key_id is null))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table request_answer_code
    drop constraint request_answer_code_sealed_with_key,
    drop column code_sealed,
    drop column key_id`.execute(db);
}
