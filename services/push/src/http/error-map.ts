import { HttpError } from '@secret-push/http-kit';
import { isConnectionError } from '@secret-push/db-kit';
import { UploadIntentLost } from '../storage/file.repository';
import {
  DependencyDown,
  NotDeletable,
  NotOwner,
  PassphraseRejected,
  PushNotFound,
  TooManyAttempts,
  type DomainError,
} from '../domain/errors';

const PASSPHRASE_HINT =
  "This push requires a passphrase. Please provide it using the 'passphrase' parameter (e.g. ?passphrase=mysecret), the X-Passphrase header, or POST /pushes/:url_token/reveal.";

function isDomainError(err: unknown): err is DomainError {
  return [PushNotFound, PassphraseRejected, NotOwner, NotDeletable, TooManyAttempts, DependencyDown].some(
    (cls) => err instanceof cls,
  );
}

function fromDomain(err: DomainError): HttpError {
  switch (err.name) {
    case 'PushNotFound':
      return new HttpError(404, 'not_found', 'Push not found.');
    case 'PassphraseRejected':
      return new HttpError(401, 'passphrase_required', 'That passphrase is incorrect.', {
        extra: { message: PASSPHRASE_HINT },
      });
    case 'NotOwner':
      return new HttpError(403, 'forbidden', "That push doesn't belong to you.");
    case 'NotDeletable':
      return err.authenticated
        ? new HttpError(403, 'forbidden', 'That push is not deletable by viewers.')
        : new HttpError(401, 'unauthorized', 'That push is not deletable by viewers.', {
            headers: { 'WWW-Authenticate': 'Bearer realm="secret-push"' },
          });
    case 'TooManyAttempts':
      return new HttpError(
        429,
        'rate_limited',
        'Too many passphrase attempts. Please try again in a minute.',
        {
          headers: { 'Retry-After': String(err.retryAfterSeconds) },
        },
      );
    case 'DependencyDown':
      return HttpError.unavailable(err.dependency, err.cause);
  }
}

/** Domain errors and unreachable dependencies become their HTTP answers; anything else passes through (500). */
export function toHttpError(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  if (isDomainError(err)) return fromDomain(err);
  if (isConnectionError(err)) return HttpError.unavailable('database', err);
  // An upload that outlived the stale-intent limit lost its objects to the sweep: nothing was kept.
  if (err instanceof UploadIntentLost) {
    return new HttpError(503, 'dependency_unavailable', 'The upload took too long to store. Please retry.', {
      headers: { 'Retry-After': '1' },
    });
  }
  return err;
}
