/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * Requests (issue 28; docs/api.md, Requests): a person asks somebody for a secret; the answer
 * becomes a push owned by the requester.
 *
 * - `request`: stored like a push. The url_token only as SHA-256 (`token_hash`, lookup) plus a
 *   sealed copy (`token_sealed`, the owner's views and the worker's emails); `message_sealed` and
 *   `note_sealed` sealed with the key ring (`key_id`), bound to the row; the passphrase as the
 *   push's slow hash. `state`: `open` → `answered` (once: `answer_push_id`, `answered_at`) and
 *   `open`/`answered` → `closed` (`closed_reason` `owner` or `time`). The window is
 *   `close_after_at` (from `close_after_duration` | `expire_after_days` | `expire_after_duration`,
 *   whichever the create sent); the `answer_*` columns are the limits of the answer push.
 *   `outbox` means what push.outbox means (somebody listens: `push_event` rows for its changes).
 *   `files_purge_after`/`files_purged`: the requester's attachments (`request_file`) are due for
 *   purging (a close).
 * - `request_audit_entry`: like `audit_entry`, with a foreign key (requests are few, and deleting
 *   one deletes its log).
 * - `request_file`: the requester's attachments, like `push_file` (sealed name, per-file key under
 *   the request's `key_id`) plus `downloads`, how many times the responder fetched it (at most
 *   `request.attachment_downloads_allowed`). A table of its own rather than a nullable
 *   `push_file.push_id`: push files have per-view download counters and purge rules that do not
 *   apply here.
 * - `request_answer_code`: the one-time code sent to a listed responder address (`answerable_by`
 *   `emails`), as a hash, with its expiry, attempts and use.
 * - `push_event`: an event is about a push or a request (`request_answered`, `request_closed`).
 * - `push_email`: `request_id` and the purposes `request_link` (the responder's link),
 *   `notice_request_answered` (to the owner) and `request_code` (to a responder address); those are
 *   about a request, never a push. `push_email_batch` may name a request instead of a push (a
 *   `request_link` send).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createRequest(db);
  await createRequestChildren(db);
  await alterEventsAndEmails(db);
}

async function createRequest(db: Kysely<any>): Promise<void> {
  await sql`
    create table request (
      id uuid primary key,
      token_hash bytea not null unique,
      token_sealed bytea not null,
      key_id text not null,
      owner text not null,
      state text not null default 'open' check (state in ('open', 'answered', 'closed')),
      message_sealed bytea not null,
      name text,
      note_sealed bytea,
      passphrase_hash text,
      response_file_attachments boolean not null default false,
      include_requestor boolean not null default false,
      requestor_email text,
      answerable_by text not null default 'anyone' check (answerable_by in ('anyone', 'users', 'emails')),
      answerable_emails text[] not null default '{}',
      close_after_at timestamptz not null,
      close_after_duration integer,
      expire_after_days integer,
      expire_after_duration integer,
      answer_expire_after_views integer not null check (answer_expire_after_views > 0),
      answer_expire_after_days integer,
      answer_expire_after_duration integer,
      answer_retrieval_step boolean not null default false,
      answer_deletable_by_viewer boolean not null default false,
      answer_push_id uuid references push (id) on delete set null,
      notify_owner_on_answer boolean not null default false,
      email_locale text,
      outbox boolean not null default false,
      attachment_downloads_allowed integer not null default 3 check (attachment_downloads_allowed > 0),
      files_purge_after timestamptz,
      files_purged boolean not null default false,
      audit_entries integer not null default 0,
      audit_dropped integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      answered_at timestamptz,
      closed_at timestamptz,
      closed_reason text check (closed_reason in ('owner', 'time')),
      constraint request_answered_has_time check (state <> 'answered' or answered_at is not null),
      constraint request_closed_has_reason check ((state = 'closed') = (closed_at is not null and closed_reason is not null)),
      constraint request_emails_listed check (
        case when answerable_by = 'emails' then cardinality(answerable_emails) between 1 and 5
             else cardinality(answerable_emails) = 0 end),
      constraint request_requestor_included check (include_requestor or requestor_email is null)
    )`.execute(db);
  await sql`create index request_owner_created_idx on request (owner, created_at desc, id desc)`.execute(db);
  await sql`create index request_owner_state_created_idx on request (owner, state, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index request_close_after_idx on request (close_after_at) where state in ('open', 'answered')`.execute(
    db,
  );
  await sql`create index request_files_purge_idx on request (files_purge_after)
    where not files_purged and files_purge_after is not null`.execute(db);
}

