/**
 * Domain errors: no HTTP here; http/error-map.ts turns each into its response. Every one extends
 * {@link DomainError} and names itself (`name`, the discriminator the error map is keyed by): a
 * new error is a new class here, and the compiler then asks for its answer in the map.
 */
export abstract class DomainError extends Error {
  abstract override readonly name: string;
}

export class PushNotFound extends DomainError {
  override readonly name = 'PushNotFound';
}

/** The passphrase was missing or wrong (the two are indistinguishable to the caller). */
export class PassphraseRejected extends DomainError {
  override readonly name = 'PassphraseRejected';
}

export class NotOwner extends DomainError {
  override readonly name = 'NotOwner';
}

/** DELETE by someone other than the owner, on a push not deletable by viewers. */
export class NotDeletable extends DomainError {
  override readonly name = 'NotDeletable';
  constructor(readonly authenticated: boolean) {
    super('not deletable by viewers');
  }
}

export class TooManyAttempts extends DomainError {
  override readonly name = 'TooManyAttempts';
  constructor(readonly retryAfterSeconds: number) {
    super('too many attempts');
  }
}

/** The caller is who it must be, but its token lacks the scope the operation needs. */
export class MissingScope extends DomainError {
  override readonly name = 'MissingScope';
  constructor(readonly scope: 'pushes:read' | 'pushes:write') {
    super(`missing scope ${scope}`);
  }
}

/**
 * A view was counted but its payload could not be delivered (e.g. it could not be decrypted): the
 * view was refunded; the caller may retry.
 */
export class ViewNotDelivered extends DomainError {
  override readonly name = 'ViewNotDelivered';
}

/** A dependency the operation needs is down: the caller should retry later. */
export class DependencyDown extends DomainError {
  override readonly name = 'DependencyDown';
  constructor(
    readonly dependency: 'database' | 'redis' | 'auth service' | 'object store',
    options?: { cause?: unknown },
  ) {
    super(`${dependency} unavailable`, options);
  }
}

/**
 * A file push's create took so long that the sweep of crash leftovers deleted its uploaded objects
 * (their upload intents were older than the stale limit): nothing was kept; the caller may retry.
 */
export class UploadIntentLost extends DomainError {
  override readonly name = 'UploadIntentLost';
}

/** A create's Idempotency-Key was already used, within its lifetime, with another request. */
export class IdempotencyKeyReused extends DomainError {
  override readonly name = 'IdempotencyKeyReused';
}

/** No such user (an unknown id). */
export class UserNotFound extends DomainError {
  override readonly name = 'UserNotFound';
}

/** The user is disabled: it can get no new token (its old ones were revoked when it was disabled). */
export class UserDisabled extends DomainError {
  override readonly name = 'UserDisabled';
}

/**
 * No such token among the user's own: an unknown id and another user's token are the same answer,
 * so that nobody learns which token ids exist.
 */
export class PersonalTokenNotFound extends DomainError {
  override readonly name = 'PersonalTokenNotFound';
}

/** A token's settings or a user's identity were refused; `fields` gives the problems by field. */
export class UserInputRejected extends DomainError {
  override readonly name = 'UserInputRejected';
  constructor(readonly fields: Record<string, string[]>) {
    super(
      Object.entries(fields)
        .map(([field, problems]) => `${field}: ${problems.join('; ')}`)
        .join(', '),
    );
  }
}

/**
 * An email send or an owner notice setting was refused (Password Pusher's validation style: the
 * problems by field, e.g. `notify_emails_to`).
 */
export class EmailRefused extends DomainError {
  override readonly name = 'EmailRefused';
  constructor(readonly fields: Record<string, string[]>) {
    super(Object.keys(fields).join(', '));
  }
}

/** The owner's emails in the last 24 hours (sent or on their way) reached PUSH_EMAIL_DAILY_LIMIT. */
export class EmailDailyLimitReached extends DomainError {
  override readonly name = 'EmailDailyLimitReached';
  constructor(readonly limit: number) {
    super(`daily email limit ${limit} reached`);
  }
}

/** No such webhook endpoint (or delivery) of this owner: another owner's is not found either. */
export class WebhookNotFound extends DomainError {
  override readonly name = 'WebhookNotFound';
}

/** The owner has as many webhook endpoints as allowed. */
export class WebhookLimitReached extends DomainError {
  override readonly name = 'WebhookLimitReached';
  constructor(readonly limit: number) {
    super(`at most ${limit} webhook endpoints`);
  }
}

/** A webhook URL that cannot be an endpoint (scheme, credentials, length…). */
export class InvalidWebhookUrl extends DomainError {
  override readonly name = 'InvalidWebhookUrl';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** No such request, or one closed (or past its window) for a responder: the two are indistinguishable. */
export class RequestNotFound extends DomainError {
  override readonly name = 'RequestNotFound';
}

/** The request has its answer already (a second answer, or a responder page opened after it). */
export class RequestAlreadyAnswered extends DomainError {
  override readonly name = 'RequestAlreadyAnswered';
}

/**
 * The responder may not answer: `user_required` (only people may, and nobody signed the call),
 * `not_a_user` (a client's token), `code_required` (only listed addresses, with a valid code).
 */
export class AnswerNotAllowed extends DomainError {
  override readonly name = 'AnswerNotAllowed';
  constructor(readonly reason: 'user_required' | 'not_a_user' | 'code_required') {
    super(reason);
  }
}
