import { HttpError } from '@secret-push/http-kit';
import * as errors from '../domain/errors';
import { createRefusal, toHttpError } from './error-map';

/** Every domain error and its answer, written out (the API's statuses and codes; docs/api.md). */
const cases: [errors.DomainError, number, string][] = [
  [new errors.PushNotFound(), 404, 'not_found'],
  [new errors.PassphraseRejected(), 401, 'passphrase_required'],
  [new errors.NotOwner(), 403, 'forbidden'],
  [new errors.NotDeletable(true), 403, 'forbidden'],
  [new errors.NotDeletable(false), 401, 'unauthorized'],
  [new errors.MissingScope('pushes:read'), 403, 'insufficient_scope'],
  [new errors.TooManyAttempts(42), 429, 'rate_limited'],
  [new errors.DependencyDown('redis'), 503, 'dependency_unavailable'],
  [new errors.ViewNotDelivered(), 503, 'dependency_unavailable'],
  [new errors.UploadIntentLost(), 503, 'dependency_unavailable'],
  [new errors.IdempotencyKeyReused(), 422, 'idempotency_key_reused'],
  [new errors.UserNotFound(), 404, 'not_found'],
  [new errors.UserDisabled(), 403, 'forbidden'],
  [new errors.PersonalTokenNotFound(), 404, 'not_found'],
  [new errors.UserInputRejected({ name: ['too long'] }), 422, 'validation_failed'],
  [
    new errors.EmailRefused({ notify_emails_to: ['are not allowed for unknown users'] }),
    422,
    'validation_failed',
  ],
  [new errors.EmailDailyLimitReached(500), 429, 'rate_limited'],
  [new errors.WebhookNotFound(), 404, 'not_found'],
  [new errors.WebhookLimitReached(10), 422, 'validation_failed'],
  [new errors.InvalidWebhookUrl('the URL must be https'), 422, 'validation_failed'],
  [new errors.RequestNotFound(), 404, 'not_found'],
  [new errors.RequestAlreadyAnswered(), 409, 'already_answered'],
  [new errors.AnswerNotAllowed('user_required'), 401, 'unauthorized'],
  [new errors.AnswerNotAllowed('not_a_user'), 403, 'forbidden'],
  [new errors.AnswerNotAllowed('code_required'), 403, 'code_required'],
];

describe('toHttpError', () => {
  it.each(cases)('answers %s with %i %s', (err, status, code) => {
    const mapped = toHttpError(err);
    expect(mapped).toBeInstanceOf(HttpError);
    expect((mapped as HttpError).status).toBe(status);
    expect((mapped as HttpError).code).toBe(code);
  });

  it('covers every domain error domain/errors.ts exports', () => {
    const exported = Object.values(errors).filter(
      (value) => typeof value === 'function' && value.prototype instanceof errors.DomainError,
    );
    const covered = new Set(cases.map(([err]) => err.constructor));
    expect(exported.filter((cls) => !covered.has(cls))).toEqual([]);
  });

  it('keeps the headers: Retry-After of a rate limit, the challenge of an insufficient scope', () => {
    const limited = toHttpError(new errors.TooManyAttempts(42)) as HttpError;
    expect(limited.options.headers).toEqual({ 'Retry-After': '42' });
    const scoped = toHttpError(new errors.MissingScope('pushes:write')) as HttpError;
    expect(scoped.options.headers?.['WWW-Authenticate']).toContain('scope="pushes:write"');
  });

  it('passes an HttpError and anything unknown through unchanged', () => {
    const http = new HttpError(418, 'bad_request', 'teapot');
    const unknown = new Error('boom');
    expect(toHttpError(http)).toBe(http);
    expect(toHttpError(unknown)).toBe(unknown);
  });
});

describe('createRefusal', () => {
  it('answers each refusal of the create policy', () => {
    expect(createRefusal({ ok: false, reason: 'missing_scope' }).status).toBe(403);
    expect(createRefusal({ ok: false, reason: 'files_need_authentication' }).message).toBe(
      'You need to authenticate to push files.',
    );
    expect(createRefusal({ ok: false, reason: 'authentication_required' }).status).toBe(401);
  });
});
