import type { PageOptions } from './client-types.ts';
import { type Api, apiUrlOf, getJson, json } from './request.ts';
import type { CallOptions, RetryPolicy } from './transport.ts';
import type { Webhook, WebhookDelivery, WebhookEventType, WebhookWithSecret } from './types.ts';

/*
 * Managing the caller's webhook endpoints (`/webhooks`): create, list, change, delete, rotate the
 * secret, send a test message, read the delivery log and replay a delivery. Receiving them
 * (verifying a message) is in webhooks.ts. Reading takes `pushes:read`, changing `pushes:write`;
 * another owner's endpoint is a NotFoundError, as a missing one.
 *
 * What a repeat after a failure could do decides which calls are repeated (transport.ts):
 * reads, `update`, `delete` and `replay` are repeated (doing them twice changes nothing more;
 * a `delete` repeated after a lost answer may end in a NotFoundError: it was deleted); `create`,
 * `rotate` and `test` never (a repeat could make a second endpoint, lose the secret of the first
 * rotation, queue a second message).
 */

/** Every event type an endpoint may ask for, as the API lists them (the default of `secret-push webhooks add`). */
export const WEBHOOK_EVENT_TYPES = [
  'push.created',
  'push.viewed',
  'push.view_refunded',
  'push.failed_passphrase',
  'push.expired',
  'push.file_downloaded',
] as const satisfies readonly WebhookEventType[];

// Fails to compile when the API (its generated types) has a type this list lacks.
const everyType: Exclude<WebhookEventType, (typeof WEBHOOK_EVENT_TYPES)[number]> extends never
  ? true
  : never = true;
void everyType;

/** A new endpoint: where messages go (https; http where the operator allows it) and which events. */
export interface WebhookInput {
  url: string;
  /** At least one; duplicates are dropped by the server. */
  event_types: readonly WebhookEventType[];
}

/** Changes to an endpoint: any of these, at least one. `enabled: true` clears `disabled_reason`. */
export interface WebhookChanges {
  url?: string;
  event_types?: readonly WebhookEventType[];
  enabled?: boolean;
}

/** Deliveries are listed 50 to a page, newest first. */
export const DELIVERIES_PAGE_SIZE = 50;
/** The last page the API serves. */
const LAST_PAGE = 200;

/** `client.webhooks`: the caller's webhook endpoints and their delivery log. */
export interface WebhookAdmin {
  /** `GET /webhooks`: every endpoint of the caller, oldest first. */
  list(options?: CallOptions): Promise<Webhook[]>;
  /** `GET /webhooks/:id`. */
  get(id: string, options?: CallOptions): Promise<Webhook>;
  /** `POST /webhooks`: the endpoint with its `secret`, shown this once: store it. Never repeated. */
  create(input: WebhookInput, options?: CallOptions): Promise<WebhookWithSecret>;
  /** `PATCH /webhooks/:id`: its URL, event types, or enabled. */
  update(id: string, changes: WebhookChanges, options?: CallOptions): Promise<Webhook>;
  /** `DELETE /webhooks/:id`: the endpoint as it was; its log and queued messages go with it. */
  delete(id: string, options?: CallOptions): Promise<Webhook>;
  /**
   * `POST /webhooks/:id/rotate`: a new `secret`, shown this once; the previous one also signs until
   * `previous_secret_expires_at` (24 hours). Never repeated.
   */
  rotate(id: string, options?: CallOptions): Promise<WebhookWithSecret>;
  /** `POST /webhooks/:id/test`: queues a `webhook.test` message; the delivery, `pending`. Never repeated. */
  test(id: string, options?: CallOptions): Promise<WebhookDelivery>;
  /** `GET /webhooks/:id/deliveries`: one page (up to 50) of the delivery log, newest first. */
  deliveries(id: string, options?: CallOptions & { page?: number }): Promise<WebhookDelivery[]>;
  /** Every delivery of the log, newest first, page after page (until a page is not full). */
  allDeliveries(id: string, options?: PageOptions): AsyncIterable<WebhookDelivery>;
  /** `GET /webhooks/:id/deliveries/:delivery_id`. */
  delivery(id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery>;
  /**
   * `POST /webhooks/:id/deliveries/:delivery_id/replay`: the same message (same `webhook-id` and
   * body, signed afresh) is due now with a fresh retry schedule; a delivery being sent right now is
   * left as it is.
   */
  replay(id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery>;
}

/** A path segment of an id; a TypeError for anything else (nothing else reaches the URL). */
function segment(id: string, what: string): string {
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]+$/.test(id)) throw new TypeError(`not a ${what}`);
  return id;
}

const webhookPath = (id: string) => `/webhooks/${segment(id, 'webhook id')}`;
const deliveryPath = (id: string, deliveryId: string) =>
  `${webhookPath(id)}/deliveries/${segment(deliveryId, 'delivery id')}`;

async function call<T>(
  api: Api,
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  retry: RetryPolicy,
  options: CallOptions = {},
  body?: unknown,
): Promise<T> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const res = await api.transport.send({
    ...options,
    method,
    url: apiUrlOf(api, path),
    retry,
    authenticate: true,
    ...(text !== undefined && {
      body: () => ({ body: text, headers: { 'content-type': 'application/json' } }),
    }),
  });
  return json<T>(res);
}

/** The `client.webhooks` of a client. A malformed id rejects with a TypeError before anything is sent. */
export function webhookAdmin(api: Api): WebhookAdmin {
  const deliveries = (id: string, options: CallOptions & { page?: number } = {}) => {
    const { page, ...rest } = options;
    return getJson<WebhookDelivery[]>(api, `${webhookPath(id)}/deliveries`, rest, { page: page ?? 1 });
  };
  return {
    list: (options) => getJson<Webhook[]>(api, '/webhooks', options),
    get: async (id, options) => getJson<Webhook>(api, webhookPath(id), options),
    create: async (input, options) =>
      call<WebhookWithSecret>(api, 'POST', '/webhooks', 'never', options, {
        url: input.url,
        event_types: input.event_types,
      }),
    update: async (id, changes, options) =>
      call<Webhook>(api, 'PATCH', webhookPath(id), 'safe', options, changes),
    delete: async (id, options) => call<Webhook>(api, 'DELETE', webhookPath(id), 'safe', options),
    rotate: async (id, options) =>
      call<WebhookWithSecret>(api, 'POST', `${webhookPath(id)}/rotate`, 'never', options),
    test: async (id, options) =>
      call<WebhookDelivery>(api, 'POST', `${webhookPath(id)}/test`, 'never', options),
    deliveries: async (id, options) => deliveries(id, options),
    allDeliveries(id, options = {}) {
      webhookPath(id);
      const { startPage, ...rest } = options;
      return {
        async *[Symbol.asyncIterator]() {
          // The log has no Link header: a page that is not full is the last.
          for (let page = startPage ?? 1; page <= LAST_PAGE; page++) {
            const items = await deliveries(id, { ...rest, page });
            yield* items;
            if (items.length < DELIVERIES_PAGE_SIZE) return;
          }
        },
      };
    },
    delivery: async (id, deliveryId, options) =>
      getJson<WebhookDelivery>(api, deliveryPath(id, deliveryId), options),
    replay: async (id, deliveryId, options) =>
      call<WebhookDelivery>(api, 'POST', `${deliveryPath(id, deliveryId)}/replay`, 'safe', options),
  };
}
