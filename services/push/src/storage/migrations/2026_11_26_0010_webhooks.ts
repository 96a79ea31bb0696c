/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * Signed webhooks (issue 27): an owner's endpoints and the delivery of each event to each.
 *
 * - `webhook_endpoint`: `owner` is the same string as `push.owner` (`user:<id>`, `client:<id>`).
 *   The signing secret (`whsec_…`) is sealed with the push key ring (`key_id`), bound to the row
 *   (`<id>|webhook_secret`); during a rotation the previous secret (`previous_*`) keeps signing
 *   until `previous_until`. `webhook_endpoint_owner_idx` serves the create statement's
 *   "does this owner listen?" (`exists … where owner = $1 and enabled`).
 * - `webhook_delivery`: one message to one endpoint. `id` is the Standard Webhooks `webhook-id`
 *   (`msg_…`), the same on every attempt; `body` is the exact JSON signed, so every attempt sends
 *   the same bytes. Unique (endpoint, event): an event handed over twice makes one delivery. The
 *   state and lease follow packages/mail's mail queue: `pending` → `delivering` (leased until
 *   `next_attempt_at`) → `succeeded`, or `pending` again (a retry at `next_attempt_at`), or `failed`.
 *   `response` is at most 4 KiB of the receiver's answer (never logged).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhook_endpoint (
      id uuid primary key default gen_random_uuid(),
      owner text not null,
      url text not null,
      event_types text[] not null,
      enabled boolean not null default true,
      disabled_reason text,
      key_id text not null,
      secret_sealed bytea not null,
      previous_key_id text,
      previous_secret_sealed bytea,
      previous_until timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_endpoint_owner_idx on webhook_endpoint (owner) where enabled`.execute(db);
  await sql`create index webhook_endpoint_owner_all_idx on webhook_endpoint (owner, created_at)`.execute(db);
  await sql`
    create table webhook_delivery (
      id text primary key default 'msg_' || replace(gen_random_uuid()::text, '-', ''),
      endpoint_id uuid not null references webhook_endpoint (id) on delete cascade,
      event_id uuid not null,
      type text not null,
      body text not null,
      status text not null default 'pending' check (status in ('pending', 'delivering', 'succeeded', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      last_status integer,
      last_error text,
      latency_ms integer,
      response text,
      delivered_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (endpoint_id, event_id)
    )`.execute(db);
  await sql`create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at)
    where status in ('pending', 'delivering')`.execute(db);
  await sql`create index webhook_delivery_endpoint_idx on webhook_delivery (endpoint_id, created_at desc, id)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table webhook_delivery`.execute(db);
  await sql`drop table webhook_endpoint`.execute(db);
}
