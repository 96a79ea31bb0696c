import type { Translator } from '@secret-push/i18n';
import { type ComposedMessage, message, oneLine, timeLeft } from './email-compose';
import { createdAtText, quoted } from './email-texts';

/*
 * The emails about requests (issue 28), composed from what may be told (pure; no I/O): never the
 * message to the responder, the note, the passphrase, nor anything of the answer. In the language
 * of the translator given (the catalogue's `email.request.…` keys).
 */

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
export function composeRequestLink(tr: Translator, facts: RequestLinkFacts): ComposedMessage {
  const heading = facts.requestorAddress
    ? tr.t('email.request.link.askedBy', { address: oneLine(facts.requestorAddress) })
    : tr.t('email.request.link.asked');
  return message(tr, tr.t('email.request.link.subject'), heading, [
    { text: tr.t('email.request.link.openWith'), link: facts.url },
    ...(facts.passphraseProtected ? [{ text: tr.t('email.request.link.passphrase') }] : []),
    { text: tr.t('email.request.link.closes', { time: timeLeft(tr, facts.closeAfterAt, facts.now) }) },
    { text: tr.t('email.request.link.ignore') },
  ]);
}

/**
 * The owner's notice that their request was answered (`notice_request_answered`): which request (its
 * name, else its creation date) and where to open it in the web app — never the answer or its link.
 */
export function composeRequestAnswered(
  tr: Translator,
  request: { name: string | null; createdAt: Date; ownerUrl: string },
): ComposedMessage {
  const name = request.name ? oneLine(request.name) : '';
  const named = name
    ? quoted(tr, name.slice(0, 100))
    : tr.t('email.request.answered.unnamed', { createdAt: createdAtText(tr, request.createdAt) });
  return message(
    tr,
    tr.t('email.request.answered.subject', { request: named }),
    tr.t('email.request.answered.body', { request: named }),
    [
      { text: tr.t('email.request.answered.where'), link: request.ownerUrl },
      { text: tr.t('email.request.answered.footer') },
    ],
  );
}

/** A listed responder's one-time code (`request_code`): the code, how long it lasts; nothing of the request. */
export function composeRequestCode(
  tr: Translator,
  facts: { code: string; validMinutes: number },
): ComposedMessage {
  return message(
    tr,
    tr.t('email.request.code.subject', { code: facts.code }),
    tr.t('email.request.code.body', { code: facts.code }),
    [
      { text: tr.t('email.request.code.validity', { minutes: facts.validMinutes }) },
      { text: tr.t('email.request.code.ignore') },
    ],
  );
}
