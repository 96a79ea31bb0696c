import type { WebhookDelivery, WebhookEndpoint } from '../domain/webhook';

/** An endpoint as the API shows it (never its secret, except once: see `withSecret`). */
export const presentEndpoint = (e: WebhookEndpoint) => ({
  id: e.id,
  url: e.url,
  event_types: e.eventTypes,
  enabled: e.enabled,
  disabled_reason: e.disabledReason,
  previous_secret_expires_at: e.previousSecretUntil?.toISOString() ?? null,
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString(),
});

/** At create and rotation: the secret, shown this once. */
export const withSecret = (e: WebhookEndpoint, secret: string) => ({ ...presentEndpoint(e), secret });

/** One entry of the delivery log (the answer is the receiver's, at most 4 KiB). */
export const presentDelivery = (d: WebhookDelivery) => ({
  id: d.id,
  event_id: d.eventId,
  type: d.type,
  status: d.status,
  attempts: d.attempts,
  next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
  last_status_code: d.lastStatus,
  last_error: d.lastError,
  latency_ms: d.latencyMs,
  response: d.response,
  delivered_at: d.deliveredAt?.toISOString() ?? null,
  created_at: d.createdAt.toISOString(),
});
