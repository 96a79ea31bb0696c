/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * The outbox: what happened to pushes that somebody listens to, for the worker's consumers (owner
 * notices by email; webhooks later), written by the statement that made the change.
 *
 * - `push.outbox`: this push's audited changes also yield events. Decided at create (a consumer
 *   wants them); false for a push nobody listens to, whose statements then write no event row.
 * - `push_event`: one row per event, its `id` the stable event id every consumer and every
 *   delivery carries; `seq` orders them by when they were taken, not by commit. Nothing reads it
 *   with a cursor: a consumer round locks a batch (`FOR UPDATE SKIP LOCKED`), hands it to every
 *   consumer and deletes it in the same transaction, so an event committed late (a lower `seq`
 *   than one already consumed) is simply found by the next round, and a round that dies leaves its
 *   batch to the next one (at least once). `audit_id` is the audit entry the event came with;
 *   no foreign keys (the statements write both from the same row, as audit_entry's push_id).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table push add column outbox boolean not null default false`.execute(db);
  await sql`
    create table push_event (
      id uuid primary key default gen_random_uuid(),
      seq bigint generated always as identity,
      push_id uuid not null,
      kind text not null,
      audit_id bigint,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index push_event_seq_idx on push_event (seq)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table push_event`.execute(db);
  await sql`alter table push drop column outbox`.execute(db);
}
