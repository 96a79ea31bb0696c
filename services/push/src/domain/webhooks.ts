import { randomUUID } from 'node:crypto';
import type { KeyRing } from '@secret-push/key-ring';
import { generateWebhookSecret } from '../security/webhook-signature';
import { InvalidWebhookUrl, WebhookLimitReached, WebhookNotFound } from './errors';
import type { EndpointChanges, WebhookDeliveryStore, WebhookEndpointStore } from './ports/webhook-store';
import {
  MAX_ENDPOINTS_PER_OWNER,
  ROTATION_OVERLAP_SECONDS,
  TEST_EVENT_TYPE,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
  testBody,
} from './webhook';
import { secretAad } from './webhook-delivery';

/** The longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * A URL an endpoint may have: absolute, `https:` (or `http:` where the operator allows it), no
 * credentials, no fragment, not too long. Where it may be sent is decided again at every send
 * (outbound/webhook-sender.ts): this check is only the first, and not the one that counts.
 */
export function checkWebhookUrl(raw: string, allowHttp: boolean): string {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) {
    throw new InvalidWebhookUrl(`the URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidWebhookUrl('not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    throw new InvalidWebhookUrl(allowHttp ? 'the URL must be http(s)' : 'the URL must be https');
  }
  if (url.username || url.password) throw new InvalidWebhookUrl('the URL must not carry credentials');
  if (url.hash) throw new InvalidWebhookUrl('the URL must not have a fragment');
  return url.href;
}

export interface WebhookServiceDeps {
  endpoints: WebhookEndpointStore;
  deliveries: WebhookDeliveryStore;
  keyRing: KeyRing;
  /** PUSH_WEBHOOK_ALLOW_HTTP. */
  allowHttp: boolean;
}

/** An endpoint with its secret, shown once (at create and at each rotation). */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

/** The owner's webhook endpoints and their delivery log (the API's use cases). */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { endpoints, deliveries, keyRing } = deps;
  const seal = (id: string, secret: string) => ({
    keyId: keyRing.activeKeyId,
    data: keyRing.seal(secret, secretAad(id)),
  });
  const found = async (owner: string, id: string) => {
    const endpoint = await endpoints.find(owner, id);
    if (!endpoint) throw new WebhookNotFound();
    return endpoint;
  };
  return {
    async create(
      owner: string,
      input: { url: string; eventTypes: WebhookEventType[]; enabled?: boolean },
    ): Promise<EndpointWithSecret> {
      const url = checkWebhookUrl(input.url, deps.allowHttp);
      const id = randomUUID();
      const secret = generateWebhookSecret();
      const made = await endpoints.create(
        {
          id,
          owner,
          url,
          eventTypes: [...new Set(input.eventTypes)],
          enabled: input.enabled ?? true,
          secret: seal(id, secret),
        },
        MAX_ENDPOINTS_PER_OWNER,
      );
      if (made === 'limit') throw new WebhookLimitReached(MAX_ENDPOINTS_PER_OWNER);
      return { endpoint: made, secret };
    },
    list: (owner: string) => endpoints.list(owner),
    get: found,
    async update(owner: string, id: string, changes: EndpointChanges): Promise<WebhookEndpoint> {
      const checked: EndpointChanges = {
        ...changes,
        ...(changes.url !== undefined && { url: checkWebhookUrl(changes.url, deps.allowHttp) }),
        ...(changes.eventTypes !== undefined && { eventTypes: [...new Set(changes.eventTypes)] }),
      };
      const updated = await endpoints.update(owner, id, checked);
      if (!updated) throw new WebhookNotFound();
      return updated;
    },
    /** Deletes the endpoint and its delivery log (queued messages are not sent); the endpoint as it was. */
    async remove(owner: string, id: string): Promise<WebhookEndpoint> {
      const endpoint = await found(owner, id);
      if (!(await endpoints.remove(owner, id))) throw new WebhookNotFound();
      return endpoint;
    },
    /** A new secret, shown once; the previous one keeps signing for ROTATION_OVERLAP_SECONDS. */
    async rotate(owner: string, id: string): Promise<EndpointWithSecret> {
      const secret = generateWebhookSecret();
      const endpoint = await endpoints.rotate(owner, id, seal(id, secret), ROTATION_OVERLAP_SECONDS);
      if (!endpoint) throw new WebhookNotFound();
      return { endpoint, secret };
    },
    /** Queues a `webhook.test` message to the endpoint, whatever types it asked for. */
    async sendTest(owner: string, id: string): Promise<WebhookDelivery> {
      const endpoint = await found(owner, id);
      const [deliveryId] = await deliveries.enqueue([
        {
          endpointId: endpoint.id,
          eventId: randomUUID(),
          type: TEST_EVENT_TYPE,
          body: testBody(endpoint.id, new Date()),
        },
      ]);
      const delivery = deliveryId && (await deliveries.find(endpoint.id, deliveryId));
      if (!delivery) throw new WebhookNotFound(); // deleted meanwhile
      return delivery;
    },
    async deliveries(owner: string, id: string, page: number): Promise<WebhookDelivery[]> {
      const endpoint = await found(owner, id);
      return deliveries.list(endpoint.id, page);
    },
    async delivery(owner: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
      const endpoint = await found(owner, id);
      const delivery = await deliveries.find(endpoint.id, deliveryId);
      if (!delivery) throw new WebhookNotFound();
      return delivery;
    },
    /**
     * A manual replay: the same message again (the same `webhook-id` and body, freshly signed),
     * due now with a fresh schedule. A receiver that deduplicates on `webhook-id` and had it
     * already ignores it, as it should.
     */
    async replay(owner: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
      const endpoint = await found(owner, id);
      const delivery = await deliveries.replay(endpoint.id, deliveryId);
      if (!delivery) throw new WebhookNotFound();
      return delivery;
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
