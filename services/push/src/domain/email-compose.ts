import { html } from '@secret-push/html';
import type { EmailLocale } from './email-rules';
import { type EmailTexts, emailTexts } from './email-texts';

/*
 * The push service's emails, composed from what may be told (pure; no I/O): never the payload,
 * the note or the passphrase. Each message has a plain-text part and an HTML part built from the
 * same sentences (the HTML through @secret-push/html's escaping tag).
 */

export interface ComposedMessage {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** What a recipient's email may say about a push. */
export interface LinkFacts {
  /** The link, exactly as the API's `html_url` (with `/r` when the push has the retrieval step). */
  url: string;
  retrievalStep: boolean;
  passphraseProtected: boolean;
  expiresAt: Date;
  /** Views left; null when views do not limit it. */
  viewsLeft: number | null;
  /** The owner's verified address, when they asked to be named. */
  senderAddress: string | null;
  now: Date;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The time left in words, rounded up to the largest unit that fits ("7 days", "3 hours", "5 minutes"). */
export function timeLeft(texts: EmailTexts, expiresAt: Date, now: Date): string {
  const ms = Math.max(0, expiresAt.getTime() - now.getTime());
  if (ms >= DAY) return texts.duration(Math.round(ms / DAY), 'day');
  if (ms >= HOUR) return texts.duration(Math.round(ms / HOUR), 'hour');
  return texts.duration(Math.max(1, Math.ceil(ms / MINUTE)), 'minute');
}

export function message(
  locale: EmailLocale,
  subject: string,
  heading: string,
  lines: { text: string; link?: string }[],
): ComposedMessage {
  const text = [heading, '', ...lines.flatMap((l) => (l.link ? [l.text, l.link, ''] : [l.text, '']))]
    .join('\n')
    .trimEnd();
  const body = html`<!doctype html>
    <html lang="${locale}">
      <head>
        <meta charset="utf-8" />
        <title>${subject}</title>
      </head>
      <body style="font-family: sans-serif; line-height: 1.5">
        <h1 style="font-size: 1.25em">${heading}</h1>
        ${lines.map((l) =>
          l.link ? html`<p>${l.text}<br /><a href="${l.link}">${l.link}</a></p>` : html`<p>${l.text}</p>`,
        )}
      </body>
    </html>`;
  return {
    subject,
    text: `${text}\n`,
    html: body.toString(),
    headers: { 'Content-Language': locale, 'Auto-Submitted': 'auto-generated' },
  };
}

/** A recipient's email: who sent it (only if asked), the link, how it opens, when it expires. */
export function composeLinkEmail(locale: EmailLocale, facts: LinkFacts): ComposedMessage {
  const t = emailTexts(locale);
  const heading = facts.senderAddress ? t.sentYouBy(facts.senderAddress) : t.sentYou;
  const lines = [
    { text: t.openWith, link: facts.url },
    ...(facts.retrievalStep ? [{ text: t.retrievalStepNote }] : []),
    ...(facts.passphraseProtected ? [{ text: t.passphraseNote }] : []),
    {
      text: t.expiry({
        time: timeLeft(t, facts.expiresAt, facts.now),
        views: facts.viewsLeft === null ? null : t.views(facts.viewsLeft),
      }),
    },
    { text: t.ignoreNote },
  ];
  return message(locale, t.linkSubject, heading, lines);
}

export type NoticeTopic = 'viewed' | 'failed_passphrase' | 'expired_unseen';

/** An owner's notice: what happened to which push (its name, else its creation date), never its content. */
export function composeNotice(
  locale: EmailLocale,
  topic: NoticeTopic,
  push: { name: string | null; createdAt: Date },
): ComposedMessage {
  const t = emailTexts(locale);
  // One line: a name with control characters (a newline) never reaches a header as such.
  // eslint-disable-next-line no-control-regex
  const name = push.name?.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  const named = name
    ? `“${name.slice(0, 100)}”`
    : t.unnamedPush(push.createdAt.toISOString().slice(0, 16).replace('T', ' ') + ' UTC');
  return message(locale, t.noticeSubject[topic](named), t.noticeBody[topic](named), [
    { text: t.noticeNoSecret },
    { text: t.noticeFooter },
  ]);
}

/**
 * The owner's notice that the worker disabled one of their webhook endpoints: which receiver (its
 * origin only: a path may hold the receiver's own token), why, and where to enable it again.
 */
export function composeEndpointDisabled(
  locale: EmailLocale,
  facts: { url: string; reason: string | null; manageUrl: string },
): ComposedMessage {
  const t = emailTexts(locale);
  let origin: string;
  try {
    origin = new URL(facts.url).origin;
  } catch {
    origin = '(an endpoint)';
  }
  // One line, and not the receiver's whole answer: the reason is ours, from its status and error.
  // eslint-disable-next-line no-control-regex
  const reason = facts.reason?.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').slice(0, 300) ?? null;
  return message(locale, t.endpointDisabledSubject(origin), t.endpointDisabledBody(origin), [
    ...(reason ? [{ text: t.endpointDisabledReason(reason) }] : []),
    { text: t.endpointDisabledWhatNow, link: facts.manageUrl },
    { text: t.noticeNoSecret },
  ]);
}
