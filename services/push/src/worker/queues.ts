import type { JobsOptions } from 'bullmq';
import type { RedisOptions } from 'ioredis';
import { withDeadline } from '@secret-push/runtime';

/**
 * The worker's queue. It holds no job per push: one job scheduler (`tick`, a repeatable job every
 * PUSH_WORKER_TICK_MS) makes one worker at a time run the tick, whose jobs (worker/jobs/) find in
 * PostgreSQL whatever is due (expiries, file purges, …). Nothing in it is needed to keep a promise:
 * if Redis loses it, the workers tick on local timers and re-create the scheduler
 * (worker/tick-keeper.ts). Only the worker uses it; the API queues nothing. Its Redis name is older
 * than the jobs and stays, so that the keys of a running deployment carry over.
 */
export const WORKER_QUEUE = 'push-expiry';

export const TICK_SCHEDULER_ID = 'tick';

/** Jobs carry no data: a tick finds its work in the database. */
export type TickJobData = Record<string, never>;

/** The queue's one job: the tick (its own jobs are named in worker/jobs/registry.ts). */
export type QueueJobName = 'tick';

/** A failed tick is not retried (the next one comes within an interval); a few are kept to read. */
export const TICK_JOB_OPTIONS: JobsOptions = { removeOnComplete: true, removeOnFail: 100 };

/** The events stream of the queue is capped low: nobody listens to it. */
export const QUEUE_EVENTS_MAX_LEN = 1000;

/**
 * BullMQ connection options from a redis:// URL. No per-command deadline and no retry limit:
 * BullMQ's blocking commands wait on purpose; our own calls add their deadlines (withDeadline).
 */
export function bullConnection(redisUrl: string): RedisOptions {
  const u = new URL(redisUrl);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
  };
}

/** BullMQ key prefix under the service's Redis prefix, so test runs and instances stay apart. */
export const bullPrefix = (redisPrefix: string) => `${redisPrefix}bull`;

/**
 * Closes a BullMQ Queue or Worker gracefully (a worker first lets its running job finish). If
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
