import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { KeyRing } from '@secret-push/key-ring';
import { createLogger } from '@secret-push/logger';
import { freshDatabase, type TestDatabase } from '@secret-push/testing';
import type { Resolver } from '../../domain/ports/resolver';
import type { NewPush } from '../../domain/push';
import { createPushService } from '../../domain/push-service';
import { webhookDelivery } from '../../domain/webhook-delivery';
import { webhookFanout } from '../../domain/webhook-fanout';
import { createWebhookService } from '../../domain/webhooks';
import { parseAllowList } from '../../outbound/safe-destination';
import { createWebhookSender } from '../../outbound/webhook-sender';
import type { PushDatabase } from '../../storage/database';
import { pushMigrations } from '../../storage/migrations';
import { createOutboxRepository } from '../../storage/outbox.repository';
import { createPushRepository } from '../../storage/push.repository';
import { createWebhookDeliveryRepository } from '../../storage/webhook-delivery.repository';
import { createWebhookEndpointRepository } from '../../storage/webhook-endpoint.repository';
import { deliverWebhooksJob } from '../../worker/jobs/deliver-webhooks';
import { dispatchOutboxJob } from '../../worker/jobs/dispatch-outbox';

export const ctx = { ip: '192.0.2.9', userAgent: 'webhook-test', referrer: '' };

export const input = (over: Partial<NewPush> = {}): NewPush => ({
  kind: 'text',
  payload: 'the-secret-payload',
  ttlSeconds: 3600,
  expireAfterDays: 1,
  expireAfterViews: 2,
  deletableByViewer: null,
  retrievalStep: false,
  passphrase: null,
  name: null,
  note: null,
  ...over,
});

/**
 * A real PostgreSQL database with the push service, the webhook use cases, and the worker's own
 * jobs (dispatch-outbox with the webhook fan-out, deliver-webhooks) over a real sender whose DNS
 * the test scripts.
 */
export async function webhookWorld(
  name: string,
  options: { resolver: Resolver; allow?: string[]; notifyOwners?: boolean },
) {
  const database: TestDatabase<PushDatabase> = await freshDatabase<PushDatabase>(name, pushMigrations);
  const db: Kysely<PushDatabase> = database.db;
  const keyRing = new KeyRing([{ id: 'k', key: randomBytes(32) }]);
  const store = createPushRepository(db);
  const pushes = createPushService({
    store,
    keyRing,
    passphraseLimiter: { consume: () => Promise.resolve() },
    events: { created() {}, viewed() {}, expired() {} },
    maxAuditEntries: 2000,
    fileGraceSeconds: 600,
  });
  const endpoints = createWebhookEndpointRepository(db);
  const deliveries = createWebhookDeliveryRepository(db);
  const webhooks = createWebhookService({ endpoints, deliveries, keyRing, allowHttp: true });
  const logger = createLogger({ name: 'webhooks', level: 'silent' });
  const dispatch = dispatchOutboxJob({
    outbox: createOutboxRepository(db),
    consumers: [webhookFanout({ deliveries })],
    batchSize: 100,
    maxBatchesPerTick: 20,
    logger,
  });
  const disabled: string[] = [];
  const outcomes: string[] = [];
  const delivery = webhookDelivery({
    deliveries,
    endpoints,
    sender: createWebhookSender({
      resolver: options.resolver,
      allowHttp: true,
      allowList: parseAllowList(options.allow ?? ['127.0.0.1']),
      deadlineMs: 2000,
    }),
    keyRing,
    onAttempt: (o) => outcomes.push(o),
    notifyOwners: options.notifyOwners ?? false,
    onEndpointDisabled: (e, noticeQueued) => void disabled.push(`${e.id}: notice ${noticeQueued}`),
  });
  const deliver = deliverWebhooksJob({ delivery, intervalMs: 0, concurrency: 4, logger });
  const control = { shouldStop: () => false };
  return {
    database,
    db,
    keyRing,
    store,
    pushes,
    endpoints,
    deliveries,
    webhooks,
    delivery,
    disabled,
    outcomes,
    /** One run of each worker job: the outbox fanned out, then what is due delivered. */
    async work(): Promise<number> {
      await dispatch.run(control);
      return deliver.run(control);
    },
    /** Time passes for deliveries waiting for a retry: they are due now. */
    async fastForward() {
      await db
        .updateTable('webhook_delivery')
        .set({ next_attempt_at: new Date(0) })
        .execute();
    },
    drop: () => database.drop(),
  };
}

export type WebhookWorld = Awaited<ReturnType<typeof webhookWorld>>;
