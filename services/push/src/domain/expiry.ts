import type { PushStore } from './ports';
import type { PushSnapshot } from './push';
import type { PushEvents } from './push-events';

/**
 * Expiry by time, one implementation for every path: the read path (a request that finds a push
 * past its window), the delayed job that fires at `expires_at`, and the sweep. Each wipes the
 * secrets, records `expired_on` and audits `expire_by_time` in one statement, only if the push is
 * still active and past its window by the database's clock, so running it twice changes nothing.
 */
export function createExpiry(deps: {
  store: Pick<PushStore, 'expireIfPastWindow' | 'expireDueBatch' | 'msUntilWindowEnds'>;
  events: Pick<PushEvents, 'expired'>;
}) {
  const { store, events } = deps;
  return {
    async expireIfPastWindow(pushId: string): Promise<PushSnapshot | undefined> {
      const expired = await store.expireIfPastWindow(pushId);
      if (expired) await events.expired(expired.push, 'time');
      return expired;
    },

    /** Expires every push past its window, `batchSize` per statement; returns what it expired. */
    async sweep(batchSize: number, maxBatches = 1000): Promise<PushSnapshot[]> {
      const all: PushSnapshot[] = [];
      for (let i = 0; i < maxBatches; i++) {
        const batch = await store.expireDueBatch(batchSize);
        for (const s of batch) await events.expired(s.push, 'time');
        all.push(...batch);
        if (batch.length < batchSize) break;
      }
      return all;
    },

    msUntilWindowEnds: (pushId: string) => store.msUntilWindowEnds(pushId),
  };
}

export type Expiry = ReturnType<typeof createExpiry>;
