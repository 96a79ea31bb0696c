import { type Kysely, sql } from 'kysely';
import { EXPIRED_PUSH } from '../domain/email-policy';
import { MAX_RECIPIENTS_PER_PUSH } from '../domain/email-rules';
import { EmailDailyLimitReached, EmailRefused, PushNotFound } from '../domain/errors';
import type { AuditContext } from '../domain/push';
import type { NewEmailSend } from '../domain/ports/email-store';
import type { PushDatabase } from './database';
import { auditValues } from './push/audit';

type Db = Kysely<PushDatabase>;

/**
 * The owner's links (a push's, or a request's to its responders) that count against the daily cap:
 * sent in the last 24 hours, or still on their way (queued, being sent, deferred), so that a burst cannot overshoot; failed ones do not count.
 * Rows older than 3 days are past any retry schedule (packages/mail's spans about a day).
 */
export async function countCharged(trx: Db, owner: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from push_email
    where owner = ${owner} and purpose in ('push_link', 'request_link') and created_at > now() - interval '3 days'
      and (status in ('queued', 'sending', 'deferred')
           or (status = 'sent' and sent_at > now() - interval '24 hours'))`.execute(trx);
  return rows[0]!.n;
}

/** Takes the owner's cap lock for the rest of the transaction (concurrent sends of one owner queue up). */
export const lockOwnerCap = (trx: Db, owner: string) =>
  sql`select pg_advisory_xact_lock(hashtextextended(${`push_email_cap:${owner}`}, 0))`.execute(trx);

/**
 * Queues one send in the caller's transaction: under a lock per owner (concurrent sends of one
 * owner wait for each other, so the cap holds exactly), checks the daily cap, then writes the
 * `creation_email_send` entry (counted in the push's audit entries), its batch and one queued email
 * per recipient. EmailDailyLimitReached rolls the transaction back.
 */
export async function insertSend(
  trx: Db,
  push: { id: string; owner: string },
  send: NewEmailSend,
  ctx: AuditContext,
): Promise<void> {
  await lockOwnerCap(trx, push.owner);
  if ((await countCharged(trx, push.owner)) + send.recipients.length > send.dailyLimit) {
    throw new EmailDailyLimitReached(send.dailyLimit);
  }
  await sql`
    with counted as (
      update push set audit_entries = audit_entries + 1 where id = ${push.id} returning id
    ), entry as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('creation_email_send', ctx)} from counted
      returning id, push_id
    ), batch as (
      insert into push_email_batch (push_id, audit_id, owner, recipients, locale, sender_address)
      select push_id, id, ${push.owner}, ${send.recipients}::text[], ${send.locale}, ${send.senderAddress}
      from entry
      returning id, push_id, audit_id
    )
    insert into push_email (recipient, push_id, owner, purpose, locale, batch_id, audit_id)
    select r, batch.push_id, ${push.owner}, 'push_link', ${send.locale}, batch.id, batch.audit_id
    from batch, unnest(${send.recipients}::text[]) with ordinality as u(r, i)
    order by i`.execute(trx);
}

/**
 * `notify_emails`: in one transaction, under the push's row lock, a send for a push that is still
 * active and within its lifetime recipients (then insertSend: the daily cap, the entry, the batch,
 * the emails). The push's email language is set if it had none.
 */
export function queueLaterSend(
  db: Db,
  pushId: string,
  owner: string,
  send: NewEmailSend,
  ctx: AuditContext,
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const push = await trx
      .selectFrom('push')
      .select(['id', 'expired', sql<boolean>`expires_at <= now()`.as('past')])
      .where('id', '=', pushId)
      .forUpdate()
      .executeTakeFirst();
    if (!push) throw new PushNotFound();
    if (push.expired || push.past) throw new EmailRefused({ notify_emails_to: [EXPIRED_PUSH] });
    const { n } = await trx
      .selectFrom('push_email')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('push_id', '=', pushId)
      .where('purpose', '=', 'push_link')
      .executeTakeFirstOrThrow();
    if (n + send.recipients.length > MAX_RECIPIENTS_PER_PUSH) {
      throw new EmailRefused({
        notify_emails_to: [
          `can name at most ${MAX_RECIPIENTS_PER_PUSH} recipients over the life of a push (${n} already)`,
        ],
      });
    }
    await trx
      .updateTable('push')
      .set({ email_locale: sql`coalesce(email_locale, ${send.locale})` })
      .where('id', '=', pushId)
      .execute();
    await insertSend(trx, { id: pushId, owner }, send, ctx);
  });
}
