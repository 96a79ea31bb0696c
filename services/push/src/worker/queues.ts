import type { JobsOptions, QueueOptions } from 'bullmq';
import { withDeadline } from '@secret-push/runtime';

/**
 * The queue contract shared by the API (producer) and the worker (consumer). Job data holds ids
 * only, never secrets. Job ids are unique per push, so a push has at most one pending expiry job
 * (BullMQ ignores a duplicate id silently, which is what re-scheduling wants). BullMQ 5 refuses
 * ids that look like integers and ids with `:` (unless in its legacy three-part form), so the
 * separator is `-` (`expire-<push id>`, `purge-<push id>`), not `:` (`expire:<id>`).
 */
export const EXPIRY_QUEUE = 'push-expiry';

export interface ExpireJobData {
  pushId: string;
}

export type ExpiryJobName = 'expire' | 'purge' | 'sweep';

export const expireJobId = (pushId: string) => `expire-${pushId}`;
/** The purge of a file push's stored files, at `files_purge_after`. */
export const purgeJobId = (pushId: string) => `purge-${pushId}`;
export const SWEEP_SCHEDULER_ID = 'sweep';

export const EXPIRE_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: true,
  removeOnFail: 1000,
};

/** BullMQ connection options from a redis:// URL (BullMQ opens its own connections). */
export function bullConnection(
  redisUrl: string,
  role: 'producer' | 'worker',
): NonNullable<QueueOptions['connection']> {
  const u = new URL(redisUrl);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    // Producers fail fast (a create never waits for Redis; the sweep catches up); workers wait.
    ...(role === 'producer'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 }
      : { maxRetriesPerRequest: null }),
  };
}

/** BullMQ key prefix under the service's Redis prefix, so test runs and instances stay apart. */
export const bullPrefix = (redisPrefix: string) => `${redisPrefix}bull`;

/**
 * Closes a BullMQ Queue or Worker gracefully (a worker first lets its running jobs finish). If
 * Redis is unreachable, BullMQ's close() rejects or never settles, and its disconnect() waits for
 * a ready client, so neither is awaited past `timeoutMs`: disconnect() is started and the caller
 * moves on (a shared connection is then disconnected by its owner).
 */
export async function closeBull(
  target: { close(): Promise<void>; disconnect(): Promise<void> },
  timeoutMs: number,
): Promise<void> {
  try {
    await withDeadline(target.close(), timeoutMs, 'BullMQ close');
  } catch {
    void target.disconnect().catch(() => {});
  }
}
