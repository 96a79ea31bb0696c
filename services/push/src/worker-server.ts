import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import type { Logger } from '@secret-push/logger';
import {
  type Closable,
  type Readiness,
  createReadiness,
  exportDependencyStates,
  startOperationsServer,
} from '@secret-push/runtime';
import type { WorkerConfig } from './config';
import { createExpiry } from './domain/expiry';
import { createFilePurger } from './domain/file-purger';
import { createRequestFileRepository } from './storage/request-file.repository';
import type { OutboxConsumer } from './domain/outbox';
import type { OutboxStore } from './domain/ports/outbox-store';
import { webhookFanout } from './domain/webhook-fanout';
import { webhookDelivery } from './domain/webhook-delivery';
import { createS3ObjectStore } from './files/object-store';
import { dnsResolver } from './outbound/dns-resolver';
import { parseAllowList } from './outbound/safe-destination';
import { createWebhookSender } from './outbound/webhook-sender';
import type { PushDatabase } from './storage/database';
import { createFileRepository } from './storage/file.repository';
import { createOutboxRepository } from './storage/outbox.repository';
import { createEmailRepository } from './storage/email.repository';
import { createEmailDelivery } from './domain/email-delivery';
import { pushI18n } from './languages';
import { ownerNoticesConsumer } from './domain/owner-notices';
import type { EmailStore } from './domain/ports/email-store';
import { createSmtpSender } from './outbound/smtp-sender';
import { KeyRing } from '@secret-push/key-ring';
import { createPushRepository } from './storage/push.repository';
import { createRequestClosing, closingLagSeconds } from './domain/request-closing';
import { createRequestClosingRepository } from './storage/request-closing.repository';
import { requestNoticesConsumer, requestWebhookFanout } from './domain/request-events';
import { createRequestEventRepository } from './storage/request-events.repository';
import { createWebhookDeliveryRepository } from './storage/webhook-delivery.repository';
import { createWebhookEndpointRepository } from './storage/webhook-endpoint.repository';
import type { DeliverWebhooksOptions } from './worker/jobs/deliver-webhooks';
import { tickJobs } from './worker/jobs/registry';
import {
  QUEUE_EVENTS_MAX_LEN,
  type QueueJobName,
  type TickJobData,
  WORKER_QUEUE,
  bullConnection,
  bullPrefix,
  closeBull,
} from './worker/queues';
import { tickProcessor } from './worker/tick.processor';
import { type TickKeeper, keepTicking } from './worker/tick-keeper';
import { type Ticker, createTicker } from './worker/ticker';
import { createWebhookMetrics } from './worker/webhook.metrics';
import { type WorkerMetrics, createWorkerMetrics } from './worker/worker.metrics';

export interface WorkerService extends Closable {
  url: string;
  worker: Worker<TickJobData, string, QueueJobName>;
  queue: Queue<TickJobData, string, QueueJobName>;
  /** True while this process ticks on its local timer (the queue's ticks do not arrive). */
  ticksLocally(): boolean;
}

type ObjectStore = ReturnType<typeof createS3ObjectStore>;
type PushStore = ReturnType<typeof createPushRepository>;

/**
 * The queue, on a connection of our own: its state tells whether Redis is reachable, and we can
 * always disconnect it (BullMQ leaves a shared connection to its owner).
 */
function openQueue(config: WorkerConfig, logger: Logger) {
  const redis = new Redis(bullConnection(config.redis.url));
  redis.on('error', () => {}); // BullMQ re-emits it on the queue (logged below)
  const queue = new Queue<TickJobData, string, QueueJobName>(WORKER_QUEUE, {
    connection: redis,
    prefix: bullPrefix(config.redis.prefix),
    streams: { events: { maxLen: QUEUE_EVENTS_MAX_LEN } },
  });
  queue.on('error', (err) => logger.warn({ err: err.message }, 'worker queue connection error'));
  return { redis, queue };
}

/** Who consumes the outbox's events (domain/outbox.ts): one line per consumer. */
function outboxConsumers(db: Kysely<PushDatabase>, emails: EmailStore, logger: Logger): OutboxConsumer[] {
  return [
    webhookFanout({ deliveries: createWebhookDeliveryRepository(db) }),
    ownerNoticesConsumer({
      store: emails,
      onSkipped: (n) =>
        logger.debug({ notices: n }, 'owner notices not queued: no verified address (or quiet period)'),
    }),
    ...requestConsumers(db, logger),
  ];
}

/** The consumers of the requests' events (domain/request-events.ts): webhooks and the owner's notice. */
function requestConsumers(db: Kysely<PushDatabase>, logger: Logger): OutboxConsumer[] {
  const requests = createRequestEventRepository(db);
  return [
    requestWebhookFanout({ requests, deliveries: createWebhookDeliveryRepository(db) }),
    requestNoticesConsumer({
      requests,
      onSkipped: (n) => logger.debug({ notices: n }, 'request notices not queued: no verified address'),
    }),
  ];
}

