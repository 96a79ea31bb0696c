import type { EmailLocale } from './email-rules';

/**
 * The words of the push service's emails, one set per supported language (email-rules.ts
 * SUPPORTED_LOCALES; the languages issue adds sets). Plain strings: email-compose.ts puts them in
 * the text part and, escaped, in the HTML part, so both parts say the same.
 */
export interface EmailTexts {
  linkSubject: string;
  /** The heading when the sender is named / not named. */
  sentYouBy(address: string): string;
  sentYou: string;
  openWith: string;
  retrievalStepNote: string;
  passphraseNote: string;
  expiry(parts: { time: string; views: string | null }): string;
  /** "7 days", "1 hour", … */
  duration(amount: number, unit: 'day' | 'hour' | 'minute'): string;
  views(n: number): string;
  ignoreNote: string;
  noticeSubject: Record<'viewed' | 'failed_passphrase' | 'expired_unseen', (push: string) => string>;
  noticeBody: Record<'viewed' | 'failed_passphrase' | 'expired_unseen', (push: string) => string>;
  /** How a push without a name is named. */
  unnamedPush(createdAt: string): string;
  noticeFooter: string;
  noticeNoSecret: string;
  endpointDisabledSubject(origin: string): string;
  endpointDisabledBody(origin: string): string;
  endpointDisabledReason(reason: string): string;
  endpointDisabledWhatNow: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const EN: EmailTexts = {
  linkSubject: 'You have received a secret',
  sentYouBy: (address) => `${address} sent you a secret`,
  sentYou: 'Someone sent you a secret',
  openWith: 'Open it with this link:',
  retrievalStepNote:
    'The link first shows a page with a button: the secret is revealed only when you press it.',
  passphraseNote: 'It is protected by a passphrase: the passphrase reaches you another way.',
  expiry: ({ time, views }) =>
    views === null
      ? `The link expires in ${time}.`
      : `The link expires in ${time} or after ${views}, whichever comes first.`,
  duration: (n, unit) => plural(n, unit, `${unit}s`),
  views: (n) => plural(n, 'view', 'views'),
  ignoreNote:
    'If you did not expect this message, you can ignore it: nothing happens unless the link is opened.',
  noticeSubject: {
    viewed: (push) => `Your secret was viewed: ${push}`,
    failed_passphrase: (push) => `A wrong passphrase was tried: ${push}`,
    expired_unseen: (push) => `Your secret expired unseen: ${push}`,
  },
  noticeBody: {
    viewed: (push) => `${push} was just viewed.`,
    failed_passphrase: (push) =>
      `Someone tried a wrong passphrase for ${push}. (You get at most one such notice per push every 10 minutes.)`,
    expired_unseen: (push) => `${push} expired without being viewed.`,
  },
  unnamedPush: (createdAt) => `your secret created ${createdAt}`,
  noticeFooter:
    'You receive this because you asked to be told about this push. Its audit log has the details.',
  noticeNoSecret: 'This message never contains the secret.',
  endpointDisabledSubject: (origin) => `Your webhook endpoint was disabled: ${origin}`,
  endpointDisabledBody: (origin) =>
    `Your webhook endpoint at ${origin} was disabled: no more events are sent to it until you enable it again.`,
  endpointDisabledReason: (reason) => `Why: ${reason}`,
  endpointDisabledWhatNow:
    'Once the receiver works again, enable the endpoint on your Webhooks page (its deliveries show every attempt), or with PATCH /api/v2/webhooks/:id:',
};

const TEXTS: Record<EmailLocale, EmailTexts> = { en: EN };

export const emailTexts = (locale: EmailLocale): EmailTexts => TEXTS[locale];
