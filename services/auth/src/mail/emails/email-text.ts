import { type Html, html } from '@secret-push/html';
import type { Translator } from '@secret-push/i18n';

/*
 * Every email of the auth service is a list of paragraphs, rendered twice: as the plain-text part
 * and as the HTML part (escaped by `@secret-push/html`), so the two say the same by construction.
 * The texts of each kind are in a module of their own, worded by the catalogue (`email.*`, in
 * services/auth/locales) in the row's language: each takes that language's translator (the
 * sender runs outside any request).
 */

/** A paragraph: text, or text followed by a link (shown as its address in the plain-text part). */
export type Paragraph = string | { text: string; link: string; label: string };

export interface EmailText {
  subject: string;
  text: string;
  html: string;
}

/** What every email knows about its account and moment. */
export interface EmailContext {
  /** The service's name, as authenticator apps show it (AUTH_TOTP_ISSUER). */
  service: string;
  /** The account's own address (the recipient). */
  accountEmail: string;
  /** When the change happened (the row was queued in its transaction). */
  when: Date;
  /** The account page (`<issuer>/account`): sign-in, then password and two-factor settings. */
  accountUrl: string;
}

/**
 * A moment in the email's language, in UTC: "1 December 2026 at 10:00 UTC", "1. Dezember 2026 um
 * 10:00 UTC". English keeps the day-month-year, 24-hour form the emails always had (en-GB).
 */
export function formatWhen(tr: Translator, when: Date): string {
  const locale = tr.locale === 'en' ? 'en-GB' : tr.locale;
  const format = new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
    hourCycle: 'h23',
  });
  return `${format.format(when)} UTC`;
}

function paragraphHtml(p: Paragraph): Html {
  if (typeof p === 'string') return html`<p style="margin:0 0 16px">${p}</p>`;
  return html`<p style="margin:0 0 16px">${p.text}<br /><a href="${p.link}">${p.label}</a></p>`;
}

/** The two parts of an email: the paragraphs as text, and as a small HTML document. */
export function renderEmail(subject: string, paragraphs: readonly Paragraph[], lang = 'en'): EmailText {
  const text = paragraphs.map((p) => (typeof p === 'string' ? p : `${p.text}\n${p.link}`)).join('\n\n');
  const body = html`<!doctype html>
    <html lang="${lang}">
      <head>
        <meta charset="utf-8" />
        <title>${subject}</title>
      </head>
      <body
        style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;line-height:1.5;color:#1a1a1a"
      >
        ${paragraphs.map(paragraphHtml)}
      </body>
    </html>`;
  return { subject, text: `${text}\n`, html: body.value };
}

/**
 * The closing every security notice has: what to do if it was not them (`ifNotYou`, the notice's
 * own sentence), where this comes from.
 */
export function notSomeoneElse(tr: Translator, ctx: EmailContext, ifNotYou: string): Paragraph[] {
  return [
    {
      text: `${ifNotYou} ${tr.t('email.notice.help', { service: ctx.service })}`,
      link: ctx.accountUrl,
      label: ctx.accountUrl,
    },
    tr.t('email.notice.footer', { service: ctx.service, email: ctx.accountEmail }),
  ];
}