/**
 * The email sender (PUSH_SMTP_URL): SMTP (outbound/), the queue (storage/), the key ring to unseal
 * the links, the catalogues of the emails' languages (I18N_*: read once here); undefined where
 * email is off.
 */
function wireEmail(config: WorkerConfig, emails: EmailStore, metrics: WorkerMetrics) {
  const { mail, emailWorker } = config;
  if (!mail || !emailWorker.publicUrl) return undefined;
  const sender = createSmtpSender(mail);
  return {
    intervalMs: emailWorker.intervalMs,
    delivery: createEmailDelivery({
      store: emails,
      sender,
      keyRing: new KeyRing(config.encryptionKeys),
      publicUrl: emailWorker.publicUrl,
      languages: pushI18n(config.i18n),
      messageIdDomain: sender.messageIdDomain,
      onOutcome: (purpose, outcome) => metrics.emails.inc({ purpose, outcome }),
    }),
  };
}

/**
 * Webhook delivery (domain/webhook-delivery.ts): signed with the endpoints' secrets (the key ring),
 * sent only to safe destinations, resolved by the system resolver. An endpoint disabled by the
 * worker is where its owner's notice hooks (email, after the email merge).
 */
function wireWebhooks(
  config: WorkerConfig,
  db: Kysely<PushDatabase>,
  metrics: WorkerMetrics,
): DeliverWebhooksOptions {
  const webhookMetrics = createWebhookMetrics(metrics.registry);
  const delivery = webhookDelivery({
    deliveries: createWebhookDeliveryRepository(db),
    endpoints: createWebhookEndpointRepository(db),
    sender: createWebhookSender({
      resolver: dnsResolver,
      allowHttp: config.webhooks.allowHttp,
      allowList: parseAllowList(config.webhooks.allowedDestinations),
    }),
    keyRing: new KeyRing(config.encryptionKeys),
    onAttempt: (outcome, latencyMs) => webhookMetrics.onAttempt(outcome, latencyMs),
    notifyOwners: Boolean(config.mail && config.emailWorker.publicUrl),
    onEndpointDisabled: () => webhookMetrics.onDisabled(),
  });
  return { delivery, ...config.webhookDelivery };
}

/** The tick and its jobs (worker/jobs/registry.ts) over the domain, with their metrics. */
function wireTicker(
  config: WorkerConfig,
  stores: { db: Kysely<PushDatabase>; pushStore: PushStore; outbox: OutboxStore; store?: ObjectStore },
  metrics: WorkerMetrics,
  logger: Logger,
  consumers: readonly OutboxConsumer[],
  email: ReturnType<typeof wireEmail>,
) {
  const { db, pushStore, store } = stores;
  const jobs = tickJobs({
    expiry: createExpiry({ store: pushStore }),
    requestClosing: createRequestClosing({ store: createRequestClosingRepository(db) }),
    onRequestClosed: (c) => metrics.requestsClosed.observe(closingLagSeconds(c)),
    purger:
      store &&
      createFilePurger({
        files: createFileRepository(db),
        store,
        requestFiles: createRequestFileRepository(db),
      }),
    batchSize: config.tick.batchSize,
    maxBatchesPerTick: config.tick.maxBatches,
    sweepIntervalMs: config.sweep.intervalSeconds * 1000,
    staleUploadSeconds: config.sweep.staleUploadSeconds,
    onExpired: (s) =>
      metrics.expiryLag.observe(
        Math.max(0, ((s.push.expiredOn ?? s.now).getTime() - s.push.expiresAt.getTime()) / 1000),
      ),
    onPurged: (n) => metrics.filesPurged.inc(n),
    onPurgeFailed: () => metrics.purgeFailures.inc(),
    outbox: stores.outbox,
    outboxConsumers: consumers,
    webhooks: wireWebhooks(config, db, metrics),
    onDispatched: (events) => {
      metrics.outboxEvents.inc(events.length);
      const t = Date.now();
      for (const e of events) metrics.outboxLag.observe(Math.max(0, (t - e.at.getTime()) / 1000));
    },
    ...(email ? { email } : {}),
    logger,
  });
  return createTicker({ jobs, logger });
}

/**
 * The queue's consumer. Concurrency 1: while this process drains a backlog, the next tick goes to
 * another worker, which drains alongside (SKIP LOCKED), instead of waiting here behind the running
 * one.
 */
