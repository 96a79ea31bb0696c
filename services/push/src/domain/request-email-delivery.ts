import type { Translator } from '@secret-push/i18n';
import type { KeyRing } from '@secret-push/key-ring';
import type { ComposedEmail, QueuedEmail } from './ports/email-store';
import { codeValidMinutes } from './request-codes';
import { composeRequestAnswered, composeRequestCode, composeRequestLink } from './request-email-compose';
import { openRequestToken, requestOwnerUrl, responderUrl } from './request-links';

export const REQUEST_CLOSED_BEFORE_SENT = 'the request was answered or closed before it was sent';

/** The aad of a code sealed for its email: bound to its request and address. */
export const answerCodeAad = (requestId: string, address: string) => `${requestId}|answer_code|${address}`;

/**
 * The emails about a request, composed by the worker from the request as it is now:
 * - `request_link`: the responder's page, only while the request is open (else not sent, final);
 * - `notice_request_answered`: the owner's page of the request (`/requests/<token>`), never the answer;
 * - `request_code`: the recipient's code, opened with the key ring, only while it can still be used.
 */
export function composeRequestEmail(
  email: QueuedEmail,
  deps: { keyRing: KeyRing; publicUrl: string },
  /** The email's language (its stored locale's translator). */
  tr: Translator,
): ComposedEmail {
  const { request } = email;
  if (!request) return { cancel: 'the request no longer exists' };
  const to = email.recipient;
  if (email.purpose === 'notice_request_answered') {
    const token = openRequestToken(deps.keyRing, request);
    if (!token) return { cancel: 'the link could not be opened' };
    const m = composeRequestAnswered(tr, {
      name: request.name,
      createdAt: request.createdAt,
      ownerUrl: requestOwnerUrl(deps.publicUrl, token),
    });
    return { mail: { to, ...m } };
  }
  if (request.state !== 'open' || request.closeAfterAt.getTime() <= email.now.getTime()) {
    return { cancel: REQUEST_CLOSED_BEFORE_SENT };
  }
  if (email.purpose === 'request_link') {
    const token = openRequestToken(deps.keyRing, request);
    if (!token) return { cancel: 'the link could not be opened' };
    const m = composeRequestLink(tr, {
      url: responderUrl(deps.publicUrl, token),
      passphraseProtected: request.passphraseProtected,
      closeAfterAt: request.closeAfterAt,
      requestorAddress: request.requestorAddress,
      now: email.now,
    });
    return { mail: { to, ...m } };
  }
  const code = email.answerCode;
  if (!code?.codeSealed || !code.keyId || code.usedAt || code.expiresAt.getTime() <= email.now.getTime()) {
    return { cancel: 'the code was used, replaced or expired before it was sent' };
  }
  const value = deps.keyRing.open(
    { keyId: code.keyId, data: code.codeSealed },
    answerCodeAad(request.id, email.recipient),
  );
  // What is left of the code's validity when it is sent (the instance's PUSH_REQUEST_CODE_TTL_SECONDS
  // for an email sent at once): the worker needs no copy of that setting.
  const validMinutes = codeValidMinutes((code.expiresAt.getTime() - email.now.getTime()) / 1000);
  return { mail: { to, ...composeRequestCode(tr, { code: value, validMinutes }) } };
}
