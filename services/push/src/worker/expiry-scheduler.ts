import type { Queue } from 'bullmq';
import type { Logger } from '@secret-push/logger';
import type { PushEvents } from '../domain/push-events';
import { EXPIRE_JOB_OPTIONS, type ExpireJobData, type ExpiryJobName, expireJobId } from './queues';

/**
 * The API's side of the expiry worker: after a create commits, a delayed job that fires at
 * `expires_at`; after any other expiry, its pending job is dropped. Both are best effort: if Redis
 * is down the request still succeeds (logged and counted) and the sweep expires the push later.
 */
export function createExpiryScheduler(
  queue: Queue<ExpireJobData, unknown, ExpiryJobName>,
  logger: Logger,
  onScheduleFailure: () => void = () => {},
  timeoutMs = 500,
): PushEvents {
  return {
    async created(push) {
      // BullMQ waits for a lost connection instead of failing; a create must not wait with it.
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer from Redis within ${timeoutMs} ms`)), timeoutMs);
      });
      const add = queue.add(
        'expire',
        { pushId: push.id },
        {
          ...EXPIRE_JOB_OPTIONS,
          jobId: expireJobId(push.id),
          // +1: the database keeps microseconds, a Date only milliseconds; never fire early.
          delay: Math.max(0, push.expiresAt.getTime() + 1 - Date.now()),
        },
      );
      add.catch(() => {}); // if it settles after the timeout, the outcome is already logged
      try {
        await Promise.race([add, timeout]);
      } catch (err) {
        onScheduleFailure();
        logger.warn(
          { push_id: push.id, err: (err as Error).message },
          'could not schedule expiry; the sweep will expire it',
        );
      } finally {
        clearTimeout(timer);
      }
    },
    viewed() {},
    async expired(push, reason) {
      if (reason === 'time') return; // the job itself, or the sweep (its job then finds nothing to do)
      await queue.remove(expireJobId(push.id)).catch(() => 0);
    },
  };
}
