import type { Logger } from '@secret-push/logger';
import type { OutboxConsumer, OutboxEvent } from '../../domain/outbox';
import type { OutboxStore } from '../../domain/ports/outbox-store';
import type { TickJob } from './tick-job';

export interface DispatchOutboxDeps {
  outbox: OutboxStore;
  /** Every consumer gets every event (each keeps what it wants). None: the events are dropped. */
  consumers: readonly OutboxConsumer[];
  /** Events per round (PUSH_SWEEP_BATCH_SIZE). */
  batchSize: number;
  /** Rounds per tick at most: a backlog is drained over consecutive ticks. */
  maxBatchesPerTick: number;
  /** Called with each batch handed over (metrics: the outbox lag). */
  onDispatched?(events: readonly OutboxEvent[]): void;
  logger: Logger;
  /** The clock of the backoff (tests). */
  now?: () => number;
}

const backoff = (failures: number) => Math.min(60_000, 1000 * 2 ** (failures - 1));

/**
 * Hands the outbox's events to the consumers (domain/outbox.ts), in rounds of `batchSize`, oldest
 * first. In the background: a slow consumer never delays expiry. A round that fails (the database,
 * or a consumer) deletes nothing: its events are handed over again by a later round (at least
 * once), after a backoff. Any number of workers dispatch at once: rounds lock disjoint batches.
 */
export function dispatchOutboxJob(deps: DispatchOutboxDeps): TickJob {
  const now = deps.now ?? Date.now;
  let failures = 0;
  let retryAt = 0;
  const handOver = async (events: readonly OutboxEvent[]) => {
    for (const consumer of deps.consumers) await consumer.accept(events);
    deps.onDispatched?.(events);
  };
  return {
    name: 'dispatch-outbox',
    mode: 'background',
    due: () => now() >= retryAt,
    async run({ shouldStop }) {
      let handled = 0;
      try {
        for (let round = 0; round < deps.maxBatchesPerTick && !shouldStop(); round++) {
          const n = await deps.outbox.drain(deps.batchSize, handOver);
          handled += n;
          if (n < deps.batchSize) break;
        }
        failures = 0;
        retryAt = 0;
      } catch (err) {
        failures++;
        retryAt = now() + backoff(failures);
        deps.logger.warn(
          { err: (err as Error).message, retry_in_ms: retryAt - now() },
          'outbox dispatch failed; its events are handed over again later',
        );
      }
      return handled;
    },
  };
}
