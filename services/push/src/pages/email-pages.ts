import { HttpError } from '@secret-push/http-kit';
import { t } from '@secret-push/i18n';
import type { RequestHandler, Response } from 'express';
import { EMAIL_OFF, EXPIRED_PUSH } from '../domain/email-policy';
import type { EmailSender, NoticeKind } from '../domain/email-rules';
import type { EmailDelivery } from '../domain/ports/email-store';
import type { AuditContext } from '../domain/push';
import type { PushService } from '../domain/push-service';
import { userPrincipalId } from '../domain/user';
import { emailSendOf } from '../http/push.schemas';
import type { SessionData } from '../session/session-store';
import { type WebCaller, webCallerOf } from '../session/web-session';
import { type EmailSendRow, type NoticeOffer, noNoticesReason } from './email.views';

/**
 * What the web app's pages need of email, over the push service's domain: absent when the
 * instance sends no email (no SMTP), and then no page offers it.
 */
export interface WebEmail {
  /** The languages an email can be written in; the first is the default. */
  locales: readonly string[];
  /** A person's default owner notices (applied to their creates that do not say). */
  noticeDefaults(userId: string): Promise<readonly NoticeKind[]>;
  setNoticeDefaults(userId: string, kinds: readonly NoticeKind[]): Promise<void>;
  /** The emails of one of the owner's pushes, each recipient with its status. */
  sends(urlToken: string, owner: string): Promise<EmailSendRow[]>;
  /**
   * "Send the link by email": the use case of `POST /pushes/:url_token/notify_emails` (owner only,
   * 5 recipients per push over its life, the daily cap), as the signed-in person.
   */
  notify(
    urlToken: string,
    session: SessionData,
    form: { to: string; locale: string | undefined },
    audit: AuditContext,
  ): Promise<void>;
  /** `notify_emails`' limit per person (5 a minute), shared with the API; after the session is loaded. */
  rateLimit?: RequestHandler;
}

/** Whom a page request counts for in a per-person limit: the signed-in person, as the API names them. */
export function webUserKey(res: Response): string | undefined {
  const caller = webCallerOf(res);
  return caller.kind === 'signed-in' ? userPrincipalId(caller.session.userId) : undefined;
}

/** The person behind a page, for email: their address if verified (notices are sent only there). */
export const emailSenderOfSession = (
  session: SessionData,
  defaults: readonly NoticeKind[] = [],
): EmailSender => ({
  userId: session.userId,
  verifiedEmail: session.emailVerified ? session.email : null,
  noticeDefaults: defaults,
});

/** What each email is, as its owner reads it (catalogue keys). */
const PURPOSE: Record<EmailDelivery['purpose'], string> = {
  push_link: 'owner.email.purpose.pushLink',
  notice_viewed: 'owner.email.purpose.noticeViewed',
  notice_failed_passphrase: 'owner.email.purpose.noticeFailedPassphrase',
  notice_expired_unseen: 'owner.email.purpose.noticeExpiredUnseen',
  notice_webhook_disabled: 'owner.email.purpose.noticeWebhookDisabled',
  request_link: 'owner.email.purpose.requestLink',
  notice_request_answered: 'owner.email.purpose.noticeRequestAnswered',
  request_code: 'owner.email.purpose.requestCode',
};

const rowOf = (d: EmailDelivery): EmailSendRow => ({
  recipient: d.recipient,
  purpose: t(PURPOSE[d.purpose]),
  status: d.status,
  detail: d.detail,
  attempts: d.attempts,
  updatedAt: d.updatedAt,
});

