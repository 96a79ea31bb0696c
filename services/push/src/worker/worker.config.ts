import { z } from 'zod';
import { commonEnv, envInt, parseEnv } from '@secret-push/config';
import { storageConfig, storageEnv, storageSecretFiles } from '../config';

const schema = z.object({
  ...commonEnv,
  ...storageEnv,
  PUSH_WORKER_HOST: z.string().default('127.0.0.1'),
  PUSH_WORKER_PORT: envInt(0, 65535).default(3001),
  PUSH_WORKER_CONCURRENCY: envInt(1, 1000).default(64),
  PUSH_SWEEP_INTERVAL_SECONDS: envInt(1, 86_400).default(60),
  PUSH_SWEEP_BATCH_SIZE: envInt(1, 100_000).default(500),
  PUSH_UPLOAD_INTENT_STALE_SECONDS: envInt(60, 7 * 86_400).default(6 * 3600),
});

/** The worker's configuration: storage, concurrency, sweep cadence, and its health/metrics port. */
export function loadWorkerConfig(env: Record<string, string | undefined>) {
  return parseEnv(
    schema,
    env,
    (v) => ({
      env: v.NODE_ENV,
      logLevel: v.LOG_LEVEL,
      http: { host: v.PUSH_WORKER_HOST, port: v.PUSH_WORKER_PORT },
      ...storageConfig(v),
      concurrency: v.PUSH_WORKER_CONCURRENCY,
      sweep: {
        intervalSeconds: v.PUSH_SWEEP_INTERVAL_SECONDS,
        batchSize: v.PUSH_SWEEP_BATCH_SIZE,
        // An upload older than this without its push is a crash's leftover: its objects are deleted.
        staleUploadSeconds: v.PUSH_UPLOAD_INTENT_STALE_SECONDS,
      },
    }),
    { secretFiles: storageSecretFiles },
  );
}

export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;
