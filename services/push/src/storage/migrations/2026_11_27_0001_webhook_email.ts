/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * Where email and webhooks meet (issue 27):
 *
 * - `push_event.email_id`: an `email_failed` event (webhook `email.delivery_failed`) names the
 *   `push_email` row that failed for good; written in the transaction that records the failure.
 * - `push_email.endpoint_id` and the purpose `notice_webhook_disabled`: the owner is told that the
 *   worker disabled one of their webhook endpoints, queued by the statement that disables it. Such
 *   a notice is about no push (`push_id` null); every other purpose still needs its push.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table push_event add column email_id uuid`.execute(db);
  await sql`alter table push_email
    alter column push_id drop not null,
    add column endpoint_id uuid references webhook_endpoint (id) on delete cascade,
    drop constraint push_email_purpose_check,
    add constraint push_email_purpose_check check (purpose in ('push_link', 'notice_viewed',
      'notice_failed_passphrase', 'notice_expired_unseen', 'notice_webhook_disabled')),
    add constraint push_email_subject check (
      case when purpose = 'notice_webhook_disabled' then endpoint_id is not null and push_id is null
           else push_id is not null end)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from push_email where purpose = 'notice_webhook_disabled'`.execute(db);
  await sql`alter table push_email
    drop constraint push_email_subject,
    drop constraint push_email_purpose_check,
    add constraint push_email_purpose_check check (purpose in ('push_link', 'notice_viewed',
      'notice_failed_passphrase', 'notice_expired_unseen')),
    drop column endpoint_id,
    alter column push_id set not null`.execute(db);
  await sql`alter table push_event drop column email_id`.execute(db);
}
