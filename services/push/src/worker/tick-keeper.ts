import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '@secret-push/logger';
import { withDeadline } from '@secret-push/runtime';
import type { TickReport } from './ticker';
import { type QueueJobName, TICK_JOB_OPTIONS, TICK_SCHEDULER_ID, type TickJobData } from './queues';

export type SchedulerRepair = 'created' | 'missing' | 'stalled' | 'interval';

export interface TickKeeperDeps {
  queue: Queue<TickJobData, string, QueueJobName>;
  /** The queue's own connection (shared with `queue`): its state says whether Redis is reachable. */
  redis: Redis;
  intervalMs: number;
  /** The tick, run here when the queue's ticks do not arrive. */
  tick(): Promise<TickReport>;
  busy(): boolean;
  onLocalTick?(report: TickReport): void;
  onRepair?(reason: SchedulerRepair): void;
  logger: Logger;
  /** How often the scheduler is checked; default max(1 s, 4 intervals). */
  watchdogMs?: number;
  /** Deadline of each Redis call made here. */
  redisTimeoutMs?: number;
}

const REPAIR_MESSAGES: Record<SchedulerRepair, string> = {
  created: 'tick job scheduler created',
  missing: 'tick job scheduler was missing (Redis lost its data?); re-created',
  stalled: 'tick job scheduler had stalled (its next job was lost?); re-created',
  interval: 'tick job scheduler set to the configured interval',
};

/** A failure that repeats every interval (Redis frozen, the database down) is logged once per 30 s, with its count. */
function throttledWarn(logger: Logger, message: string) {
  let count = 0;
  let loggedAt = -Infinity;
  return (err: unknown) => {
    count++;
    if (Date.now() - loggedAt < 30_000) return;
    logger.warn({ err: (err as Error).message, failures: count }, message);
    loggedAt = Date.now();
    count = 0;
  };
}

/**
 * Keeps the ticks coming whatever happens to Redis:
 *
 * - **The job scheduler** (`tick`, every `intervalMs`) is created at start, and checked again on
 *   every reconnection and by a watchdog every `watchdogMs`: missing (Redis restarted empty, or its
 *   keys were deleted), with another interval (configuration changed), or stalled (its next job is
 *   long overdue while nobody is ticking: the job was lost) → upserted again. Upserting is
 *   idempotent, but it is only done when needed (one read per check otherwise).
 * - **Local ticks**: while the queue's ticks are not seen — the connection is not ready, or neither
 *   a tick of this process nor the scheduler's progress (seen by the watchdog) for `staleAfterMs` —
 *   this process runs the same tick on a local timer every `intervalMs`, against PostgreSQL only.
 *   Any number of workers may do so at once: the statements `SKIP LOCKED`, so each push is still
 *   expired exactly once. The ticker itself never lets two ticks overlap in one process.
 *
 * `queueTickSeen()` is called by the queue's processor when a tick job of this process starts and
 * when it ends.
 */
export function keepTicking(deps: TickKeeperDeps) {
  const { queue, redis, intervalMs, logger } = deps;
  const watchdogMs = deps.watchdogMs ?? Math.max(1000, 4 * intervalMs);
  const redisTimeoutMs = deps.redisTimeoutMs ?? 2000;
  /** Without a sign of the queue's ticks for this long, this process ticks locally. */
  const staleAfterMs = watchdogMs + 2 * intervalMs;

  let closed = false;
  let checking = false;
  let created = false;
  /**
   * When the queue's ticks were last seen (here, or as the scheduler's progress). Starting counts
   * as seen: with Redis up, the first tick comes within an interval; with Redis down, the
   * connection's state alone starts the local ticks.
   */
  let lastProgressAt = Date.now();
  let lastNext: number | undefined;
  let localMode = false;

  const checkFailed = throttledWarn(logger, 'could not check the tick job scheduler');
  const localTickFailed = throttledWarn(logger, 'local tick failed');

  const queueTicksStale = () => redis.status !== 'ready' || Date.now() - lastProgressAt > staleAfterMs;

  async function upsert(reason: SchedulerRepair): Promise<void> {
    await withDeadline(
      queue.upsertJobScheduler(
        TICK_SCHEDULER_ID,
        { every: intervalMs },
        { name: 'tick', data: {}, opts: TICK_JOB_OPTIONS },
      ),
      redisTimeoutMs,
      'Redis',
    );
    if (reason === 'missing') {
      // Redis lost the queue's keys: its settings (the events stream's cap) went with them.
      await withDeadline(redis.hset(queue.keys.meta!, queue.metaValues), redisTimeoutMs, 'Redis');
    }
    deps.onRepair?.(reason);
    const message = REPAIR_MESSAGES[reason];
    if (reason === 'missing' || reason === 'stalled') logger.warn({ every_ms: intervalMs }, message);
    else logger.info({ every_ms: intervalMs }, message);
  }

  /** Checks the scheduler (see above); one check at a time, only with a ready connection. */
  async function check(): Promise<void> {
    if (checking || closed || redis.status !== 'ready') return;
    checking = true;
    try {
      const scheduler = await withDeadline(queue.getJobScheduler(TICK_SCHEDULER_ID), redisTimeoutMs, 'Redis');
      const next = scheduler?.next ?? undefined;
      if (next !== undefined && lastNext !== undefined && next !== lastNext) lastProgressAt = Date.now();
      lastNext = next;
      if (!scheduler) {
        await upsert(created ? 'missing' : 'created');
      } else if (scheduler.every !== intervalMs) {
        await upsert('interval');
      } else if (next !== undefined && next < Date.now() - staleAfterMs && !deps.busy()) {
        await upsert('stalled');
      }
      created = true;
    } catch (err) {
      checkFailed(err);
    } finally {
      checking = false;
    }
  }

  function localTick(): void {
    // A tick running here (the queue's, draining a backlog, or a local one) is enough for now.
    if (closed || deps.busy()) return;
    if (!queueTicksStale()) {
      if (localMode) logger.info('the queue ticks again; local ticks stop');
      localMode = false;
      return;
    }
    if (!localMode) logger.warn('no tick from the queue (Redis unreachable?); ticking locally');
    localMode = true;
    deps.tick().then((report) => deps.onLocalTick?.(report), localTickFailed);
  }

  const onReady = () => void check();
  redis.on('ready', onReady);
  const localTimer = setInterval(localTick, intervalMs);
  const watchdog = setInterval(() => void check(), watchdogMs);
  localTimer.unref();
  watchdog.unref();
  void check();

  return {
    /** A tick job of the queue reached this process. */
    queueTickSeen(): void {
      lastProgressAt = Date.now();
    },
    /** True while this process ticks on its local timer. */
    ticksLocally: () => localMode,
    /** Stops the timers (the ticker's close() waits for a tick in flight). */
    close(): void {
      closed = true;
      clearInterval(localTimer);
      clearInterval(watchdog);
      redis.off('ready', onReady);
    },
  };
}

export type TickKeeper = ReturnType<typeof keepTicking>;
