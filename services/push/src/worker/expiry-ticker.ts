import type { Logger } from '@secret-push/logger';
import type { Expiry } from '../domain/expiry';
import type { FilePurger } from '../domain/file-purger';
import type { PushSnapshot } from '../domain/push';

export type TickTrigger = 'queue' | 'local';

export interface TickReport {
  /** Pushes this tick expired. */
  expired: number;
  /** Set when the tick did nothing: another one is running in this process, or it is closing. */
  skipped?: 'busy' | 'closing';
}

export interface TickerDeps {
  expiry: Expiry;
  /** File purges and stale uploads; absent when the instance has no object store. */
  purger?: FilePurger;
  /** Rows per statement (PUSH_SWEEP_BATCH_SIZE). */
  batchSize: number;
  /** Statements per tick at most: a backlog is drained over consecutive ticks. */
  maxBatchesPerTick: number;
  /** How often stale upload intents are looked for (PUSH_SWEEP_INTERVAL_SECONDS). */
  sweepIntervalMs: number;
  staleUploadSeconds: number;
  /** Called for every push this process expired (metrics: expiry lag). */
  onExpired(snapshot: PushSnapshot): void;
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
 * The tick: one function for the queue's repeatable job and for the local timer that stands in
 * for it when Redis is unreachable, so there is one implementation.
 *
 * 1. Expire every push past its window (batches of `batchSize`, `SKIP LOCKED`, at most
 *    `maxBatchesPerTick` statements; the next tick continues). Awaited: the tick's job lasts as
 *    long as this part.
 * 2. Start a purge pass (file pushes whose files are due) unless one is running in this process,
 *    or failed lately (backoff). Not awaited: a slow or unreachable object store never delays
 *    expiry. A push whose purge failed is left out for a while (per-push backoff), so it cannot
 *    hold up the others.
 * 3. Every `sweepIntervalMs`, start the stale-upload sweep the same way.
 *
 * No two ticks overlap in one process: a tick that finds one running returns `busy` at once.
 * Across processes, `SKIP LOCKED` shares the rows: each push is expired (and audited) exactly once.
 */
export function createExpiryTicker(deps: TickerDeps) {
  const now = deps.now ?? Date.now;
  let expiring: Promise<number> | undefined;
  let purging: Promise<void> | undefined;
  let sweeping: Promise<void> | undefined;
  let closing = false;
  let lastSweepAt = -Infinity;
  let passFailures = 0;
  let passRetryAt = 0;
  /** Pushes whose purge failed: not tried again before `until`. */
  const failedPurges = new Map<string, { failures: number; until: number }>();

  async function purgePass(purger: FilePurger): Promise<void> {
    const t = now();
    const exclude: string[] = [];
    for (const [pushId, f] of failedPurges) {
      if (f.until > t) exclude.push(pushId);
      // An hour past its retry time and not failing again: purged since (perhaps by another worker).
      else if (t - f.until > 3_600_000) failedPurges.delete(pushId);
    }
    try {
      const result = await purger.purgeDue(deps.batchSize, {
        maxBatches: deps.maxBatchesPerTick,
        exclude,
        shouldStop: () => closing,
      });
      if (result.purged > 0) deps.onPurged?.(result.purged);
      if (!result.failed) {
        passFailures = 0;
        passRetryAt = 0;
        return;
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
    }
  }

  function startPurgePass(): void {
    const purger = deps.purger;
    if (!purger || purging || closing || now() < passRetryAt) return;
    purging = purgePass(purger).finally(() => {
      purging = undefined;
    });
  }

  function startSweep(): void {
    const purger = deps.purger;
    if (!purger || sweeping || closing || now() - lastSweepAt < deps.sweepIntervalMs) return;
    lastSweepAt = now();
    sweeping = purger
      .sweepStaleUploads(deps.batchSize, deps.staleUploadSeconds)
      .then(
        (objects) => {
          if (objects > 0) deps.logger.info({ objects }, 'deleted the objects of stale uploads');
        },
        (err: unknown) => deps.logger.warn({ err: (err as Error).message }, 'stale upload sweep failed'),
      )
      .finally(() => {
        sweeping = undefined;
      });
  }

  async function expirePart(): Promise<number> {
    const expired = await deps.expiry.expireDue(deps.batchSize, {
      maxBatches: deps.maxBatchesPerTick,
      shouldStop: () => closing,
    });
    for (const s of expired) deps.onExpired(s);
    return expired.length;
  }

  return {
    /** Runs one tick (see above); rejects when the expiry statements fail (database down). */
    async tick(): Promise<TickReport> {
      if (closing) return { expired: 0, skipped: 'closing' };
      if (expiring) return { expired: 0, skipped: 'busy' };
      expiring = expirePart();
      try {
        return { expired: await expiring };
      } finally {
        expiring = undefined;
        startPurgePass();
        startSweep();
      }
    },

    /** True while a tick's expiry part runs in this process. */
    busy: () => expiring !== undefined,

    /** No new tick starts; the running one ends after its current statement, and the passes in flight finish. */
    async close(): Promise<void> {
      closing = true;
      await Promise.allSettled([expiring, purging, sweeping]);
    },
  };
}

export type ExpiryTicker = ReturnType<typeof createExpiryTicker>;
