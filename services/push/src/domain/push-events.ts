import type { Push } from './push';

export type ExpiryReason = 'views' | 'time' | 'manual';

/**
 * What happens after a change has committed: metrics now; the expiry worker (scheduling the
 * delayed expiry job on `created`) and file purging (on `expired`) plug in here. Handlers must not
 * throw; a failure there never fails the request (the worker's sweep catches up).
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
