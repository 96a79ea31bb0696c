import type { WebhookAdmin } from './client-types.ts';
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
  'email.delivery_failed',
  'request.answered',
  'request.closed',
] as const satisfies readonly WebhookEventType[];

// Fails to compile when the API (its generated types) has a type this list lacks.
const everyType: Exclude<WebhookEventType, (typeof WEBHOOK_EVENT_TYPES)[number]> extends never
  ? true
  : never = true;
void everyType;

/** Deliveries are listed 50 to a page, newest first. */
export const DELIVERIES_PAGE_SIZE = 50;
/** The last page the API serves. */
const LAST_PAGE = 200;

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
        ...(input.enabled !== undefined && { enabled: input.enabled }),
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
