import type { Push } from './push';

export type ExpiryReason = 'views' | 'time' | 'manual';

/**
 * What happens after a change has committed: metrics. Nothing is queued: expiry and file purges
 * are driven by the database (the worker's tick finds what is due). Handlers must not throw; a
 * failure there never fails the request.
 */
export interface PushEvents {
  created(push: Push): Promise<void> | void;
  viewed(push: Push): void;
  expired(push: Push, reason: ExpiryReason): Promise<void> | void;
}

export function combineEvents(...all: PushEvents[]): PushEvents {
  return {
    async created(push) {
      for (const e of all) await e.created(push);
    },
    viewed(push) {
      for (const e of all) e.viewed(push);
    },
    async expired(push, reason) {
      for (const e of all) await e.expired(push, reason);
    },
  };
}
