import { type Kysely, sql } from 'kysely';
import { type MailQueueRow, deliverDue } from '@secret-push/mail';
import { EXPIRED_PUSH } from '../domain/email-policy';
import {
  DEFAULT_LOCALE,
  type EmailLocale,
  MAX_RECIPIENTS_PER_PUSH,
  type NoticeKind,
} from '../domain/email-rules';
import { EmailRefused, PushNotFound } from '../domain/errors';
import type { EmailDelivery, EmailPurpose, EmailStore, QueuedEmail } from '../domain/ports/email-store';
import type { PushKind } from '../domain/push';
import type { PushDatabase } from './database';
import { insertSend } from './email-send.sql';
import type { PushEmailRow } from './email.table';
import type { PushRow } from './push.table';

type Db = Kysely<PushDatabase>;
type QueueRow = MailQueueRow & PushEmailRow;

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

/** The push and the batch an email is composed from, as they are now (null: the push is gone). */
async function composingContext(db: Db, row: QueueRow): Promise<QueuedEmail> {
  const { rows } = await sql<PushRow & { sender_address: string | null; db_now: Date }>`
    select p.*, b.sender_address, now() as db_now
    from (select 1) one
    left join push p on p.id = ${row.push_id}
    left join push_email_batch b on b.id = ${row.batch_id}`.execute(db);
  const p = rows[0]!;
  return {
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
    queueSend: (pushId, owner, send, ctx) =>
      db.transaction().execute(async (trx) => {
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
      }),

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
        onOutcome: (row, status, detail) => {
          if (status === 'sending' || status === 'queued') return;
          args.onOutcome?.({ id: row.id, purpose: row.purpose as EmailPurpose }, status, detail);
        },
      }),
  };
}
