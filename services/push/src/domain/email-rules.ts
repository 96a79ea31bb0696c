import { LANGUAGES, type Language, SOURCE_LANGUAGE, isLanguage } from '@secret-push/i18n';

/*
 * Email from the push service, its rules (no I/O): the languages, the recipients a send may name,
 * the owner notices a person may ask for. Password Pusher's limits (docs/api.md, Email).
 */

/**
 * The languages an email can be written in: every language with a catalogue (@secret-push/i18n's
 * LANGUAGES, spelled as Password Pusher's `notify_emails_to_locale`: `en, de, fr, es, it, nl, pt-BR,
 * pl`), matched exactly as written (`pt-BR`; `pt-br` or `DE` are not available, as in Password
 * Pusher). The operator's I18N_LANGUAGES narrows what a create may ask for (email-policy.ts); the
 * worker writes a stored language that is no longer offered in I18N_DEFAULT_LANGUAGE.
 */
export const SUPPORTED_LOCALES: readonly Language[] = LANGUAGES;
export type EmailLocale = Language;
/** The language stored for an email that names none (the catalogues' source language). */
export const DEFAULT_LOCALE: EmailLocale = SOURCE_LANGUAGE;

export const isSupportedLocale = (value: string): value is EmailLocale => isLanguage(value);

/**
 * The sender's language for their emails, from the language negotiated for their request (cookie,
 * `Accept-Language`, against the offered languages: `I18n.negotiate`): itself when it is an email
 * language, else `fallback` (the pseudo-locale `en-XA` is no email language).
 */
export const senderLocaleOf = (negotiated: string, fallback: string): EmailLocale | null =>
  isSupportedLocale(negotiated) ? negotiated : isSupportedLocale(fallback) ? fallback : null;

/**
 * The language a web form's "Language of the email" preselects: the page's when the form offers
 * it (the sender's language), else the form's first.
 */
export const preselectedLocale = (offered: readonly string[], pageLocale: string): string =>
  offered.includes(pageLocale) ? pageLocale : (offered[0] ?? DEFAULT_LOCALE);

/** Addresses one send (a create, or one `notify_emails` call) may name. */
export const MAX_RECIPIENTS_PER_SEND = 5;
/** Recipients a push may have over its whole life, all sends together. */
export const MAX_RECIPIENTS_PER_PUSH = 5;

const ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;
/** An address is at most 254 characters (RFC 5321's path limit less its brackets). */
const MAX_ADDRESS = 254;

/**
 * `notify_emails_to`: comma-separated addresses (spaces around them ignored), 1 to 5, each a plain
 * address (`a@b.c`), no duplicates (compared without regard to case), no empty item (a trailing
 * comma). Returns them as given (trimmed), or the problems in Password Pusher's style.
 */
export function parseRecipients(
  raw: string,
): { ok: true; recipients: string[] } | { ok: false; problems: string[] } {
  if (raw.length > MAX_RECIPIENTS_PER_SEND * (MAX_ADDRESS + 2)) {
    return { ok: false, problems: [`can name at most ${MAX_RECIPIENTS_PER_SEND} email addresses`] };
  }
  const items = raw.split(',').map((s) => s.trim());
  const problems: string[] = [];
  if (items.length === 1 && items[0] === '') return { ok: false, problems: ["can't be blank"] };
  if (items.some((s) => s === '')) {
    problems.push('must not have an empty address (a trailing or double comma)');
  }
  const given = items.filter((s) => s !== '');
  if (given.length > MAX_RECIPIENTS_PER_SEND) {
    problems.push(`can name at most ${MAX_RECIPIENTS_PER_SEND} email addresses`);
  }
  const bad = given.filter((s) => s.length > MAX_ADDRESS || !ADDRESS.test(s));
  if (bad.length > 0) problems.push(`contains invalid email addresses: ${bad.slice(0, 5).join(', ')}`);
  const seen = new Set<string>();
  const dupes = given.filter((s) => {
    const k = s.toLowerCase();
    if (seen.has(k)) return true;
    seen.add(k);
    return false;
  });
  if (dupes.length > 0) problems.push(`contains duplicate email addresses: ${dupes.slice(0, 5).join(', ')}`);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, recipients: given };
}

/** What an owner may be told about their push, by email to their verified address. */
export const NOTICE_KINDS = ['view', 'failed_passphrase', 'expired_unseen'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export const isNoticeKind = (value: string): value is NoticeKind =>
  (NOTICE_KINDS as readonly string[]).includes(value);

/** Notice kinds in their canonical order, each once. */
export const canonicalNotices = (kinds: Iterable<NoticeKind>): NoticeKind[] => {
  const set = new Set(kinds);
  return NOTICE_KINDS.filter((k) => set.has(k));
};

/**
 * `notify_owner_on`: an array (JSON) or a comma-separated string (forms) of notice kinds; an empty
 * array or string asks for none. Returns them canonical, or the problem.
 */
export function parseNoticeKinds(
  raw: unknown,
): { ok: true; kinds: NoticeKind[] } | { ok: false; problem: string } {
  const problem = `must be a list of ${NOTICE_KINDS.join(', ')}`;
  let items: unknown[];
  if (typeof raw === 'string') {
    items =
      raw.length > 200
        ? [raw]
        : raw
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '');
  } else if (Array.isArray(raw) && raw.length <= NOTICE_KINDS.length * 2) items = raw;
  else return { ok: false, problem };
  const kinds: NoticeKind[] = [];
  for (const item of items) {
    if (typeof item !== 'string' || !isNoticeKind(item)) return { ok: false, problem };
    kinds.push(item);
  }
  return { ok: true, kinds: canonicalNotices(kinds) };
}

/** A create's or a `notify_emails` call's recipients, as validated. */
export interface EmailSendRequest {
  recipients: string[];
  /** Asked for (`notify_emails_to_locale`); null: the sender's language, else the default. */
  locale: EmailLocale | null;
  /** `notify_emails_include_sender`: name the owner's verified address in the email. */
  includeSender: boolean;
}

/** A create's email fields, as validated by the schema (the rights are decided by emailPlanFor). */
export interface CreateEmailInput {
  send: EmailSendRequest | null;
  /** `notify_owner_on`; null: not sent (the owner's account defaults apply). */
  noticeOn: NoticeKind[] | null;
}

/**
 * The person behind a create or a `notify_emails` call, when the caller is one (a session, or a
 * personal token): their address if it is verified, and their notice defaults.
 */
export interface EmailSender {
  userId: string;
  verifiedEmail: string | null;
  noticeDefaults: readonly NoticeKind[];
}
