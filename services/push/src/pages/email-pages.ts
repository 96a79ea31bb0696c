import type { Actor } from '../domain/create-policy';
import type { AuditContext } from '../domain/push';
import type { WebCaller } from '../session/web-session';
import { type EmailSendRow, type NoticeOffer, type OwnerNoticeKind, noNoticesReason } from './email.views';

/**
 * What the web app's pages need of email from the push service's domain (wired in app.ts): absent
 * when the instance sends no email (no SMTP), and then no page offers it.
 */
export interface WebEmail {
  /** The languages an email can be written in; the first is the default. */
  locales: readonly string[];
  /** A person's default owner notices (applied to their creates that do not say). */
  noticeDefaults(userId: string): Promise<readonly OwnerNoticeKind[]>;
  setNoticeDefaults(userId: string, kinds: readonly OwnerNoticeKind[]): Promise<void>;
  /** The email sends of one of the owner's pushes, each recipient with its status. */
  sends(urlToken: string, owner: string): Promise<EmailSendRow[]>;
  /** The same use case as `POST /pushes/:url_token/notify_emails` (owner only, its limits). */
  notify(
    urlToken: string,
    actor: Actor,
    request: { notifyEmailsTo: string; locale: string | undefined },
    audit: AuditContext,
  ): Promise<void>;
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
