import type { ClosedByTime, RequestClosing } from '../../domain/request-closing';
import type { TickJob } from './tick-job';

export interface CloseRequestsDueDeps {
  requestClosing: RequestClosing;
  /** Rows per statement (PUSH_SWEEP_BATCH_SIZE). */
  batchSize: number;
  /** Statements per tick at most: a backlog is drained over consecutive ticks. */
  maxBatchesPerTick: number;
  /** Called for every request this process closed (metrics: the closing lag). */
  onRequestClosed?(closed: ClosedByTime): void;
}

/**
 * Closes every request past its window (domain/request-closing.ts: batches of `batchSize`,
 * `SKIP LOCKED`, at most `maxBatchesPerTick` statements; the next tick continues). Awaited, like
 * `expire-due`: the tick fails when the database does. Each request is closed, audited
 * (`close_by_time`) and announced (`request_closed`, when somebody listens) exactly once across
 * workers.
 */
export function closeRequestsDueJob(deps: CloseRequestsDueDeps): TickJob {
  return {
    name: 'close-requests-due',
    mode: 'awaited',
    async run({ shouldStop }) {
      const closed = await deps.requestClosing.closeDue(deps.batchSize, {
        maxBatches: deps.maxBatchesPerTick,
        shouldStop,
      });
      for (const c of closed) deps.onRequestClosed?.(c);
      return closed.length;
    },
  };
}