async function createRequestChildren(db: Kysely<any>): Promise<void> {
  await sql`
    create table request_audit_entry (
      id bigint primary key generated always as identity,
      request_id uuid not null references request (id) on delete cascade,
      kind text not null check (kind in ('creation', 'link_opened', 'failed_passphrase', 'answer',
        'answer_refused', 'close', 'close_by_time', 'attachment_download', 'code_sent')),
      ip text,
      user_agent text not null default '',
      referrer text not null default '',
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index request_audit_entry_request_idx on request_audit_entry (request_id, id)`.execute(db);

  await sql`
    create table request_file (
      id uuid primary key,
      request_id uuid not null references request (id) on delete cascade,
      position integer not null,
      object_key text not null unique,
      filename_sealed bytea not null,
      content_type text not null,
      size bigint not null check (size >= 0),
      key_sealed bytea not null,
      downloads integer not null default 0 check (downloads >= 0),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index request_file_request_idx on request_file (request_id, position)`.execute(db);

  await sql`
    create table request_answer_code (
      request_id uuid not null references request (id) on delete cascade,
      email text not null,
      code_hash bytea not null,
      expires_at timestamptz not null,
      attempts integer not null default 0,
      used_at timestamptz,
      created_at timestamptz not null default now(),
      constraint request_answer_code_key unique (request_id, email)
    )`.execute(db);
}

async function alterEventsAndEmails(db: Kysely<any>): Promise<void> {
  await sql`alter table push_event
    alter column push_id drop not null,
    add column request_id uuid,
    add constraint push_event_subject check (num_nonnulls(push_id, request_id) = 1)`.execute(db);

  await sql`alter table push_email_batch
    alter column push_id drop not null,
    add column request_id uuid references request (id) on delete cascade,
    add constraint push_email_batch_subject check (num_nonnulls(push_id, request_id) = 1)`.execute(db);

  await sql`alter table push_email
    add column request_id uuid references request (id) on delete cascade,
    drop constraint push_email_link_has_batch,
    add constraint push_email_link_has_batch check (
      (purpose <> 'push_link' or batch_id is not null) and (batch_id is null or purpose in ('push_link', 'request_link'))),
    drop constraint push_email_purpose_check,
    add constraint push_email_purpose_check check (purpose in ('push_link', 'notice_viewed',
      'notice_failed_passphrase', 'notice_expired_unseen', 'notice_webhook_disabled',
      'request_link', 'notice_request_answered', 'request_code')),
    drop constraint push_email_subject,
    add constraint push_email_subject check (
      case when purpose = 'notice_webhook_disabled' then endpoint_id is not null and push_id is null and request_id is null
           when purpose in ('request_link', 'notice_request_answered', 'request_code') then request_id is not null and push_id is null
           else push_id is not null and request_id is null end)`.execute(db);
  await sql`create index push_email_request_idx on push_email (request_id) where request_id is not null`.execute(
    db,
  );
  // The daily cap for request links, like push_email_owner_cap_idx for push links.
  await sql`create index push_email_owner_request_cap_idx on push_email (owner, created_at) where purpose = 'request_link'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from push_email where request_id is not null`.execute(db);
  await sql`delete from push_email_batch where request_id is not null`.execute(db);
  await sql`delete from push_event where request_id is not null`.execute(db);
  await sql`drop index push_email_owner_request_cap_idx`.execute(db);
  await sql`alter table push_email
    drop constraint push_email_subject,
    drop constraint push_email_purpose_check,
    drop constraint push_email_link_has_batch,
    drop column request_id,
    add constraint push_email_purpose_check check (purpose in ('push_link', 'notice_viewed',
      'notice_failed_passphrase', 'notice_expired_unseen', 'notice_webhook_disabled')),
    add constraint push_email_link_has_batch check ((purpose = 'push_link') = (batch_id is not null)),
    add constraint push_email_subject check (
      case when purpose = 'notice_webhook_disabled' then endpoint_id is not null and push_id is null
           else push_id is not null end)`.execute(db);
  await sql`alter table push_email_batch
    drop constraint push_email_batch_subject,
    drop column request_id,
    alter column push_id set not null`.execute(db);
  await sql`alter table push_event
    drop constraint push_event_subject,
    drop column request_id,
    alter column push_id set not null`.execute(db);
  await sql`drop table request_answer_code`.execute(db);
  await sql`drop table request_file`.execute(db);
  await sql`drop table request_audit_entry`.execute(db);
  await sql`drop table request`.execute(db);
}
