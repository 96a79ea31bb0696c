import type { EmailLocale } from './email-rules';
import { type ComposedMessage, message, timeLeft } from './email-compose';
import { emailTexts } from './email-texts';

/*
 * The emails about requests (issue 28), composed from what may be told (pure; no I/O): never the
 * message to the responder, the note, the passphrase, nor anything of the answer.
 */

/** One line: a name with control characters (a newline) never reaches a header as such. */
// eslint-disable-next-line no-control-regex
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();

/** What a responder's email may say about a request. */
export interface RequestLinkFacts {
  /** The responder's page (`html_url`: `<PUBLIC_URL>/respond/<url_token>`). */
  url: string;
  passphraseProtected: boolean;
  closeAfterAt: Date;
  /** The requester's address, only when the owner chose to show it (`include_requestor`). */
  requestorAddress: string | null;
  now: Date;
}

/** The responder's link (`request_link`): who asks (only if shown), where to answer, when it closes. */
export function composeRequestLink(locale: EmailLocale, facts: RequestLinkFacts): ComposedMessage {
  const t = emailTexts(locale);
  const heading = facts.requestorAddress ? t.requestAskedBy(oneLine(facts.requestorAddress)) : t.requestAsked;
  return message(locale, t.requestLinkSubject, heading, [
    { text: t.requestOpenWith, link: facts.url },
    ...(facts.passphraseProtected ? [{ text: t.requestPassphraseNote }] : []),
    { text: t.requestCloses(timeLeft(t, facts.closeAfterAt, facts.now)) },
    { text: t.requestIgnoreNote },
  ]);
}

/**
 * The owner's notice that their request was answered (`notice_request_answered`): which request (its
 * name, else its creation date) and where to open it in the web app — never the answer or its link.
 */
export function composeRequestAnswered(
  locale: EmailLocale,
  request: { name: string | null; createdAt: Date; ownerUrl: string },
): ComposedMessage {
  const t = emailTexts(locale);
  const name = request.name ? oneLine(request.name) : '';
  const named = name
    ? `“${name.slice(0, 100)}”`
    : t.unnamedRequest(request.createdAt.toISOString().slice(0, 16).replace('T', ' ') + ' UTC');
  return message(locale, t.requestAnsweredSubject(named), t.requestAnsweredBody(named), [
    { text: t.requestAnsweredWhere, link: request.ownerUrl },
    { text: t.requestAnsweredFooter },
  ]);
}

/** A listed responder's one-time code (`request_code`): the code, how long it lasts; nothing of the request. */
export function composeRequestCode(
  locale: EmailLocale,
  facts: { code: string; validMinutes: number },
): ComposedMessage {
  const t = emailTexts(locale);
  return message(locale, t.requestCodeSubject(facts.code), t.requestCodeBody(facts.code), [
    { text: t.requestCodeValidity(facts.validMinutes) },
    { text: t.requestCodeIgnore },
  ]);
}
