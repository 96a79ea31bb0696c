import { z } from 'zod';
import { commonSection, defineConfig, envInt, envSection, i18nSection } from '@secret-push/config';
import { pushSmtpSection, workerEmailSection } from './email-env';
import { encryptionKeysSection } from './encryption-keys';
import { redisSection, s3Section, workerDatabaseSection } from './storage-env';
import { webhookDeliverySection, webhookDestinationsSection } from './webhooks-env';

/** Statements per tick at most (each of PUSH_SWEEP_BATCH_SIZE rows); the next tick continues. */
export const MAX_BATCHES_PER_TICK = 20;

/** The worker's health and metrics port: `http`. */
const workerHttpSection = envSection(
  'Worker HTTP',
  {
    PUSH_WORKER_HOST: z
      .string()
      .default('127.0.0.1')
      .describe("Address of the worker's `/healthz`, `/readyz` and `/metrics`"),
    PUSH_WORKER_PORT: envInt(0, 65535).default(3001).describe('Their port'),
  },
  (v) => ({ http: { host: v.PUSH_WORKER_HOST, port: v.PUSH_WORKER_PORT } }),
);

/** The tick and its batches (`tick`), and the slower sweep of crash leftovers (`sweep`). */
const tickSection = envSection(
  'Tick',
  {
    PUSH_WORKER_TICK_MS: envInt(50, 60_000)
      .default(250)
      .describe(
        'How often the worker ticks: runs its jobs (worker/jobs/: expires every push past its window, ' +
          'starts the purges that are due, …). One worker per tick while Redis is up (a BullMQ job ' +
          'scheduler), every worker on its own timer while it is not. Expiry lag is about half of it ' +
          'on average',
      ),
    PUSH_SWEEP_BATCH_SIZE: envInt(1, 100_000)
      .default(500)
      .describe(
        "Rows per statement of a tick (`FOR UPDATE SKIP LOCKED`; each statement holds its rows' locks " +
          `only while it runs); a tick runs at most ${MAX_BATCHES_PER_TICK} such statements, the next ` +
          'tick goes on',
      ),
    PUSH_SWEEP_INTERVAL_SECONDS: envInt(1, 86_400)
      .default(60)
      .describe(
        'How often each worker deletes the objects of uploads a crash left behind (expiries and ' +
          "purges are every tick's work)",
      ),
    PUSH_UPLOAD_INTENT_STALE_SECONDS: envInt(60, 7 * 86_400)
      .default(6 * 3600)
      .describe(
        "An upload intent older than this without its push is a crash's leftover: the worker deletes its object",
      )
      .meta({ defaultText: '`21600` (6 h)' }),
  },
  (v) => ({
    tick: {
      intervalMs: v.PUSH_WORKER_TICK_MS,
      batchSize: v.PUSH_SWEEP_BATCH_SIZE,
      maxBatches: MAX_BATCHES_PER_TICK,
    },
    sweep: {
      intervalSeconds: v.PUSH_SWEEP_INTERVAL_SECONDS,
      // An upload older than this without its push is a crash's leftover: its objects are deleted.
      staleUploadSeconds: v.PUSH_UPLOAD_INTENT_STALE_SECONDS,
    },
  }),
);

/**
 * The worker's configuration (`main-worker.ts`): storage, its port, the tick's cadence and
 * batches, the key ring (it unseals the link tokens it emails and the webhook secrets it signs with),
 * email (SMTP, and the public URL the links it sends start with) and where webhooks may go. No auth
 * settings.
 */
export const workerConfig = defineConfig([
  commonSection,
  workerHttpSection,
  workerDatabaseSection,
  redisSection,
  s3Section,
  tickSection,
  encryptionKeysSection,
  pushSmtpSection,
  workerEmailSection,
  webhookDestinationsSection,
  webhookDeliverySection,
  i18nSection,
]);

export const loadWorkerConfig = (env: NodeJS.ProcessEnv) => workerConfig.load(env);

export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;
