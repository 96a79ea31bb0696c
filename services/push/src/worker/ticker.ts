import type { Logger } from '@secret-push/logger';
import type { TickJob } from './jobs/tick-job';

export type TickTrigger = 'queue' | 'local';

export interface TickReport {
  /** What each awaited job handled (`expire-due`: the pushes this tick expired). */
  done: Record<string, number>;
  /** Set when the tick did nothing: another one is running in this process, or it is closing. */
  skipped?: 'busy' | 'closing';
}

export interface TickerDeps {
  /** The jobs of every tick (worker/jobs/registry.ts). */
  jobs: readonly TickJob[];
  logger: Logger;
}

/**
 * The tick: one function for the queue's repeatable job and for the local timer that stands in
 * for it when Redis is unreachable, so there is one implementation. It runs the jobs
 * (worker/jobs/tick-job.ts): the awaited ones in turn, then starts each background job that is due
 * and not still running here.
 *
 * No two ticks overlap in one process: a tick that finds one running returns `busy` at once.
 * Across processes, `SKIP LOCKED` shares the rows.
 */
export function createTicker(deps: TickerDeps) {
  const awaited = deps.jobs.filter((j) => j.mode === 'awaited');
  const background = deps.jobs.filter((j) => j.mode === 'background');
  let running: Promise<Record<string, number>> | undefined;
  const inFlight = new Map<string, Promise<void>>();
  let closing = false;
  const control = { shouldStop: () => closing };

  async function runAwaited(): Promise<Record<string, number>> {
    const done: Record<string, number> = {};
    for (const job of awaited) done[job.name] = await job.run(control);
    return done;
  }

  function startBackground(): void {
    for (const job of background) {
      if (closing || inFlight.has(job.name) || !(job.due?.() ?? true)) continue;
      const run = job
        .run(control)
        .then(
          () => undefined,
          (err: unknown) =>
            deps.logger.warn({ job: job.name, err: (err as Error).message }, 'tick job failed'),
        )
        .finally(() => inFlight.delete(job.name));
      inFlight.set(job.name, run);
    }
  }

  return {
    /** Runs one tick (see above); rejects when an awaited job fails (the database down). */
    async tick(): Promise<TickReport> {
      if (closing) return { done: {}, skipped: 'closing' };
      if (running) return { done: {}, skipped: 'busy' };
      running = runAwaited();
      try {
        return { done: await running };
      } finally {
        running = undefined;
        startBackground();
      }
    },

    /** True while a tick's awaited jobs run in this process. */
    busy: () => running !== undefined,

    /** No new tick or job starts; the running tick ends after its current statement, and the jobs in flight finish. */
    async close(): Promise<void> {
      closing = true;
      await Promise.allSettled([running, ...inFlight.values()]);
    },
  };
}

export type Ticker = ReturnType<typeof createTicker>;
