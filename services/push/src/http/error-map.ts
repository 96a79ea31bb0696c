import { HttpError } from '@secret-push/http-kit';
import { isConnectionError } from '@secret-push/db-kit';
import type { CreateRefusal } from '../domain/create-policy';
import * as errors from '../domain/errors';
import { DomainError } from '../domain/errors';
import { authenticationRequired, insufficientScope } from './bearer-auth';

const PASSPHRASE_HINT =
  "This push requires a passphrase. Please provide it using the 'passphrase' parameter (e.g. ?passphrase=mysecret), the X-Passphrase header, or POST /pushes/:url_token/reveal.";

/** Every concrete domain error domain/errors.ts exports. */
type Exported = typeof errors;
type AnyDomainError = {
  [K in keyof Exported]: Exported[K] extends new (...args: never[]) => infer E
    ? E extends DomainError
      ? E
      : never
    : never;
}[keyof Exported];

/** One answer per domain error, keyed by its name: a domain error without one does not compile. */
type Answers = { [E in AnyDomainError as E['name']]: (err: E) => HttpError };

/** Each domain error as the API answers it (status, code, message, headers). */
const ANSWERS: Answers = {
  PushNotFound: () => new HttpError(404, 'not_found', 'Push not found.'),
  PassphraseRejected: () =>
    new HttpError(401, 'passphrase_required', 'That passphrase is incorrect.', {
      extra: { message: PASSPHRASE_HINT },
    }),
  NotOwner: () => new HttpError(403, 'forbidden', "That push doesn't belong to you."),
  NotDeletable: (err) =>
    err.authenticated
      ? new HttpError(403, 'forbidden', 'That push is not deletable by viewers.')
      : authenticationRequired('That push is not deletable by viewers.'),
  MissingScope: (err) => insufficientScope(err.scope),
  TooManyAttempts: (err) =>
    new HttpError(429, 'rate_limited', 'Too many passphrase attempts. Please try again in a minute.', {
      headers: { 'Retry-After': String(err.retryAfterSeconds) },
    }),
  DependencyDown: (err) => HttpError.unavailable(err.dependency, err.cause),
  ViewNotDelivered: (err) =>
    new HttpError(
      503,
      'dependency_unavailable',
      'The push could not be delivered; no view was used. Please retry.',
      { headers: { 'Retry-After': '1' }, cause: err.cause },
    ),
  // The upload outlived the stale-intent limit and the sweep deleted its objects: nothing was kept.
  UploadIntentLost: () =>
    new HttpError(503, 'dependency_unavailable', 'The upload took too long to store. Please retry.', {
      headers: { 'Retry-After': '1' },
    }),
  IdempotencyKeyReused: () =>
    new HttpError(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request. Use a new key for a new push.',
    ),
  UserNotFound: () => new HttpError(404, 'not_found', 'User not found.'),
  UserDisabled: () => new HttpError(403, 'forbidden', 'This account is disabled.'),
  PersonalTokenNotFound: () => new HttpError(404, 'not_found', 'Token not found.'),
  UserInputRejected: (err) => HttpError.validation(err.fields),
  EmailRefused: (err) => HttpError.validation(err.fields),
  EmailDailyLimitReached: (err) =>
    new HttpError(
      429,
      'rate_limited',
      err.limit === 0
        ? 'Sending email is disabled on this instance.'
        : `You have reached the limit of ${err.limit} emails in 24 hours. Please try again later.`,
      { headers: { 'Retry-After': '3600' } },
    ),
  WebhookNotFound: () => new HttpError(404, 'not_found', 'Webhook not found.'),
  WebhookLimitReached: (err) =>
    HttpError.validation({ webhooks: [`are at most ${err.limit} per owner: delete one first`] }),
  InvalidWebhookUrl: (err) => HttpError.validation({ url: [err.reason] }),
  RequestNotFound: () => new HttpError(404, 'not_found', 'Request not found.'),
  RequestAlreadyAnswered: () =>
    new HttpError(409, 'already_answered', 'This request has already been answered.'),
  AnswerNotAllowed: (err) => {
    switch (err.reason) {
      case 'user_required':
        return authenticationRequired('Only signed-in users may answer this request.');
      case 'not_a_user':
        return new HttpError(403, 'forbidden', 'Only users may answer this request, not clients.');
      case 'code_required':
        return new HttpError(
          403,
          'code_required',
          'Only the addresses the requester listed may answer, with the code sent to them.',
        );
    }
  },
};

/** Sound: an error reaches only the answer keyed by its own name. */
const answersByName = ANSWERS as unknown as Readonly<Record<string, (err: DomainError) => HttpError>>;

function fromDomain(err: DomainError): HttpError | undefined {
  return Object.hasOwn(answersByName, err.name) ? answersByName[err.name]!(err) : undefined;
}

/** A refused create (domain/create-policy.ts) as the API answers it. */
export function createRefusal(decision: CreateRefusal): HttpError {
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
  if (err instanceof DomainError) return fromDomain(err) ?? err;
  if (isConnectionError(err)) return HttpError.unavailable('database', err);
  return err;
}
