import type { EventKind } from './outbox';
import type { PushKind } from './push';

/**
 * Signed webhooks (issue 27): what an endpoint is, which event types exist, and what a body says.
 * Bodies follow Standard Webhooks (`{type, timestamp, data}`) and never carry a secret: no payload,
 * passphrase, note, file name or url_token. A push is named by its reference, the first 16 hex
 * characters of SHA-256(url_token), which its owner can compute (the SDK's `pushReference`); a
 * request likewise (`request_ref`; its bodies: domain/request-events.ts).
 */

/** Every event type an endpoint may ask for. */
export const WEBHOOK_EVENT_TYPES = [
  'push.created',
  'push.viewed',
  'push.view_refunded',
  'push.failed_passphrase',
  'push.expired',
  'push.file_downloaded',
  'email.delivery_failed',
  'request.answered',
  'request.closed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of a test message (`POST /webhooks/:id/test`): sent whatever the endpoint asked for. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Endpoints per owner at most. */
export const MAX_ENDPOINTS_PER_OWNER = 10;

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_SECONDS = 24 * 3600;

/**
 * Seconds before each retry (Standard Webhooks' example, about three days in all), jitter added by
 * the caller: after the attempt number n fails, the next is `schedule[n - 1]` later; after the last,
 * the delivery has failed and its endpoint is disabled.
 */
export const WEBHOOK_RETRY_SCHEDULE: readonly number[] = [
  5,
  5 * 60,
  30 * 60,
  2 * 3600,
  5 * 3600,
  10 * 3600,
  14 * 3600,
  20 * 3600,
  24 * 3600,
];

/** The longest `Retry-After` honoured (a receiver asking for more is retried after this). */
export const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

export interface WebhookEndpoint {
  id: string;
  owner: string;
  url: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  disabledReason: string | null;
  /** While a rotation overlaps: when the previous secret stops signing. */
  previousSecretUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A secret as stored: sealed with the key ring. */
export interface SealedSecret {
  keyId: string;
  data: Buffer;
}

export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed';

export interface WebhookDelivery {
  /** The `webhook-id`: the same on every attempt (and a manual replay). */
  id: string;
  endpointId: string;
  eventId: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  latencyMs: number | null;
  /** At most 4 KiB of the receiver's last answer. */
  response: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** A push as a body shows it: nothing secret. */
export interface PushFacts {
  id: string;
  owner: string;
  /** First 16 hex characters of SHA-256(url_token). */
  ref: string;
  name: string | null;
  kind: PushKind;
  viewsLeft: number;
  expireAfterViews: number;
  expiresAt: Date;
  expired: boolean;
  passphraseProtected: boolean;
  deletableByViewer: boolean | null;
}

/** Why a push expired, as `push.expired` tells it. */
export type ExpiryReason = 'views' | 'time' | 'owner' | 'deleted';

/** The event type of an outbox event (every event kind has one). */
export function eventTypeOf(kind: EventKind): WebhookEventType {
  switch (kind) {
    case 'creation':
      return 'push.created';
    case 'view':
      return 'push.viewed';
    case 'view_refunded':
      return 'push.view_refunded';
    case 'failed_passphrase':
      return 'push.failed_passphrase';
    case 'file_download':
      return 'push.file_downloaded';
    case 'expire':
    case 'expire_by_views':
    case 'expire_by_time':
    case 'expire_by_receipt':
      return 'push.expired';
    case 'email_failed':
      return 'email.delivery_failed';
    case 'request_answered':
      return 'request.answered';
    case 'request_closed':
      return 'request.closed';
  }
}

/**
 * `push.expired`'s reason. The audit log records a DELETE as `expire` whoever sent it: a push not
 * deletable by viewers can only have been deleted by its owner (`owner`); one deletable by viewers
 * may have been either (`deleted`).
 */
function expiryReason(kind: EventKind, push: PushFacts): ExpiryReason | undefined {
  if (kind === 'expire_by_views') return 'views';
  if (kind === 'expire_by_time') return 'time';
  if (kind === 'expire_by_receipt') return 'owner';
  if (kind === 'expire') return push.deletableByViewer === true ? 'deleted' : 'owner';
  return undefined;
}

/** The `data.push` of a body: the reference and public facts, never a secret. */
export function pushData(push: PushFacts): Record<string, unknown> {
  return {
    ref: push.ref,
    name: push.name,
    kind: push.kind,
    views_left: push.viewsLeft,
    expire_after_views: push.expireAfterViews,
    expires_at: push.expiresAt.toISOString(),
    expired: push.expired,
    passphrase_protected: push.passphraseProtected,
  };
}

/** An email about a push that failed for good (`email.delivery_failed`). */
export interface FailedEmailFacts {
  id: string;
  /** The address it was for: one the owner gave (a link) or the owner's own (a notice). */
  recipient: string;
  /** `link`: the push's link to a recipient; `notice`: a notice to the owner. */
  purpose: 'link' | 'notice';
  attempts: number;
  /** Why: the server's final answer, the last temporary error, or why it was not sent at all. */
  reason: string | null;
}

/** The `data.email` of an `email.delivery_failed` body (a push's or a request's). */
export function emailData(email: FailedEmailFacts): Record<string, unknown> {
  return {
    id: email.id,
    recipient: email.recipient,
    purpose: email.purpose,
    attempts: email.attempts,
    reason: email.reason,
  };
}

/**
 * The exact JSON of an event's message (signed and sent as is on every attempt). `email` is the
 * failed email of an `email_failed` event.
 */
export function eventBody(kind: EventKind, at: Date, push: PushFacts, email?: FailedEmailFacts): string {
  const reason = expiryReason(kind, push);
  return JSON.stringify({
    type: eventTypeOf(kind),
    timestamp: at.toISOString(),
    data: { push: pushData(push), ...(reason && { reason }), ...(email && { email: emailData(email) }) },
  });
}

/** The body of a test message. */
export function testBody(endpointId: string, at: Date): string {
  return JSON.stringify({
    type: TEST_EVENT_TYPE,
    timestamp: at.toISOString(),
    data: { endpoint_id: endpointId, message: 'A test event from secret-push.' },
  });
}

export const isWebhookEventType = (t: string): t is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(t);
