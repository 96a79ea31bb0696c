import { type Html, html } from '@secret-push/html';

/*
 * Every email of the auth service is a list of paragraphs, rendered twice: as the plain-text part
 * and as the HTML part (escaped by `@secret-push/html`), so the two say the same by construction.
 * The texts of each kind are in a module of their own (one function per language, English now),
 * for the languages issue to translate.
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

const WHEN = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** "1 December 2026 at 10:00 UTC". */
export const formatWhen = (when: Date): string => `${WHEN.format(when)} UTC`;

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

/** The closing every security notice has: where this comes from, and what to do if it was not them. */
export function notSomeoneElse(ctx: EmailContext, ifNotYou: string): Paragraph[] {
  return [
    {
      text: `If this was not you, ${ifNotYou} Open your account page, choose "Forgot password?" on the sign-in page if you cannot sign in, and tell the operator of ${ctx.service}:`,
      link: ctx.accountUrl,
      label: ctx.accountUrl,
    },
    `This is an automatic security notice for the ${ctx.service} account ${ctx.accountEmail}. It was sent to this address only.`,
  ];
}
