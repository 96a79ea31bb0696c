import { z } from 'zod';
import { commonEnv, envInt, parseEnv } from '@secret-push/config';
import { statementDeadlineProblems, storageConfig, storageEnv, storageSecretFiles } from '../config';

/** Statements per tick at most (each of PUSH_SWEEP_BATCH_SIZE rows); the next tick continues. */
export const MAX_BATCHES_PER_TICK = 20;

const schema = z.object({
  ...commonEnv,
  ...storageEnv,
  PUSH_WORKER_HOST: z.string().default('127.0.0.1'),
  PUSH_WORKER_PORT: envInt(0, 65535).default(3001),
  // The tick: expire whatever is past its window, purge whatever files are due.
  PUSH_WORKER_TICK_MS: envInt(50, 60_000).default(250),
  PUSH_SWEEP_BATCH_SIZE: envInt(1, 100_000).default(500),
  // The slower sweep: objects of uploads a crash left behind.
  PUSH_SWEEP_INTERVAL_SECONDS: envInt(1, 86_400).default(60),
  PUSH_UPLOAD_INTENT_STALE_SECONDS: envInt(60, 7 * 86_400).default(6 * 3600),
  // A backlog's statements act on up to PUSH_SWEEP_BATCH_SIZE rows each: longer than a request's.
  PUSH_WORKER_DATABASE_STATEMENT_TIMEOUT_MS: envInt(100, 3_600_000).default(30_000),
  PUSH_WORKER_DATABASE_QUERY_TIMEOUT_MS: envInt(100, 3_600_000).default(35_000),
});

/** The worker's configuration: storage, tick cadence and batches, sweep, and its health/metrics port. */
export function loadWorkerConfig(env: Record<string, string | undefined>) {
  return parseEnv(
    schema,
    env,
    (v) => ({
      env: v.NODE_ENV,
      logLevel: v.LOG_LEVEL,
      http: { host: v.PUSH_WORKER_HOST, port: v.PUSH_WORKER_PORT },
      ...storageConfig(v, {
        statementTimeoutMs: v.PUSH_WORKER_DATABASE_STATEMENT_TIMEOUT_MS,
        queryTimeoutMs: v.PUSH_WORKER_DATABASE_QUERY_TIMEOUT_MS,
      }),
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
    {
      secretFiles: storageSecretFiles,
      check: (v) =>
        statementDeadlineProblems(
          'PUSH_WORKER_DATABASE',
          v.PUSH_WORKER_DATABASE_STATEMENT_TIMEOUT_MS,
          v.PUSH_WORKER_DATABASE_QUERY_TIMEOUT_MS,
        ),
    },
  );
}

export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;
