import { HttpError } from '@secret-push/http-kit';
import { isConnectionError } from '@secret-push/db-kit';
import type { CreateDecision } from '../domain/create-policy';
import {
  DependencyDown,
  IdempotencyKeyReused,
  MissingScope,
  NotDeletable,
  NotOwner,
  PassphraseRejected,
  PersonalTokenNotFound,
  PushNotFound,
  TooManyAttempts,
  UploadIntentLost,
  UserDisabled,
  UserInputRejected,
  UserNotFound,
  ViewNotDelivered,
  type DomainError,
} from '../domain/errors';
import { authenticationRequired, insufficientScope } from './bearer-auth';

const PASSPHRASE_HINT =
  "This push requires a passphrase. Please provide it using the 'passphrase' parameter (e.g. ?passphrase=mysecret), the X-Passphrase header, or POST /pushes/:url_token/reveal.";

const DOMAIN_ERRORS = [
  PushNotFound,
  PassphraseRejected,
  NotOwner,
  NotDeletable,
  MissingScope,
  TooManyAttempts,
  DependencyDown,
  UploadIntentLost,
  ViewNotDelivered,
  IdempotencyKeyReused,
  UserNotFound,
  UserDisabled,
  PersonalTokenNotFound,
  UserInputRejected,
];

const isDomainError = (err: unknown): err is DomainError => DOMAIN_ERRORS.some((cls) => err instanceof cls);

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
        : authenticationRequired('That push is not deletable by viewers.');
    case 'MissingScope':
      return insufficientScope(err.scope);
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
    case 'ViewNotDelivered':
      return new HttpError(
        503,
        'dependency_unavailable',
        'The push could not be delivered; no view was used. Please retry.',
        {
          headers: { 'Retry-After': '1' },
          cause: err.cause,
        },
      );
    case 'UploadIntentLost':
      // The upload outlived the stale-intent limit and the sweep deleted its objects: nothing was kept.
      return new HttpError(
        503,
        'dependency_unavailable',
        'The upload took too long to store. Please retry.',
        {
          headers: { 'Retry-After': '1' },
        },
      );
    case 'IdempotencyKeyReused':
      return new HttpError(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request. Use a new key for a new push.',
      );
    case 'UserNotFound':
      return new HttpError(404, 'not_found', 'User not found.');
    case 'UserDisabled':
      return new HttpError(403, 'forbidden', 'This account is disabled.');
    case 'PersonalTokenNotFound':
      return new HttpError(404, 'not_found', 'Token not found.');
    case 'UserInputRejected':
      return HttpError.validation(err.fields);
  }
}

/** A refused create (domain/create-policy.ts) as the API answers it. */
export function createRefusal(decision: Exclude<CreateDecision, { ok: true }>): HttpError {
  switch (decision.reason) {
    case 'missing_scope':
      return insufficientScope('pushes:write');
    case 'files_need_authentication':
      return authenticationRequired('You need to authenticate to push files.');
    case 'authentication_required':
      return authenticationRequired('You need to authenticate to create this push.');
  }
}

/** Domain errors and unreachable dependencies become their HTTP answers; anything else passes through (500). */
export function toHttpError(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  if (isDomainError(err)) return fromDomain(err);
  if (isConnectionError(err)) return HttpError.unavailable('database', err);
  return err;
}