/** The pages' email over the push service, where it sends email; undefined where it does not. */
export function webEmail(pushes: PushService, rateLimit?: RequestHandler): WebEmail | undefined {
  if (!pushes.emailEnabled) return undefined;
  return {
    locales: pushes.supportedLocales,
    noticeDefaults: (userId) => pushes.noticeDefaults(userId),
    async setNoticeDefaults(userId, kinds) {
      await pushes.setNoticeDefaults(userId, kinds);
    },
    async sends(urlToken, owner) {
      const status = await pushes.emailStatus(urlToken, owner);
      return [...status.sends.flatMap((s) => s.deliveries), ...status.notices].map(rowOf);
    },
    async notify(urlToken, session, form, audit) {
      const fields: Record<string, string[]> = {};
      const fail = (field: string, message: string) => (fields[field] ??= []).push(message);
      const request = emailSendOf(form.to, form.locale, false, fail);
      if (!request && !fields.notify_emails_to) fail('notify_emails_to', "can't be blank");
      if (!request || Object.keys(fields).length > 0) throw HttpError.validation(fields);
      const owner = userPrincipalId(session.userId);
      await pushes.notifyEmails(urlToken, { owner, sender: emailSenderOfSession(session) }, request, audit);
    },
    ...(rateLimit ? { rateLimit } : {}),
  };
}

/** Whether owner notices are offered to this caller (and their defaults), or why not; undefined: anonymous. */
export async function noticeOfferFor(
  caller: WebCaller,
  email: WebEmail | undefined,
): Promise<NoticeOffer | undefined> {
  if (caller.kind !== 'signed-in') return undefined;
  const { session } = caller;
  if (email && session.emailVerified && session.email !== null) {
    return { offered: true, to: session.email, defaults: await email.noticeDefaults(session.userId) };
  }
  return { offered: false, why: noNoticesReason(session.email, email !== undefined) };
}

/** Whether this caller's form has the notice boxes (so that none checked means "none"). */
export const noticesOffered = (caller: WebCaller, email: WebEmail | undefined): boolean =>
  email !== undefined &&
  caller.kind === 'signed-in' &&
  caller.session.emailVerified &&
  caller.session.email !== null;

/** Every value of a form field sent several times (checkboxes of one name), strings only. */
export function formValues(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  const all = Array.isArray(value) ? (value as unknown[]) : value === undefined ? [] : [value];
  return all.filter((v): v is string => typeof v === 'string');
}

/** One of the API's English problems with "Send the link by email", in the page's language. */
function notifyProblem(field: string, message: string): string {
  if (field === 'notify_emails_to_locale') return t('owner.notify.locale');
  if (message === "can't be blank") return t('owner.notify.blank');
  if (message === EXPIRED_PUSH) return t('owner.notify.expired');
  if (message === EMAIL_OFF) return t('owner.notify.off');
  if (message.startsWith('must not have an empty address')) return t('owner.notify.emptyAddress');
  let m = /^can name at most (\d+) recipients over the life of a push \((\d+) already\)/.exec(message);
  if (m) return t('owner.notify.lifetime', { max: Number(m[1]), sent: Number(m[2]) });
  m = /^can name at most (\d+) email addresses/.exec(message);
  if (m) return t('owner.notify.tooMany', { max: Number(m[1]) });
  m = /^contains invalid email addresses: (.*)$/.exec(message);
  if (m) return t('owner.notify.invalid', { addresses: m[1] });
  m = /^contains duplicate email addresses: (.*)$/.exec(message);
  if (m) return t('owner.notify.duplicate', { addresses: m[1] });
  return t('owner.notify.other');
}

/**
 * The problems of a refused "Send the link by email" (the API's English texts, by field; a 429's
 * message) as the owner's page shows them: in the page's language. The API keeps its English.
 */
export function notifyProblems(
  status: number,
  fields: Record<string, string[]> | undefined,
  message: string,
): Record<string, string[]> {
  if (fields) {
    return Object.fromEntries(
      Object.entries(fields).map(([field, messages]) => [
        field,
        messages.map((m) => notifyProblem(field, m)),
      ]),
    );
  }
  if (status === 429) {
    const daily = /limit of (\d+) emails in 24 hours/.exec(message);
    if (daily) return { push: [t('owner.notify.daily', { limit: Number(daily[1]) })] };
    if (message === 'Sending email is disabled on this instance.') return { push: [t('owner.notify.off')] };
    return { push: [t('owner.notify.rate')] };
  }
  return { push: [t('owner.notify.other')] };
}
