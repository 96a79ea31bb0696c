/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * The Idempotency-Keys of creates (domain/idempotency.ts): per scope (a principal, or `ip:<address>`
 * for anonymous creates) the SHA-256 of the key, the fingerprint of the request it was first sent
 * with and the push that request made. The row is inserted in the transaction of its push, so both
 * commit together (the foreign key is checked at commit, the key row being inserted first) and a
 * concurrent create with the same key waits on the primary key for that transaction to end.
 * Rows older than the keys' lifetime are taken over by the next create with that key and purged a
 * few at a time by the keyed creates (`idempotency_key_created_at_idx`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table idempotency_key (
      scope text not null,
      key_hash bytea not null,
      request_hash bytea not null,
      push_id uuid not null references push (id) on delete cascade deferrable initially deferred,
      created_at timestamptz not null default now(),
      primary key (scope, key_hash)
    )`.execute(db);
  await sql`create index idempotency_key_created_at_idx on idempotency_key (created_at)`.execute(db);
  await sql`create index idempotency_key_push_id_idx on idempotency_key (push_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table idempotency_key`.execute(db);
}
