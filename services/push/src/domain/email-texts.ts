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
  /** A request's link to a responder (`request_link`): who asks only if the owner opted in. */
  requestLinkSubject: string;
  requestAskedBy(address: string): string;
  requestAsked: string;
  requestOpenWith: string;
  requestPassphraseNote: string;
  requestCloses(time: string): string;
  requestIgnoreNote: string;
  /** The owner's notice that an answer is waiting (`notice_request_answered`). */
  requestAnsweredSubject(request: string): string;
  requestAnsweredBody(request: string): string;
  requestAnsweredWhere: string;
  requestAnsweredFooter: string;
  /** How a request without a name is named. */
  unnamedRequest(createdAt: string): string;
  /** The one-time code of a listed responder (`request_code`). */
  requestCodeSubject(code: string): string;
  requestCodeBody(code: string): string;
  requestCodeValidity(minutes: number): string;
  requestCodeIgnore: string;
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
  requestLinkSubject: 'You are asked to send a secret',
  requestAskedBy: (address) => `${address} asks you to send them a secret`,
  requestAsked: 'Someone asks you to send them a secret',
  requestOpenWith: 'The request, and the form to answer it, are on this page:',
  requestPassphraseNote: 'Answering needs a passphrase: it reaches you another way.',
  requestCloses: (time) => `The request closes in ${time}, or once it is answered.`,
  requestIgnoreNote:
    'If you did not expect this message, you can ignore it: nothing is sent unless you answer on that page.',
  requestAnsweredSubject: (request) => `Your request was answered: ${request}`,
  requestAnsweredBody: (request) => `${request} has been answered: the answer is waiting for you.`,
  requestAnsweredWhere: 'Open the request to retrieve it:',
  requestAnsweredFooter:
    'You receive this because you asked to be told when this request is answered. This message never contains the answer.',
  unnamedRequest: (createdAt) => `your request created ${createdAt}`,
  requestCodeSubject: (code) => `Your code: ${code}`,
  requestCodeBody: (code) => `Enter this code to answer the request for a secret: ${code}`,
  requestCodeValidity: (minutes) => `It is valid for ${minutes} minutes and can be used once.`,
  requestCodeIgnore:
    'If you did not ask for a code, you can ignore this message: without the code, nobody can answer in your name.',
};

const TEXTS: Record<EmailLocale, EmailTexts> = { en: EN };

export const emailTexts = (locale: EmailLocale): EmailTexts => TEXTS[locale];
