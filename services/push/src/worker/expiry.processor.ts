import { type Job, UnrecoverableError } from 'bullmq';
import type { TickReport } from './expiry-ticker';
import { type ExpiryJobName, LEGACY_JOB_NAMES, type TickJobData } from './queues';

export interface ProcessorDeps {
  /** The tick (worker/expiry-ticker.ts), the same function the local timer runs. */
  tick(): Promise<TickReport>;
  /** A tick job reached this process: the queue is ticking (worker/tick-keeper.ts). */
  onQueueTick(): void;
}

export const describeTick = (r: TickReport) =>
  r.skipped ? `skipped (${r.skipped})` : `expired ${r.expired}`;

/**
 * - `tick` (the job scheduler's repeatable job, one worker per tick): runs the tick, which expires
 *   everything past its window and starts the purges that are due, all found in the database.
 *   Idempotent: a tick with nothing due changes nothing and audits nothing.
 * - jobs of earlier versions (`expire`, `purge` per push, `sweep`): completed without doing
 *   anything, since the ticks do their work.
 */
export function expiryProcessor(deps: ProcessorDeps) {
  return async (job: Job<TickJobData, string, ExpiryJobName>): Promise<string> => {
    const name = String(job.name);
    if (name === 'tick') {
      deps.onQueueTick();
      return describeTick(await deps.tick());
    }
    if (LEGACY_JOB_NAMES.includes(name)) return 'nothing to do: expiry and purges are driven by the database';
    throw new UnrecoverableError(`unknown job ${name}`);
  };
}
