import { Redis } from 'ioredis';
import type { Logger } from '@secret-push/logger';

export interface RedisOptions {
  /**
   * Our deadline for each command's reply (ioredis `commandTimeout`): past it the command rejects
   * with "Command timed out", so a frozen Redis (paused, stopped, partitioned with the socket still
   * open) costs a request at most this long. Only for request paths: never on a connection that
   * sends blocking commands (BullMQ's worker connections wait on BZPOPMIN by design).
   * Absent: no deadline of ours.
   */
  commandTimeoutMs?: number;
}

/**
 * A Redis client for request paths: no offline queue and one retry, so a request never waits for
 * a Redis that is down (callers fail open or answer 503), and with `commandTimeoutMs` never waits
 * longer than that for one that is up but does not answer. Connection errors are logged once per
 * distinct message, not once per reconnect attempt. No auto-pipelining: with it, commands issued
 * while an earlier batch awaits its replies wait for that batch before they are even sent, and
 * their own timeout starts only then, so against a frozen Redis a request's command could take
 * several `commandTimeoutMs` (measured: a passphrase retrieval 2–2.5 s against a 500 ms timeout).
 */
export function createRedis(url: string, logger: Logger, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    enableAutoPipelining: false,
    ...(options.commandTimeoutMs !== undefined && { commandTimeout: options.commandTimeoutMs }),
  });
  let lastError = '';
  redis.on('error', (err: Error) => {
    if (err.message !== lastError) logger.warn({ err: err.message }, 'redis connection error');
    lastError = err.message;
  });
  redis.on('ready', () => {
    lastError = '';
  });
  return redis;
}

/** quit() fails while disconnected (no offline queue); disconnect() then stops the reconnect loop. */
export async function closeRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}

/**
 * Waits up to `ms` for the connection (start-up): without an offline queue, commands sent before
 * it is ready fail, so limiters would fail open for the first requests. False when not ready in time.
 */
export async function waitUntilReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, ms);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
