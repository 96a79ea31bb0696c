import type { Queue } from 'bullmq';
import type { Logger } from '@secret-push/logger';
import { withDeadline } from '@secret-push/runtime';
import type { Push } from '../domain/push';
import type { PushEvents } from '../domain/push-events';
import {
  EXPIRE_JOB_OPTIONS,
  type ExpireJobData,
  type ExpiryJobName,
  expireJobId,
  purgeJobId,
} from './queues';

/**
 * The producer side of the worker's jobs: after a create commits, a delayed job that fires at
 * `expires_at`; after any other expiry, its pending job is dropped; when a file push expires, a
 * purge job at `files_purge_after` (moved earlier by a DELETE in the grace period). All best effort: if Redis
 * is down the request still succeeds (logged and counted) and the sweep expires the push later.
 */
export function createExpiryScheduler(
  queue: Queue<ExpireJobData, unknown, ExpiryJobName>,
  logger: Logger,
  onScheduleFailure: () => void = () => {},
  timeoutMs = 500,
): PushEvents {
  /** BullMQ waits for a lost connection instead of failing; a request must not wait with it. */
  async function bounded(what: string, pushId: string, work: Promise<unknown>): Promise<void> {
    try {
      await withDeadline(work, timeoutMs, 'Redis');
    } catch (err) {
      onScheduleFailure();
      logger.warn(
        { push_id: pushId, err: (err as Error).message },
        `could not schedule ${what}; the sweep will do it`,
      );
    }
  }

  // +1: the database keeps microseconds, a Date only milliseconds; never fire early.
  const delayUntil = (at: Date) => Math.max(0, at.getTime() + 1 - Date.now());

  /** One purge job per push, at `filesPurgeAfter`; a pending later one is moved earlier. */
  async function schedulePurge(push: Push): Promise<void> {
    if (!push.filesPurgeAfter) return;
    const jobId = purgeJobId(push.id);
    const delay = delayUntil(push.filesPurgeAfter);
    const pending = await queue.getJob(jobId);
    if (pending && (await pending.isDelayed())) {
      await pending.changeDelay(delay);
      return;
    }
    await queue.add('purge', { pushId: push.id }, { ...EXPIRE_JOB_OPTIONS, jobId, delay });
  }

  return {
    async created(push) {
      const job = { ...EXPIRE_JOB_OPTIONS, jobId: expireJobId(push.id), delay: delayUntil(push.expiresAt) };
      await bounded('expiry', push.id, queue.add('expire', { pushId: push.id }, job));
    },
    viewed() {},
    async expired(push, reason) {
      if (push.filesPurgeAfter) await bounded('file purge', push.id, schedulePurge(push));
      if (reason === 'time') return; // the job itself, or the sweep (its job then finds nothing to do)
      await bounded('expiry job removal', push.id, queue.remove(expireJobId(push.id)));
    },
    async filesDue(push) {
      await bounded('file purge', push.id, schedulePurge(push));
    },
  };
}
