import type { Logger } from '@secret-push/logger';
import type { FilePurger } from '../../domain/file-purger';
import type { TickJob } from './tick-job';

export interface PurgeFilesDeps {
  purger: FilePurger;
  /** Rows per statement (PUSH_SWEEP_BATCH_SIZE). */
  batchSize: number;
  maxBatchesPerTick: number;
  onPurged?(pushes: number): void;
  onPurgeFailed?(): void;
  logger: Logger;
  /** The clock of the backoffs (tests). */
  now?: () => number;
}

/**
 * Retry delays after failed purges, doubling with each failure in a row: the next purge pass
 * (1 s … 1 min: the store is likely down), and the push that failed (5 s … 10 min: longer, so that
 * the next pass tries the other pushes first and one push that keeps failing holds up no other).
 */
const passBackoff = (failures: number) => Math.min(60_000, 1000 * 2 ** (failures - 1));
const pushBackoff = (failures: number) => Math.min(600_000, 5000 * 2 ** (failures - 1));

/**
 * Purges the stored files of the file pushes whose files are due. In the background: a slow or
 * unreachable object store never delays expiry. After a failed pass the next one waits (pass
 * backoff), and the push whose purge failed is left out for a while (per-push backoff), so it
 * cannot hold up the others.
 */
export function purgeFilesJob(deps: PurgeFilesDeps): TickJob {
  const now = deps.now ?? Date.now;
  let passFailures = 0;
  let passRetryAt = 0;
  /** Pushes whose purge failed: not tried again before `until`. */
  const failedPurges = new Map<string, { failures: number; until: number }>();

  function excluded(): string[] {
    const t = now();
    const exclude: string[] = [];
    for (const [pushId, f] of failedPurges) {
      if (f.until > t) exclude.push(pushId);
      // An hour past its retry time and not failing again: purged since (perhaps by another worker).
      else if (t - f.until > 3_600_000) failedPurges.delete(pushId);
    }
    return exclude;
  }

  return {
    name: 'purge-files',
    mode: 'background',
    due: () => now() >= passRetryAt,
    async run({ shouldStop }) {
      try {
        const result = await deps.purger.purgeDue(deps.batchSize, {
          maxBatches: deps.maxBatchesPerTick,
          exclude: excluded(),
          shouldStop,
        });
        if (result.purged > 0) deps.onPurged?.(result.purged);
        if (!result.failed) {
          passFailures = 0;
          passRetryAt = 0;
          return result.purged;
        }
        const { pushId, error } = result.failed;
        const failures = (failedPurges.get(pushId)?.failures ?? 0) + 1;
        failedPurges.set(pushId, { failures, until: now() + pushBackoff(failures) });
        deps.onPurgeFailed?.();
        throw error;
      } catch (err) {
        passFailures++;
        passRetryAt = now() + passBackoff(passFailures);
        deps.logger.warn(
          { err: (err as Error).message, retry_in_ms: passRetryAt - now() },
          'file purge failed; retried later',
        );
        return 0;
      }
    },
  };
}
