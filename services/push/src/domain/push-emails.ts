import { type EmailCaller, type EmailSettings, laterSendFor } from './email-policy';
import {
  type EmailLocale,
  type EmailSendRequest,
  type NoticeKind,
  SUPPORTED_LOCALES,
  canonicalNotices,
} from './email-rules';
import { NotOwner, UserNotFound } from './errors';
import type { EmailBatch, EmailDelivery, EmailStore } from './ports/email-store';
import type { AuditContext, AuditEntry, Push } from './push';
import type { PushLookup } from './push-lookup';

/**
 * A send as Password Pusher's audit shows it (`notify_by_email`), from its emails' states:
 * `pending` while any is on its way, `completed` when all were accepted, `failed` when none was,
 * `partially_failed` otherwise.
 */
export interface NotifyByEmail {
  recipients: string[];
  locale: string;
  status: 'pending' | 'completed' | 'partially_failed' | 'failed';
  successfulSends: string[];
  errorMessage: string | null;
  proceedAt: Date;
  recipientsCount: number;
}

export function notifyByEmailOf(batch: EmailBatch, deliveries: readonly EmailDelivery[]): NotifyByEmail {
  const sent = deliveries.filter((d) => d.status === 'sent');
  const failed = deliveries.filter((d) => d.status === 'failed');
  const pending = deliveries.length - sent.length - failed.length;
  const status =
    pending > 0
      ? 'pending'
      : failed.length === 0
        ? 'completed'
        : sent.length === 0
          ? 'failed'
          : 'partially_failed';
  return {
    recipients: batch.recipients,
    locale: batch.locale,
    status,
    successfulSends: sent.map((d) => d.recipient),
    errorMessage:
      status === 'failed'
        ? 'No emails were sent successfully.'
        : status === 'partially_failed'
          ? 'Some emails could not be sent.'
          : null,
    proceedAt: batch.createdAt,
    recipientsCount: batch.recipients.length,
  };
}

/** An audit entry with its emails: a send's `notify_by_email`, and the emails it (or its event) caused. */
export interface AuditEntryWithEmail extends AuditEntry {
  notifyByEmail?: NotifyByEmail;
  emailDeliveries?: EmailDelivery[];
}

/** The sends of one push with their emails' states (what its audit and the owner's page show). */
export interface PushEmailStatus {
  sends: { batch: EmailBatch; notifyByEmail: NotifyByEmail; deliveries: EmailDelivery[] }[];
  /** Owner notices, each with the audit entry of the event that caused it. */
  notices: EmailDelivery[];
}

export interface PushEmailDeps {
  emailStore?: EmailStore;
  email?: EmailSettings;
}

/** The email languages the instance offers (I18N_LANGUAGES), in SUPPORTED_LOCALES' order. */
const offeredLocales = (offered: readonly string[] | undefined): readonly EmailLocale[] =>
  offered ? SUPPORTED_LOCALES.filter((l) => offered.includes(l)) : SUPPORTED_LOCALES;

/**
 * The email use cases of the push service (issue 26): a later send (`notify_emails`), the status
 * of a push's emails, the audit's email detail, a person's notice defaults.
 */
export function pushEmails(deps: PushEmailDeps, lookup: PushLookup) {
  const settings = deps.email ?? { enabled: false, dailyLimit: 0 };
  const store = () => {
    if (!deps.emailStore) throw new Error('unreachable: email is off (no email store wired)');
    return deps.emailStore;
  };

  async function emailStatusOf(push: Push): Promise<PushEmailStatus> {
    if (push.emailLocale === null || !deps.emailStore) return { sends: [], notices: [] };
    const { batches, deliveries } = await deps.emailStore.emailsOf(push.id);
    return {
      sends: batches.map((batch) => {
        // In the order the recipients were given (their rows share the send's time).
        const at = (d: EmailDelivery) => batch.recipients.indexOf(d.recipient);
        const own = deliveries.filter((d) => d.batchId === batch.id).sort((a, b) => at(a) - at(b));
        return { batch, notifyByEmail: notifyByEmailOf(batch, own), deliveries: own };
      }),
      notices: deliveries.filter((d) => d.purpose !== 'push_link'),
    };
  }

  return {
    /** Email is on (SMTP configured): `features.pushes.email_auto_dispatch`. */
    emailEnabled: settings.enabled,
    /** The languages an email may be asked in (`notify_emails_to_locale`): the offered ones. */
    supportedLocales: offeredLocales(settings.languages),

    /**
     * `notify_emails`: the owner emails the push's link to more recipients (at most 5 per push over
     * its life, within the daily cap); the push must be active.
     */
    async notifyEmails(
      urlToken: string,
      caller: EmailCaller & { owner: string },
      request: EmailSendRequest,
      ctx: AuditContext,
    ): Promise<void> {
      const { push } = await lookup.findCurrent(urlToken);
      if (push.owner !== caller.owner) throw new NotOwner();
      const send = laterSendFor(request, caller, settings, push.emailLocale);
      // Expired (and the lifetime limit) are checked under the push's lock by the store.
      await store().queueSend(push.id, caller.owner, send, ctx);
    },

    /** The per-recipient state of a push's emails, for its owner. */
    async emailStatus(urlToken: string, owner: string): Promise<PushEmailStatus> {
      const { push } = await lookup.find(urlToken);
      if (push.owner !== owner) throw new NotOwner();
      return emailStatusOf(push);
    },

    /** Audit entries with their email detail (one more statement, only for a push that had email). */
    withEmail: async (push: Push, entries: AuditEntry[]): Promise<AuditEntryWithEmail[]> => {
      const status = await emailStatusOf(push);
      if (status.sends.length === 0 && status.notices.length === 0) return entries;
      return entries.map((e) => {
        const send = status.sends.find((s) => s.batch.auditId === e.id);
        const notices = status.notices.filter((n) => n.auditId === e.id);
        return {
          ...e,
          ...(send ? { notifyByEmail: send.notifyByEmail, emailDeliveries: send.deliveries } : {}),
          ...(notices.length > 0 ? { emailDeliveries: notices } : {}),
        };
      });
    },

    /** A person's owner notice defaults (applied to their creates that do not say). */
    async noticeDefaults(userId: string): Promise<NoticeKind[]> {
      const kinds = await store().noticeDefaults(userId);
      if (!kinds) throw new UserNotFound();
      return kinds;
    },

    async setNoticeDefaults(userId: string, kinds: readonly NoticeKind[]): Promise<NoticeKind[]> {
      const canonical = canonicalNotices(kinds);
      if (!(await store().setNoticeDefaults(userId, canonical))) throw new UserNotFound();
      return canonical;
    },
  };
}
