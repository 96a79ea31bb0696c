import { Queue, Worker } from 'bullmq';
import { sql } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import type { Logger } from '@secret-push/logger';
import {
  type Closable,
  type Readiness,
  createReadiness,
  exportDependencyStates,
  startOperationsServer,
} from '@secret-push/runtime';
import { createExpiry } from './domain/expiry';
import { createFilePurger } from './domain/file-purger';
import { createS3ObjectStore } from './files/object-store';
import type { PushDatabase } from './storage/database';
import { createFileRepository } from './storage/file.repository';
import { createPushRepository } from './storage/push.repository';
import { createExpiryScheduler } from './worker/expiry-scheduler';
import { expiryProcessor } from './worker/expiry.processor';
import {
  EXPIRY_QUEUE,
  type ExpireJobData,
  type ExpiryJobName,
  SWEEP_SCHEDULER_ID,
  bullConnection,
  bullPrefix,
  closeBull,
} from './worker/queues';
import type { WorkerConfig } from './worker/worker.config';
import { createWorkerMetrics } from './worker/worker.metrics';

export interface ExpiryWorkerService extends Closable {
  url: string;
  worker: Worker<ExpireJobData, unknown, ExpiryJobName>;
  queue: Queue<ExpireJobData, unknown, ExpiryJobName>;
}

/**
 * The worker process: consumes the expiry queue (delayed `expire` jobs and the repeatable `sweep`),
 * and serves /healthz, /readyz and /metrics. close() (SIGTERM) waits for running jobs to finish;
 * a job cut short by a crash is retried by BullMQ's stalled-job check.
 */
export async function startExpiryWorker(config: WorkerConfig, logger: Logger): Promise<ExpiryWorkerService> {
  const db = createKysely<PushDatabase>(config.db);
  const prefix = bullPrefix(config.redis.prefix);
  const queue = new Queue<ExpireJobData, unknown, ExpiryJobName>(EXPIRY_QUEUE, {
    connection: bullConnection(config.redis.url, 'worker'),
    prefix,
  });
  queue.on('error', (err) => logger.warn({ err: err.message }, 'expiry queue connection error'));
  const metrics = createWorkerMetrics(queue);
  const store = config.s3 ? createS3ObjectStore(config.s3) : undefined;
  // A file push expired here gets its purge job like one expired by the API.
  const expiry = createExpiry({
    store: createPushRepository(db),
    events: createExpiryScheduler(queue, logger),
  });
  const worker = new Worker<ExpireJobData, unknown, ExpiryJobName>(
    EXPIRY_QUEUE,
    expiryProcessor({
      expiry,
      purger: store && createFilePurger({ files: createFileRepository(db), store }),
      sweepBatchSize: config.sweep.batchSize,
      staleUploadSeconds: config.sweep.staleUploadSeconds,
      onExpired: (s) =>
        metrics.expiryLag.observe(
          Math.max(0, ((s.push.expiredOn ?? s.now).getTime() - s.push.expiresAt.getTime()) / 1000),
        ),
    }),
    { connection: bullConnection(config.redis.url, 'worker'), prefix, concurrency: config.concurrency },
  );
  worker.on('completed', (job) => metrics.jobs.inc({ name: job.name, outcome: 'completed' }));
  worker.on('failed', (job, err) => {
    metrics.jobs.inc({ name: job?.name ?? 'unknown', outcome: 'failed' });
    logger.warn({ job: job?.id, err: err.message }, 'expiry job failed');
  });
  worker.on('error', (err) => logger.warn({ err: err.message }, 'expiry worker connection error'));
  await queue.upsertJobScheduler(
    SWEEP_SCHEDULER_ID,
    { every: config.sweep.intervalSeconds * 1000 },
    { name: 'sweep', data: { pushId: '' }, opts: { removeOnComplete: true, removeOnFail: 100 } },
  );

  // Ready means "can serve its core": expiring pushes needs the database and the queue (Redis).
  // Without the object store only file purges fail, and are retried (the jobs with backoff, the
  // sweep every interval): it is reported (/readyz, push_worker_dependency_up), not required.
  const dependencies = exportDependencyStates(
    createReadiness({
      database: { check: () => sql`select 1`.execute(db), required: true },
      redis: { check: () => queue.client.then((c) => c.ping()), required: true },
      ...(store ? { object_store: { check: () => store.check(), required: false } } : {}),
    }),
    metrics.registry,
    'push_worker',
  );
  // A worker that has stopped consuming is not ready either, whatever its dependencies answer.
  const readiness: Readiness = async () => {
    const report = await dependencies();
    return { ...report, ready: report.ready && worker.isRunning() };
  };
  const operations = await startOperationsServer({ ...config.http, readiness, registry: metrics.registry });
  const { url } = operations;
  logger.info(
    { url, concurrency: config.concurrency, sweep_every_s: config.sweep.intervalSeconds },
    'expiry worker running',
  );

  return {
    url,
    worker,
    queue,
    async close() {
      await closeBull(worker, 20_000); // waits for active jobs
      await Promise.allSettled([closeBull(queue, 2000), operations.close()]);
      await db.destroy();
      store?.close();
    },
  };
}
