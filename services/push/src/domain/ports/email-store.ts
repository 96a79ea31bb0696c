import type { EmailLocale, NoticeKind } from '../email-rules';
import type { AuditContext, PushKind } from '../push';
import type { MailSender } from './mail-sender';

/*
 * The email store port: the queue of the push service's emails and what the API shows of them
 * (storage/email.repository.ts implements it; the statements of a create with email are the push
 * store's, in the create's transaction: storage/push/insert-email.ts).
 */

/** Why an email is sent: a recipient's link, or a notice to the push's owner. */
export const EMAIL_PURPOSES = [
  'push_link',
  'notice_viewed',
  'notice_failed_passphrase',
  'notice_expired_unseen',
  'notice_webhook_disabled',
  'request_link',
  'notice_request_answered',
  'request_code',
] as const;
export type EmailPurpose = (typeof EMAIL_PURPOSES)[number];

/** The purposes about a request (issue 28): `push_email.request_id` names it, never a push. */
export const REQUEST_EMAIL_PURPOSES = ['request_link', 'notice_request_answered', 'request_code'] as const;
export type RequestEmailPurpose = (typeof REQUEST_EMAIL_PURPOSES)[number];
export const isRequestEmailPurpose = (p: EmailPurpose): p is RequestEmailPurpose =>
  (REQUEST_EMAIL_PURPOSES as readonly string[]).includes(p);

/** A request as its emails are composed from it (as it is now). */
export interface QueuedRequest {
  id: string;
  name: string | null;
  keyId: string;
  tokenSealed: Buffer;
  state: 'open' | 'answered' | 'closed';
  passphraseProtected: boolean;
  closeAfterAt: Date;
  createdAt: Date;
  /** The requester's address as captured at create, only when the owner chose to show it. */
  requestorAddress: string | null;
}

/** The one-time code of a `request_code` email, as stored for its request and recipient. */
export interface QueuedAnswerCode {
  keyId: string | null;
  codeSealed: Buffer | null;
  expiresAt: Date;
  usedAt: Date | null;
  attempts: number;
}

/** One email's delivery as owners see it (`sending`, leased to a sender, shows as `queued`). */
export interface EmailDelivery {
  id: string;
  purpose: EmailPurpose;
  recipient: string;
  status: 'queued' | 'sent' | 'deferred' | 'failed';
  attempts: number;
  /** The server's reply when sent; the reason when deferred or failed; null while queued. */
  detail: string | null;
  updatedAt: Date;
  /** The send (`creation_email_send`) of a link; null for a notice. */
  batchId: string | null;
  /** The audit entry it belongs to: its send's, or the event's that caused a notice. */
  auditId: string | null;
}

/** One send (a `creation_email_send` audit entry): Password Pusher's `notify_by_email`. */
export interface EmailBatch {
  id: string;
  auditId: string | null;
  recipients: string[];
  locale: EmailLocale;
  createdAt: Date;
}

/** The sends of a push and every email queued for it, oldest first. */
export interface PushEmails {
  batches: EmailBatch[];
  deliveries: EmailDelivery[];
}

/** A send to queue: its recipients, in whose name, charged to whom. */
export interface NewEmailSend {
  recipients: string[];
  locale: EmailLocale;
  /** The address named in the email (`notify_emails_include_sender`); null: the sender is not named. */
  senderAddress: string | null;
  /** Links an owner may have accepted in 24 hours (PUSH_EMAIL_DAILY_LIMIT); 0 blocks all. */
  dailyLimit: number;
}

/** What a create with email writes besides the push (in one transaction with it). */
export interface NewPushEmail {
  noticeOn: NoticeKind[];
  locale: EmailLocale;
  send: NewEmailSend | null;
}

/** A queued email leased to a sender, with what composing it needs (the push as it is now). */
export interface QueuedEmail {
  id: string;
  purpose: EmailPurpose;
  recipient: string;
  locale: EmailLocale;
  attempts: number;
  senderAddress: string | null;
  push: {
    id: string;
    kind: PushKind;
    name: string | null;
    keyId: string;
    tokenSealed: Buffer;
    retrievalStep: boolean;
    passphraseProtected: boolean;
    expireAfterViews: number;
    views: number;
    expiresAt: Date;
    expired: boolean;
    deleted: boolean;
    createdAt: Date;
  } | null;
  /** `notice_webhook_disabled`: the endpoint as it is now (null: deleted). */
  endpoint?: { id: string; url: string; enabled: boolean; disabledReason: string | null } | null;
  /** The request purposes: the request as it is now (null: deleted). */
  request?: QueuedRequest | null;
  /** `request_code`: the recipient's code as it is now (null: none). */
  answerCode?: QueuedAnswerCode | null;
  /** The database's clock when leased. */
  now: Date;
}

/** What one attempt came to (packages/mail's outcome, as the domain's words). */
export type EmailOutcomeStatus = 'sent' | 'deferred' | 'failed';

/** What to send for a leased email, or why not (final). */
export type ComposedEmail =
  | { mail: { to: string; subject: string; text: string; html: string; headers?: Record<string, string> } }
  | { cancel: string };

/** An owner notice to queue for an outbox event (at most once per event, purpose and recipient). */
export interface NewNotice {
  eventId: string;
  pushId: string;
  auditId: string | null;
  purpose: Exclude<EmailPurpose, 'push_link' | 'notice_webhook_disabled' | RequestEmailPurpose>;
}

/** The push service's emails (storage/email.repository.ts). */
export interface EmailStore {
  /**
   * `notify_emails`: under the push's row lock, a send for a push that is still active, within
   * the push's lifetime recipients and the owner's daily cap: the `creation_email_send` entry, its
   * batch and one queued email per recipient, in one transaction. Throws PushNotFound,
   * EmailRefused, EmailDailyLimitReached.
   */
  queueSend(pushId: string, owner: string, send: NewEmailSend, ctx: AuditContext): Promise<void>;
  /** The push's sends and emails (what its audit shows), oldest first. */
  emailsOf(pushId: string): Promise<PushEmails>;
  noticeDefaults(userId: string): Promise<NoticeKind[] | undefined>;
  /** False for an unknown user. */
  setNoticeDefaults(userId: string, kinds: NoticeKind[]): Promise<boolean>;
  /** The notices the given pushes asked for and their views (unknown ids are left out). */
  noticeTargets(
    pushIds: readonly string[],
  ): Promise<{ pushId: string; noticeOn: NoticeKind[]; views: number }[]>;
  /**
   * Queues owner notices for outbox events: each to the owner's verified address (nothing for an
   * owner without one: returned as skipped), in the push's locale; an event already queued is not
   * queued again. A `notice_failed_passphrase` is queued only if the push had none in the last
   * `failedPassphraseQuietSeconds`.
   */
  queueNotices(
    notices: NewNotice[],
    options: { failedPassphraseQuietSeconds: number },
  ): Promise<{ queued: number; skipped: number }>;
  /**
   * One round of the sender: leases up to `limit` due emails (SKIP LOCKED; a lease of
   * `leaseSeconds`), composes and sends each, records each outcome (packages/mail's deliverDue).
   */
  deliverDue(args: {
    sender: MailSender;
    compose: (email: QueuedEmail) => Promise<ComposedEmail>;
    messageIdDomain: string;
    limit: number;
    leaseSeconds: number;
    concurrency?: number;
    onOutcome?: (
      email: Pick<QueuedEmail, 'id' | 'purpose'>,
      status: EmailOutcomeStatus,
      detail: string,
    ) => void;
  }): Promise<{ sent: number; deferred: number; failed: number }>;
}
