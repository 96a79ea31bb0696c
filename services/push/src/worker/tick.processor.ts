import { type Job, UnrecoverableError } from 'bullmq';
import type { TickReport } from './ticker';
import type { QueueJobName, TickJobData } from './queues';

export interface ProcessorDeps {
  /** The tick (worker/ticker.ts), the same function the local timer runs. */
  tick(): Promise<TickReport>;
  /** A tick job reached this process: the queue is ticking (worker/tick-keeper.ts). */
  onQueueTick(): void;
}

/** `expire-due 3` (what each awaited job handled), or why the tick was skipped. */
export const describeTick = (r: TickReport) =>
  r.skipped
    ? `skipped (${r.skipped})`
    : Object.entries(r.done)
        .map(([job, n]) => `${job} ${n}`)
        .join(', ');

/**
 * The queue's one job, `tick` (the job scheduler's repeatable job, one worker per tick): runs the
 * tick, whose jobs (worker/jobs/) find their work in the database. Idempotent: a tick with nothing
 * due changes nothing and audits nothing. Any other job fails for good.
 */
export function tickProcessor(deps: ProcessorDeps) {
  return async (job: Job<TickJobData, string, QueueJobName>): Promise<string> => {
    const name = String(job.name);
    if (name !== 'tick') throw new UnrecoverableError(`unknown job ${name}`);
    deps.onQueueTick();
    return describeTick(await deps.tick());
  };
}
