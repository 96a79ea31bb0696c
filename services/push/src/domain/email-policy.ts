import {
  type CreateEmailInput,
  DEFAULT_LOCALE,
  type EmailLocale,
  type EmailSendRequest,
  type EmailSender,
  type NoticeKind,
} from './email-rules';
import { EmailRefused } from './errors';
import type { NewEmailSend, NewPushEmail } from './ports/email-store';

/** The instance's email settings the rules depend on. */
export interface EmailSettings {
  /** SMTP is configured (PUSH_SMTP_URL): email features are on. */
  enabled: boolean;
  /** PUSH_EMAIL_DAILY_LIMIT: links an owner may have accepted in 24 hours; 0 blocks all. */
  dailyLimit: number;
  /**
   * The languages offered (I18N_LANGUAGES): `notify_emails_to_locale` may name one of these only;
   * absent: every email language.
   */
  languages?: readonly string[];
}

export const EMAIL_OFF = 'Email is not available on this instance.';
export const UNKNOWN_USERS = 'are not allowed for unknown users';
export const EXPIRED_PUSH = 'are not available for expired pushes';

/** Who asks for a send: the owner recorded on the push, and the person behind it if any. */
export interface EmailCaller {
  owner: string | null;
  sender: EmailSender | null;
}

/**
 * A send's rights: email on, a known owner (anonymous pushes have nobody to charge), and a person
 * with a verified address to name when the sender is to be named. Returns what to queue.
 */
function sendFor(
  request: EmailSendRequest,
  caller: EmailCaller,
  settings: EmailSettings,
  fallbackLocale: EmailLocale | null,
  fail: (field: string, message: string) => void,
): NewEmailSend | null {
  if (!settings.enabled) fail('notify_emails_to', EMAIL_OFF);
  else if (caller.owner === null) fail('notify_emails_to', UNKNOWN_USERS);
  if (request.locale !== null && settings.languages && !settings.languages.includes(request.locale)) {
    fail('notify_emails_to_locale', 'is not available');
  }
  if (request.includeSender && !caller.sender?.verifiedEmail) {
    fail(
      'notify_emails_include_sender',
      'needs a signed-in person (a session or a personal token) whose email address is verified',
    );
  }
  return {
    recipients: request.recipients,
    locale: request.locale ?? fallbackLocale ?? DEFAULT_LOCALE,
    senderAddress: request.includeSender ? (caller.sender?.verifiedEmail ?? null) : null,
    dailyLimit: settings.dailyLimit,
  };
}

/**
 * What email a create involves, decided from its fields, the caller and the instance, or null
 * for a create without email (then nothing but the push is written):
 * - `notify_emails_to` needs email on and an owner (422 otherwise: no longer silently ignored);
 * - `notify_owner_on` is only for a person whose address is verified (422 when given otherwise),
 *   and needs email on; when not given, a person's account defaults apply (where email is on);
 * - the language: the one asked for, else the sender's (`Accept-Language` at creation), else
 *   the default.
 * @throws EmailRefused naming every problem by field.
 */
export function emailPlanFor(
  input: CreateEmailInput | undefined,
  caller: EmailCaller,
  settings: EmailSettings,
  senderLocale: EmailLocale | null,
): NewPushEmail | null {
  const fields: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (fields[field] ??= []).push(message);
  const send = input?.send ? sendFor(input.send, caller, settings, senderLocale, fail) : null;
  let noticeOn: NoticeKind[];
  if (input?.noticeOn) {
    if (!caller.sender?.verifiedEmail) {
      fail(
        'notify_owner_on',
        'is only for a person (a session or a personal token) whose email address is verified',
      );
    } else if (!settings.enabled && input.noticeOn.length > 0) fail('notify_owner_on', EMAIL_OFF);
    noticeOn = input.noticeOn;
  } else {
    noticeOn = settings.enabled && caller.sender?.verifiedEmail ? [...caller.sender.noticeDefaults] : [];
  }
  if (Object.keys(fields).length > 0) throw new EmailRefused(fields);
  if (!send && noticeOn.length === 0) return null;
  return { noticeOn, locale: send?.locale ?? senderLocale ?? DEFAULT_LOCALE, send };
}

/**
 * A later send (`notify_emails`) by the push's owner: the same rights as at creation; the push
 * must still be active (checked again under its lock by the store).
 */
export function laterSendFor(
  request: EmailSendRequest,
  caller: EmailCaller,
  settings: EmailSettings,
  pushLocale: EmailLocale | null,
): NewEmailSend {
  const fields: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (fields[field] ??= []).push(message);
  const send = sendFor(request, caller, settings, pushLocale, fail);
  if (Object.keys(fields).length > 0 || !send) throw new EmailRefused(fields);
  return send;
}
