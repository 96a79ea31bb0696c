import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import type { Expiry } from '../domain/expiry';
import type { FilePurger } from '../domain/file-purger';
import type { PushSnapshot } from '../domain/push';
import type { ExpireJobData, ExpiryJobName } from './queues';

export interface ProcessorDeps {
  expiry: Expiry;
  /** File purging; absent when the instance has no object store. */
  purger?: FilePurger;
  sweepBatchSize: number;
  staleUploadSeconds: number;
  /** Called for every push this worker expired (metrics: expiry lag). */
  onExpired(snapshot: PushSnapshot): void;
}

/**
 * - `expire`: expires every push whose window has passed (by the database's clock), this one
 *   included. If this one is not due yet (the job fired early: clock skew between this host and
 *   the database), the job is delayed again by the remaining time; if the push is gone or already
 *   expired, there is nothing to do.
 * - `purge`: deletes a file push's stored files once they are due (delayed again if early).
 * - `sweep`: expires everything past its window that a lost job left behind, runs lost purges and
 *   deletes the objects of uploads a crash left behind.
 * Both are idempotent: a second run changes nothing and audits nothing.
 */
export function expiryProcessor(deps: ProcessorDeps) {
  return async (job: Job<ExpireJobData, unknown, ExpiryJobName>, token?: string): Promise<string> => {
    switch (job.name) {
      case 'expire': {
        // Windows often end together. The first job to run expires every push that is due, in one
        // statement (SKIP LOCKED, by the database's clock), so the jobs queued behind it find
        // nothing left to do instead of each waiting for its turn.
        const due = await deps.expiry.sweep(deps.sweepBatchSize, 1);
        for (const s of due) deps.onExpired(s);
        if (due.some((s) => s.push.id === job.data.pushId)) return `expired, with ${due.length - 1} others`;
        // Then this push alone, in two statements, so the window can end between them: a job that fired a moment early
        // finds the push not yet due, then no time left. It tries again rather than completing
        // with the push still active (which only the next sweep would catch).
        for (let attempt = 0; attempt < 3; attempt++) {
          const expired = await deps.expiry.expireIfPastWindow(job.data.pushId);
          if (expired) {
            deps.onExpired(expired);
            return 'expired';
          }
          const ms = await deps.expiry.msUntilWindowEnds(job.data.pushId);
          if (ms === undefined) return 'nothing to do'; // gone, or already expired
          if (ms > 0 && token) {
            await job.moveToDelayed(Date.now() + Math.ceil(ms), token);
            throw new DelayedError();
          }
        }
        throw new Error('push still active after its window; retried with backoff');
      }
      case 'purge': {
        if (!deps.purger) return 'no object store';
        const purge = await deps.purger.purgeIfDue(job.data.pushId);
        if (purge.outcome === 'later' && token) {
          await job.moveToDelayed(Date.now() + Math.ceil(purge.ms), token);
          throw new DelayedError();
        }
        return purge.outcome;
      }
      case 'sweep': {
        const swept = await deps.expiry.sweep(deps.sweepBatchSize);
        for (const s of swept) deps.onExpired(s);
        const files = await deps.purger?.sweep(deps.sweepBatchSize, deps.staleUploadSeconds);
        return `swept ${swept.length}, purged ${files?.purged ?? 0}, stale objects ${files?.staleObjects ?? 0}`;
      }
      default:
        throw new UnrecoverableError(`unknown job ${String(job.name)}`);
    }
  };
}
