import type { PushStore } from './ports/push-store';
import type { PushSnapshot } from './push';
import type { PushEvents } from './push-events';

export interface ExpireDueOptions {
  /** Statements at most; what is left stays for the next call. Default 1000. */
  maxBatches?: number;
  /** Checked before each statement: true ends the call early (shutdown). */
  shouldStop?: () => boolean;
}

/**
 * Expiry by time, one implementation for every path: the read path (a request that finds a push
 * past its window) and the worker's tick (every push past its window, in batches). Each wipes the
 * secrets, records `expired_on` and audits `expire_by_time` in one statement, only if the push is
 * still active and past its window by the database's clock, so running it twice changes nothing.
 */
export function createExpiry(deps: {
  store: Pick<PushStore, 'expireIfPastWindow' | 'expireDueBatch'>;
  /** Announced for every push expired here (the API's metrics); the worker announces nothing. */
  events?: Pick<PushEvents, 'expired'>;
}) {
  const { store, events } = deps;
  return {
    async expireIfPastWindow(pushId: string): Promise<PushSnapshot | undefined> {
      const expired = await store.expireIfPastWindow(pushId);
      if (expired) await events?.expired(expired.push, 'time');
      return expired;
    },

    /**
     * Expires every push past its window, `batchSize` per statement (each its own short
     * transaction, `SKIP LOCKED`), until a batch comes back short; returns what it expired.
     */
    async expireDue(batchSize: number, options: ExpireDueOptions = {}): Promise<PushSnapshot[]> {
      const { maxBatches = 1000, shouldStop = () => false } = options;
      const all: PushSnapshot[] = [];
      for (let i = 0; i < maxBatches && !shouldStop(); i++) {
        const batch = await store.expireDueBatch(batchSize);
        if (events) for (const s of batch) await events.expired(s.push, 'time');
        all.push(...batch);
        if (batch.length < batchSize) break;
      }
      return all;
    },
  };
}

export type Expiry = ReturnType<typeof createExpiry>;