function consumeTicks(
  config: WorkerConfig,
  tick: { ticker: Ticker; keeper: TickKeeper },
  metrics: WorkerMetrics,
  logger: Logger,
) {
  const { ticker, keeper } = tick;
  const worker = new Worker<TickJobData, string, QueueJobName>(
    WORKER_QUEUE,
    tickProcessor({
      tick: async () => {
        try {
          const report = await ticker.tick();
          if (!report.skipped) metrics.ticks.inc({ trigger: 'queue' });
          return report;
        } finally {
          keeper.queueTickSeen(); // a long tick (a backlog) is progress too
        }
      },
      onQueueTick: () => keeper.queueTickSeen(),
    }),
    { connection: bullConnection(config.redis.url), prefix: bullPrefix(config.redis.prefix), concurrency: 1 },
  );
  worker.on('completed', (job) => metrics.jobs.inc({ name: job.name, outcome: 'completed' }));
  // A tick fails with the database down, four times a second: logged once per 30 s with the count.
  let failedSinceLog = 0;
  let lastFailureLog = -Infinity;
  worker.on('failed', (job, err) => {
    metrics.jobs.inc({ name: job?.name ?? 'unknown', outcome: 'failed' });
    failedSinceLog++;
    if (Date.now() - lastFailureLog < 30_000) return;
    logger.warn({ job: job?.name, err: err.message, failures: failedSinceLog }, 'tick job failed');
    lastFailureLog = Date.now();
    failedSinceLog = 0;
  });
  worker.on('error', (err) => logger.warn({ err: err.message }, 'worker connection error'));
  return worker;
}

/**
 * Ready means "can serve its core": the jobs need the database only (without Redis this process
 * ticks on its own timer). Redis and the object store are reported (/readyz,
 * push_worker_dependency_up), not required. Not ready once closing.
 */
function wireReadiness(
  db: Kysely<PushDatabase>,
  redis: Redis,
  store: ObjectStore | undefined,
  metrics: WorkerMetrics,
  closing: () => boolean,
): Readiness {
  const dependencies = exportDependencyStates(
    createReadiness({
      database: { check: () => sql`select 1`.execute(db), required: true },
      redis: { check: () => redis.ping(), required: false },
      ...(store ? { object_store: { check: () => store.check(), required: false } } : {}),
    }),
    metrics.registry,
    'push_worker',
  );
  return async () => {
    const report = await dependencies();
    return { ...report, ready: report.ready && !closing() };
  };
}

/**
 * The worker process: ticks every PUSH_WORKER_TICK_MS (worker/ticker.ts runs the jobs of
 * worker/jobs/: expire everything past its window, purge the files that are due, now and then the
 * stale uploads), driven by a BullMQ job scheduler (one worker per tick) or, while the queue does
 * not tick, by a local timer (worker/tick-keeper.ts); serves /healthz, /readyz and /metrics.
 * close() (SIGTERM) lets the running tick finish its statement; whatever is left is due in the
 * database for the next tick of any worker.
 */
export async function startWorker(config: WorkerConfig, logger: Logger): Promise<WorkerService> {
  const db = createKysely<PushDatabase>(config.db);
  const { redis, queue } = openQueue(config, logger);
  const pushStore = createPushRepository(db);
  const outbox = createOutboxRepository(db);
  const metrics = createWorkerMetrics({
    countDue: (limit) => pushStore.countDue(limit),
    outboxAge: () => outbox.oldestAgeSeconds(),
  });
  const store = config.s3 ? createS3ObjectStore(config.s3) : undefined;
  const emails = createEmailRepository(db);
  const email = wireEmail(config, emails, metrics);
  const ticker = wireTicker(
    config,
    { db, pushStore, outbox, store },
    metrics,
    logger,
    outboxConsumers(db, emails, logger),
    email,
  );
  const keeper = keepTicking({
    queue,
    redis,
    intervalMs: config.tick.intervalMs,
    tick: () => ticker.tick(),
    busy: () => ticker.busy(),
    onLocalTick: (r) => {
      if (!r.skipped) metrics.ticks.inc({ trigger: 'local' });
    },
    onRepair: (reason) => metrics.schedulerRepairs.inc({ reason }),
    logger,
  });
  const worker = consumeTicks(config, { ticker, keeper }, metrics, logger);
  let closing = false;
  const readiness = wireReadiness(db, redis, store, metrics, () => closing);
  const operations = await startOperationsServer({ ...config.http, readiness, registry: metrics.registry });
  const { url } = operations;
  const { intervalMs, batchSize } = config.tick;
  logger.info(
    {
      url,
      tick_ms: intervalMs,
      batch: batchSize,
      sweep_every_s: config.sweep.intervalSeconds,
      email: email ? 'on' : 'off',
    },
    'worker running',
  );

  return {
    url,
    worker,
    queue,
    ticksLocally: () => keeper.ticksLocally(),
    async close() {
      closing = true;
      keeper.close();
      // The running tick ends after its current statement; background jobs in flight finish.
      // Without Redis, BullMQ can finish nothing: its connections are dropped at once (force), or
      // they would go on reconnecting after close().
      const bull =
        redis.status === 'ready'
          ? worker
          : { close: () => worker.close(true), disconnect: () => worker.disconnect() };
      await Promise.all([ticker.close(), closeBull(bull, 20_000)]);
      await Promise.allSettled([closeBull(queue, 2000), operations.close()]);
      redis.disconnect();
      await db.destroy();
      store?.close();
      email?.delivery.close();
    },
  };
}
