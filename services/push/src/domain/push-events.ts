import type { Push } from './push';

export type ExpiryReason = 'views' | 'time' | 'manual';

/**
 * What happens after a change has committed: metrics; the expiry worker's jobs (the delayed
 * expiry job on `created`, the files' purge job on `expired` and `filesDue`). Handlers must not
 * throw; a failure there never fails the request (the worker's sweep catches up).
 */
export interface PushEvents {
  created(push: Push): Promise<void> | void;
  viewed(push: Push): void;
  expired(push: Push, reason: ExpiryReason): Promise<void> | void;
  /** A file push's files became due earlier than planned (`push.filesPurgeAfter`): a DELETE in the grace period. */
  filesDue(push: Push): Promise<void> | void;
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
    async filesDue(push) {
      for (const e of all) await e.filesDue(push);
    },
  };
}
