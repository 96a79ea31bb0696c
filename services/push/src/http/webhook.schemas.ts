import type { Request } from 'express';
import { z } from 'zod';
import { HttpError } from '@secret-push/http-kit';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../domain/webhook';
import { MAX_WEBHOOK_URL_LENGTH } from '../domain/webhooks';
import { WebhookNotFound } from '../domain/errors';

/** The event types of an endpoint: at least one, each known. */
const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }), {
    error: 'must be a list of event types',
  })
  .min(1, 'must name at least one event type')
  .max(WEBHOOK_EVENT_TYPES.length * 2, 'has too many entries');

const url = z
  .string({ error: 'must be a string' })
  .min(1, 'is required')
  .max(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);

/** `POST /webhooks`: `{ url, event_types, enabled? }` (unknown fields refused; enabled by default). */
export const webhookCreateSchema = z.strictObject({
  url,
  event_types: eventTypes,
  enabled: z.boolean().optional(),
});

/** `PATCH /webhooks/:id`: any of `url`, `event_types`, `enabled`; at least one. */
export const webhookUpdateSchema = z
  .strictObject({ url: url.optional(), event_types: eventTypes.optional(), enabled: z.boolean().optional() })
  .refine((v) => Object.keys(v).length > 0, { error: 'send url, event_types or enabled' });

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'bad_request', 'The body must be a JSON object.');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  // A Map, not an object: a field may be named `constructor` or `__proto__`.
  const fields = new Map<string, string[]>();
  for (const issue of result.error.issues) {
    const unknown = issue.code === 'unrecognized_keys';
    const field = unknown ? issue.keys.join(', ') : String(issue.path[0] ?? 'webhook');
    fields.set(field, [
      ...(fields.get(field) ?? []),
      unknown ? 'is not a field of a webhook' : issue.message,
    ]);
  }
  throw HttpError.validation(Object.fromEntries(fields));
}

export function parseWebhookCreate(body: unknown): {
  url: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
} {
  const v = parsed(webhookCreateSchema, body);
  return { url: v.url, eventTypes: v.event_types, enabled: v.enabled ?? true };
}

export function parseWebhookUpdate(body: unknown): {
  url?: string;
  eventTypes?: WebhookEventType[];
  enabled?: boolean;
} {
  const v = parsed(webhookUpdateSchema, body);
  return {
    ...(v.url !== undefined && { url: v.url }),
    ...(v.event_types !== undefined && { eventTypes: v.event_types }),
    ...(v.enabled !== undefined && { enabled: v.enabled }),
  };
}

/** An endpoint's or a delivery's id in the path: 404 for anything that cannot be one (no database call). */
export const isEndpointId = (id: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
export const isDeliveryId = (id: string) => /^msg_[0-9a-f]{32}$/.test(id);

/** The `:id` of a route: an endpoint id, or not found (a malformed id names nothing). */
export function endpointIdParam(req: Request): string {
  const id = String(req.params.id);
  if (!isEndpointId(id)) throw new WebhookNotFound();
  return id;
}

/** The `:delivery_id` of a route: a delivery id, or not found. */
export function deliveryIdParam(req: Request): string {
  const id = String(req.params.delivery_id);
  if (!isDeliveryId(id)) throw new WebhookNotFound();
  return id;
}
