import { html } from '@secret-push/html';
import type { Translator } from '@secret-push/i18n';
import { createdAtText, duration, quoted } from './email-texts';

/*
 * The push service's emails, composed from what may be told (pure; no I/O): never the payload,
 * the note or the passphrase. Each message has a plain-text part and an HTML part built from the
 * same sentences (the HTML through @secret-push/html's escaping tag), in the language of the
 * translator given (its catalogue's `email.…` keys; `<html lang>` and `Content-Language` say it).
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
export function timeLeft(tr: Translator, expiresAt: Date, now: Date): string {
  const ms = Math.max(0, expiresAt.getTime() - now.getTime());
  if (ms >= DAY) return duration(tr, Math.round(ms / DAY), 'day');
  if (ms >= HOUR) return duration(tr, Math.round(ms / HOUR), 'hour');
  return duration(tr, Math.max(1, Math.ceil(ms / MINUTE)), 'minute');
}

/** One line: a name with control characters (a newline) never reaches a header as such. */
// eslint-disable-next-line no-control-regex
export const oneLine = (s: string): string => s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();

export function message(
  tr: Translator,
  subject: string,
  heading: string,
  lines: { text: string; link?: string }[],
): ComposedMessage {
  const text = [heading, '', ...lines.flatMap((l) => (l.link ? [l.text, l.link, ''] : [l.text, '']))]
    .join('\n')
    .trimEnd();
  const locale = tr.locale;
  const body = html`<!doctype html>
    <html lang="${locale}" dir="${tr.dir}">
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
export function composeLinkEmail(tr: Translator, facts: LinkFacts): ComposedMessage {
  const heading = facts.senderAddress
    ? tr.t('email.link.sentYouBy', { address: facts.senderAddress })
    : tr.t('email.link.sentYou');
  const time = timeLeft(tr, facts.expiresAt, facts.now);
  const lines = [
    { text: tr.t('email.link.openWith'), link: facts.url },
    ...(facts.retrievalStep ? [{ text: tr.t('email.link.retrievalStep') }] : []),
    ...(facts.passphraseProtected ? [{ text: tr.t('email.link.passphrase') }] : []),
    {
      text:
        facts.viewsLeft === null
          ? tr.t('email.link.expires', { time })
          : tr.t('email.link.expiresOrViews', { time, views: facts.viewsLeft }),
    },
    { text: tr.t('email.link.ignore') },
  ];
  return message(tr, tr.t('email.link.subject'), heading, lines);
}

export type NoticeTopic = 'viewed' | 'failed_passphrase' | 'expired_unseen';

/** Each notice's subject and first line (`{push}`: the push's name in quotes, else its creation time). */
const NOTICE_KEYS: Record<NoticeTopic, { subject: string; body: string }> = {
  viewed: { subject: 'email.notice.viewed.subject', body: 'email.notice.viewed.body' },
  failed_passphrase: {
    subject: 'email.notice.failedPassphrase.subject',
    body: 'email.notice.failedPassphrase.body',
  },
  expired_unseen: { subject: 'email.notice.expiredUnseen.subject', body: 'email.notice.expiredUnseen.body' },
};

/** An owner's notice: what happened to which push (its name, else its creation date), never its content. */
export function composeNotice(
  tr: Translator,
  topic: NoticeTopic,
  push: { name: string | null; createdAt: Date },
): ComposedMessage {
  const name = push.name ? oneLine(push.name) : '';
  const named = name
    ? quoted(tr, name.slice(0, 100))
    : tr.t('email.notice.unnamed', { createdAt: createdAtText(tr, push.createdAt) });
  const keys = NOTICE_KEYS[topic];
  return message(tr, tr.t(keys.subject, { push: named }), tr.t(keys.body, { push: named }), [
    { text: tr.t('email.notice.noSecret') },
    { text: tr.t('email.notice.footer') },
  ]);
}

/**
 * The owner's notice that the worker disabled one of their webhook endpoints: which receiver (its
 * origin only: a path may hold the receiver's own token), why, and where to enable it again.
 */
export function composeEndpointDisabled(
  tr: Translator,
  facts: { url: string; reason: string | null; manageUrl: string },
): ComposedMessage {
  let origin: string;
  try {
    origin = new URL(facts.url).origin;
  } catch {
    origin = tr.t('email.endpointDisabled.unknown');
  }
  // One line, and not the receiver's whole answer: the reason is ours, from its status and error
  // (technical, in English: an HTTP status, a network error's code).
  // eslint-disable-next-line no-control-regex
  const reason = facts.reason?.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').slice(0, 300) ?? null;
  return message(
    tr,
    tr.t('email.endpointDisabled.subject', { origin }),
    tr.t('email.endpointDisabled.body', { origin }),
    [
      ...(reason ? [{ text: tr.t('email.endpointDisabled.reason', { reason }) }] : []),
      {
        text: tr.t('email.endpointDisabled.whatNow', { call: 'PATCH /api/v2/webhooks/:id' }),
        link: facts.manageUrl,
      },
      { text: tr.t('email.notice.noSecret') },
    ],
  );
}
