import type { KeyRing } from '@secret-push/key-ring';
import { aad } from './push-sealing';

/** The responder's page of a request (the API's `html_url`). */
export const responderUrl = (publicUrl: string, urlToken: string): string =>
  `${publicUrl.replace(/\/+$/, '')}/respond/${urlToken}`;

/** The owner's page of a request in the web app (where its answer is opened). */
export const requestOwnerUrl = (publicUrl: string, urlToken: string): string =>
  `${publicUrl.replace(/\/+$/, '')}/requests/${urlToken}`;

/** A request's url_token, opened from its sealed copy (bound to the row as a push's is); null when it cannot be. */
export function openRequestToken(
  keyRing: KeyRing,
  request: { id: string; keyId: string; tokenSealed: Buffer },
): string | null {
  try {
    return keyRing.open({ keyId: request.keyId, data: request.tokenSealed }, aad(request.id, 'url_token'));
  } catch {
    return null;
  }
}
