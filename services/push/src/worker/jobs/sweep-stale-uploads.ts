import type { Logger } from '@secret-push/logger';
import type { FilePurger } from '../../domain/file-purger';
import type { TickJob } from './tick-job';

export interface SweepStaleUploadsDeps {
  purger: FilePurger;
  batchSize: number;
  /** How often stale upload intents are looked for (PUSH_SWEEP_INTERVAL_SECONDS). */
  intervalMs: number;
  /** An upload intent older than this without its push is a crash's leftover. */
  staleUploadSeconds: number;
  logger: Logger;
  now?: () => number;
}

/** Every `intervalMs`, in the background: deletes the objects of uploads a crash left behind. */
export function sweepStaleUploadsJob(deps: SweepStaleUploadsDeps): TickJob {
  const now = deps.now ?? Date.now;
  let lastSweepAt = -Infinity;
  return {
    name: 'sweep-stale-uploads',
    mode: 'background',
    due: () => now() - lastSweepAt >= deps.intervalMs,
    async run() {
      lastSweepAt = now();
      try {
        const objects = await deps.purger.sweepStaleUploads(deps.batchSize, deps.staleUploadSeconds);
        if (objects > 0) deps.logger.info({ objects }, 'deleted the objects of stale uploads');
        return objects;
      } catch (err) {
        deps.logger.warn({ err: (err as Error).message }, 'stale upload sweep failed');
        return 0;
      }
    },
  };
}
