import { type Kysely, sql } from 'kysely';
import { EmailDailyLimitReached } from '../domain/errors';
import type { NewEmailSend } from '../domain/ports/email-store';
import type { PushDatabase } from './database';
import { countCharged, lockOwnerCap } from './email-send.sql';

type Db = Kysely<PushDatabase>;

/**
 * A request create's `notify_emails_to` (issue 28), in the create's transaction: under the owner's
 * cap lock (the same daily cap as push links, which these links count against), one batch naming the
 * request and one queued `request_link` email per recipient; the request's email language is set.
 * EmailDailyLimitReached rolls the create back.
 */
export async function insertRequestSend(
  trx: Db,
  request: { id: string; owner: string },
  send: NewEmailSend,
): Promise<void> {
  await lockOwnerCap(trx, request.owner);
  if ((await countCharged(trx, request.owner)) + send.recipients.length > send.dailyLimit) {
    throw new EmailDailyLimitReached(send.dailyLimit);
  }
  await sql`
    with located as (
      update request set email_locale = coalesce(email_locale, ${send.locale}) where id = ${request.id}
      returning id
    ), batch as (
      insert into push_email_batch (request_id, owner, recipients, locale, sender_address)
      select id, ${request.owner}, ${send.recipients}::text[], ${send.locale}, null from located
      returning id, request_id
    )
    insert into push_email (recipient, request_id, owner, purpose, locale, batch_id)
    select r, batch.request_id, ${request.owner}, 'request_link', ${send.locale}, batch.id
    from batch, unnest(${send.recipients}::text[]) with ordinality as u(r, i)
    order by i`.execute(trx);
}
