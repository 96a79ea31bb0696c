/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';
import { mailQueueColumns, mailQueueIndex } from '@secret-push/mail';

/**
 * Email from the push service (issue 26; docs/push-service.md, Email).
 *
 * - `push.notify_owner_on`: the owner notices this push sends (`view`, `failed_passphrase`,
 *   `expired_unseen`); `push.email_locale`: the language of its emails, decided at creation (the
 *   asked locale, else the sender's language, else the default). Both are written only by a create
 *   that involves email (in its transaction); a create without email leaves the defaults.
 * - `app_user.notify_owner_on`: a person's defaults, applied to their creates that do not say.
 * - `push_email_batch`: one per `creation_email_send` audit entry (Password Pusher's
 *   `notify_by_email`): the recipients asked for, the locale, whether the sender is named (and the
 *   address named, as it was verified at the time).
 * - `push_email`: the queue (packages/mail's columns) plus what to compose from. `owner` is charged
 *   for `push_link` rows (the daily cap); `event_id` + `purpose` + `recipient` is unique, so an
 *   outbox event seen twice queues its notice once; `audit_id` ties a notice to the entry of the
 *   event that caused it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table push
    add column notify_owner_on text[] not null default '{}'
      constraint push_notify_owner_on_values check (notify_owner_on <@ array['view', 'failed_passphrase', 'expired_unseen']::text[]),
    add column email_locale text`.execute(db);
  await sql`alter table app_user
    add column notify_owner_on text[] not null default '{}'
      constraint app_user_notify_owner_on_values check (notify_owner_on <@ array['view', 'failed_passphrase', 'expired_unseen']::text[])`.execute(
    db,
  );

  await sql`
    create table push_email_batch (
      id uuid primary key default gen_random_uuid(),
      push_id uuid not null references push (id) on delete cascade,
      audit_id bigint references audit_entry (id) on delete set null,
      owner text not null,
      recipients text[] not null constraint push_email_batch_recipients check (cardinality(recipients) between 1 and 5),
      locale text not null,
      sender_address text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index push_email_batch_push_idx on push_email_batch (push_id)`.execute(db);

  await sql
    .raw(
      `
    create table push_email (
      ${mailQueueColumns},
      push_id uuid not null references push (id) on delete cascade,
      owner text not null,
      purpose text not null check (purpose in ('push_link', 'notice_viewed', 'notice_failed_passphrase', 'notice_expired_unseen')),
      locale text not null,
      batch_id uuid references push_email_batch (id) on delete cascade,
      event_id uuid,
      audit_id bigint,
      constraint push_email_event_key unique (event_id, purpose, recipient),
      constraint push_email_link_has_batch check ((purpose = 'push_link') = (batch_id is not null))
    )`,
    )
    .execute(db);
  await sql.raw(mailQueueIndex('push_email')).execute(db);
  await sql`create index push_email_push_idx on push_email (push_id)`.execute(db);
  // The daily cap: an owner's links sent in the last 24 hours or still on their way.
  await sql`create index push_email_owner_cap_idx on push_email (owner, created_at) where purpose = 'push_link'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table push_email`.execute(db);
  await sql`drop table push_email_batch`.execute(db);
  await sql`alter table app_user drop column notify_owner_on`.execute(db);
  await sql`alter table push drop column notify_owner_on, drop column email_locale`.execute(db);
}
