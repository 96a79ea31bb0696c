import type { Expiry } from '../../domain/expiry';
import type { PushSnapshot } from '../../domain/push';
import type { TickJob } from './tick-job';

export interface ExpireDueDeps {
  expiry: Expiry;
  /** Rows per statement (PUSH_SWEEP_BATCH_SIZE). */
  batchSize: number;
  /** Statements per tick at most: a backlog is drained over consecutive ticks. */
  maxBatchesPerTick: number;
  /** Called for every push this process expired (metrics: expiry lag). */
  onExpired(snapshot: PushSnapshot): void;
}

/**
 * Expires every push past its window (batches of `batchSize`, `SKIP LOCKED`, at most
 * `maxBatchesPerTick` statements; the next tick continues). Awaited: the tick's queue job lasts as
 * long as this part, and fails when the database does. Each push is expired (and audited) exactly
 * once across workers.
 */
export function expireDueJob(deps: ExpireDueDeps): TickJob {
  return {
    name: 'expire-due',
    mode: 'awaited',
    async run({ shouldStop }) {
      const expired = await deps.expiry.expireDue(deps.batchSize, {
        maxBatches: deps.maxBatchesPerTick,
        shouldStop,
      });
      for (const s of expired) deps.onExpired(s);
      return expired.length;
    },
  };
}
