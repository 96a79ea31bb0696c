import { type Kysely, sql } from 'kysely';
import { type MailQueueRow, deliverDue } from '@secret-push/mail';
import { DEFAULT_LOCALE, type EmailLocale, type NoticeKind } from '../domain/email-rules';
import type { EmailDelivery, EmailPurpose, EmailStore, QueuedEmail } from '../domain/ports/email-store';
import type { PushKind } from '../domain/push';
import type { PushDatabase } from './database';
import { queueLaterSend } from './email-send.sql';
import { requestEmailContext } from './request-email.sql';
import type { PushEmailRow } from './email.table';
import type { PushRow } from './push.table';

type Db = Kysely<PushDatabase>;
type QueueRow = MailQueueRow & PushEmailRow;

/** The request emails whose final failure is an `email_failed` event of the request. */
const REQUEST_FAILURE_PURPOSES: ReadonlySet<string> = new Set(['request_link', 'notice_request_answered']);

const toDelivery = (r: PushEmailRow): EmailDelivery => ({
  id: r.id,
  purpose: r.purpose as EmailPurpose,
  recipient: r.recipient,
  status: r.status === 'sending' ? 'queued' : r.status,
  attempts: r.attempts,
  detail: r.status === 'sent' ? r.smtp_response : r.last_error,
  updatedAt: r.updated_at,
  batchId: r.batch_id,
  auditId: r.audit_id,
});

interface EndpointColumns {
  endpoint_url: string | null;
  endpoint_enabled: boolean | null;
  endpoint_disabled_reason: string | null;
}

/**
 * The push and the batch an email is composed from, as they are now (null: the push is gone), or
 * the webhook endpoint of a `notice_webhook_disabled`.
 */
async function composingContext(db: Db, row: QueueRow): Promise<QueuedEmail> {
  const { rows } = await sql<PushRow & EndpointColumns & { sender_address: string | null; db_now: Date }>`
    select p.*, b.sender_address, now() as db_now,
      w.url as endpoint_url, w.enabled as endpoint_enabled, w.disabled_reason as endpoint_disabled_reason
    from (select 1) one
    left join push p on p.id = ${row.push_id}
    left join push_email_batch b on b.id = ${row.batch_id}
    left join webhook_endpoint w on w.id = ${row.endpoint_id}`.execute(db);
  const p = rows[0]!;
  return {
    ...(await requestEmailContext(db, row)),
    endpoint:
      row.endpoint_id === null || p.endpoint_url === null
        ? null
        : {
            id: row.endpoint_id,
            url: p.endpoint_url,
            enabled: p.endpoint_enabled!,
            disabledReason: p.endpoint_disabled_reason,
          },
    id: row.id,
    purpose: row.purpose as EmailPurpose,
    recipient: row.recipient,
    locale: row.locale as EmailLocale,
    attempts: row.attempts,
    senderAddress: p.sender_address,
    now: p.db_now,
    push:
      p.id === null
        ? null
        : {
            id: p.id,
            kind: p.kind as PushKind,
            name: p.name,
            keyId: p.key_id,
            tokenSealed: p.token_sealed,
            retrievalStep: p.retrieval_step,
            passphraseProtected: p.passphrase_protected,
            expireAfterViews: p.expire_after_views,
            views: p.views,
            expiresAt: p.expires_at,
            expired: p.expired,
            deleted: p.deleted,
            createdAt: p.created_at,
          },
  };
}

/** The domain's EmailStore over PostgreSQL (tables: see the 2026_11_26_0004 migration). */
export function createEmailRepository(db: Db): EmailStore {
  return {
    queueSend: (pushId, owner, send, ctx) => queueLaterSend(db, pushId, owner, send, ctx),

    async emailsOf(pushId) {
      const [batches, emails] = await Promise.all([
        db
          .selectFrom('push_email_batch')
          .selectAll()
          .where('push_id', '=', pushId)
          .orderBy('created_at')
          .execute(),
        db
          .selectFrom('push_email')
          .selectAll()
          .where('push_id', '=', pushId)
          .orderBy('created_at')
          .orderBy('id')
          .execute(),
      ]);
      return {
        batches: batches.map((b) => ({
          id: b.id,
          auditId: b.audit_id,
          recipients: b.recipients,
          locale: b.locale as EmailLocale,
          createdAt: b.created_at,
        })),
        deliveries: emails.map(toDelivery),
      };
    },

    async noticeDefaults(userId) {
      const row = await db
        .selectFrom('app_user')
        .select('notify_owner_on')
        .where('id', '=', userId)
        .executeTakeFirst();
      return row?.notify_owner_on as NoticeKind[] | undefined;
    },

    async setNoticeDefaults(userId, kinds) {
      const r = await db
        .updateTable('app_user')
        .set({ notify_owner_on: kinds })
        .where('id', '=', userId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async noticeTargets(pushIds) {
      if (pushIds.length === 0) return [];
      const rows = await db
        .selectFrom('push')
        .select(['id', 'notify_owner_on', 'views'])
        .where('id', 'in', [...pushIds])
        .execute();
      return rows.map((r) => ({ pushId: r.id, noticeOn: r.notify_owner_on as NoticeKind[], views: r.views }));
    },

    async queueNotices(notices, { failedPassphraseQuietSeconds }) {
      let queued = 0;
      for (const n of notices) {
        const { rows } = await sql<{ id: string }>`
          insert into push_email (recipient, push_id, owner, purpose, locale, event_id, audit_id)
          select u.email, p.id, p.owner, ${n.purpose}, coalesce(p.email_locale, ${DEFAULT_LOCALE}),
                 ${n.eventId}::uuid, ${n.auditId}::bigint
          from push p join app_user u on p.owner = 'user:' || u.id::text
          where p.id = ${n.pushId} and u.email_verified and u.email is not null
            and (${n.purpose} <> 'notice_failed_passphrase' or not exists (
              select 1 from push_email e
              where e.push_id = p.id and e.purpose = 'notice_failed_passphrase'
                and e.created_at > now() - make_interval(secs => ${failedPassphraseQuietSeconds})))
          on conflict (event_id, purpose, recipient) do nothing
          returning id`.execute(db);
        queued += rows.length;
      }
      return { queued, skipped: notices.length - queued };
    },

    deliverDue: (args) =>
      deliverDue<QueueRow>({
        db,
        table: 'push_email',
        mailer: args.sender,
        messageIdDomain: args.messageIdDomain,
        limit: args.limit,
        leaseSeconds: args.leaseSeconds,
        concurrency: args.concurrency,
        compose: async (row) => args.compose(await composingContext(db, row)),
        // A push's email that failed for good is an event (webhook `email.delivery_failed`) where
        // somebody listens to the push, committed with the failure; so is a request's link to the
        // responder or its owner's notice (not a one-time code: the responder asked for that one).
        onFinalFailure: async (trx, row) => {
          if (row.push_id !== null) {
            await sql`insert into push_event (push_id, kind, email_id)
              select p.id, 'email_failed', ${row.id}::uuid from push p
              where p.id = ${row.push_id} and p.outbox`.execute(trx);
          } else if (row.request_id !== null && REQUEST_FAILURE_PURPOSES.has(row.purpose)) {
            await sql`insert into push_event (request_id, kind, email_id)
              select r.id, 'email_failed', ${row.id}::uuid from request r
              where r.id = ${row.request_id} and r.outbox`.execute(trx);
          }
        },
        onOutcome: (row, status, detail) => {
          if (status === 'sending' || status === 'queued') return;
          args.onOutcome?.({ id: row.id, purpose: row.purpose as EmailPurpose }, status, detail);
        },
      }),
  };
}
