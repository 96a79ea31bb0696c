import { EventEmitter } from 'node:events';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createLogger } from '@secret-push/logger';
import { type QueueJobName, TICK_SCHEDULER_ID, type TickJobData } from './queues';
import { type SchedulerRepair, keepTicking } from './tick-keeper';
import type { TickReport } from './ticker';

// The keeper's decisions against a scripted queue and connection, with short intervals (20 ms
// ticks, a 50 ms watchdog): when to upsert the scheduler, when to tick locally. (Against a real
// Redis: test/worker.int.test.ts.) Jest runs suites in parallel, so this process's timers can run
// late by tens of milliseconds: a test that asserts something does NOT happen while the queue
// ticks uses a 1 s watchdog (stale only after 1 s without a sign), and a test that waits for
// something to happen polls for it (`until`) rather than sleeping a fixed time.

const silent = createLogger({ name: 'test', level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `ok` every 5 ms until it holds; fails after `withinMs`. */
async function until(ok: () => boolean, withinMs = 3000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${withinMs} ms: ${ok.toString()}`);
    await sleep(5);
  }
}

/** A scheduler as the fake queue holds it: `next` fixed (stalled, frozen) or moving with the clock. */
type FakeScheduler = { every: number; next?: number } | undefined;

function fakes(initial: { status: string; scheduler?: FakeScheduler; watchdogMs?: number }) {
  const redis = Object.assign(new EventEmitter(), {
    status: initial.status,
    hset: jest.fn(() => Promise.resolve(1)),
  });
  let scheduler: FakeScheduler = initial.scheduler;
  const upserts: { every: number }[] = [];
  const removed: string[] = [];
  const queue = {
    keys: { meta: 'meta' },
    metaValues: { 'opts.maxLenEvents': 1000 },
    getJobScheduler: jest.fn((id: string) => {
      expect(id).toBe(TICK_SCHEDULER_ID);
      if (!scheduler) return Promise.resolve(undefined);
      const next = scheduler.next ?? Math.ceil((Date.now() + 1) / scheduler.every) * scheduler.every;
      return Promise.resolve({ every: scheduler.every, next });
    }),
    upsertJobScheduler: jest.fn((id: string, repeat: { every: number }) => {
      expect(id).toBe(TICK_SCHEDULER_ID);
      upserts.push(repeat);
      scheduler = { every: repeat.every };
      return Promise.resolve();
    }),
    removeJobScheduler: jest.fn((id: string) => {
      removed.push(id);
      return Promise.resolve(true);
    }),
  };
  const ticks = { count: 0 };
  const repairs: SchedulerRepair[] = [];
  let busy = false;
  const keeper = keepTicking({
    queue: queue as unknown as Queue<TickJobData, string, QueueJobName>,
    redis: redis as unknown as Redis,
    intervalMs: 20,
    watchdogMs: initial.watchdogMs ?? 50,
    tick: (): Promise<TickReport> => {
      ticks.count++;
      return Promise.resolve({ done: {} });
    },
    busy: () => busy,
    onRepair: (r) => repairs.push(r),
    logger: silent,
  });
  return {
    redis,
    queue,
    keeper,
    ticks,
    repairs,
    upserts,
    removed,
    setScheduler: (s: FakeScheduler) => (scheduler = s),
    setBusy: (b: boolean) => (busy = b),
  };
}

describe('tick keeper', () => {
  it('creates the scheduler at start, removes no other, and does not tick locally while the queue ticks', async () => {
    const f = fakes({ status: 'ready', watchdogMs: 1000 });
    try {
      const seen = setInterval(() => f.keeper.queueTickSeen(), 10);
      await sleep(200);
      clearInterval(seen);
      expect(f.repairs).toEqual(['created']);
      expect(f.upserts).toEqual([{ every: 20 }]);
      expect(f.removed).toEqual([]);
      expect(f.ticks.count).toBe(0);
      expect(f.keeper.ticksLocally()).toBe(false);
    } finally {
      f.keeper.close();
    }
  });

  it('ticks locally every interval while the connection is not ready, and checks the scheduler as soon as it is', async () => {
    const f = fakes({ status: 'reconnecting', watchdogMs: 1000 });
    try {
      await until(() => f.ticks.count >= 4);
      expect(f.keeper.ticksLocally()).toBe(true);
      expect(f.queue.getJobScheduler).not.toHaveBeenCalled();

      f.redis.status = 'ready';
      f.redis.emit('ready');
      await until(() => f.repairs.length > 0);
      expect(f.repairs).toEqual(['created']);
      const seen = setInterval(() => f.keeper.queueTickSeen(), 10);
      await sleep(60);
      const after = f.ticks.count;
      await sleep(100);
      clearInterval(seen);
      expect(f.ticks.count).toBe(after);
      expect(f.keeper.ticksLocally()).toBe(false);
    } finally {
      f.keeper.close();
    }
  });

  it('re-creates a scheduler that went missing (and the queue settings with it), and one set to another interval', async () => {
    const f = fakes({ status: 'ready', scheduler: { every: 20 } });
    try {
      await sleep(20);
      expect(f.repairs).toEqual([]);
      f.setScheduler(undefined);
      await until(() => f.repairs.length >= 1);
      expect(f.repairs).toEqual(['missing']);
      expect(f.redis.hset).toHaveBeenCalledWith('meta', { 'opts.maxLenEvents': 1000 });
      f.setScheduler({ every: 1000 });
      await until(() => f.repairs.length >= 2);
      expect(f.repairs).toEqual(['missing', 'interval']);
    } finally {
      f.keeper.close();
    }
  });

  it('re-creates a stalled scheduler (its next job long overdue) unless this process is busy with a tick', async () => {
    const f = fakes({ status: 'ready', scheduler: { every: 20, next: Date.now() - 10_000 } });
    f.setBusy(true);
    try {
      await sleep(120);
      expect(f.repairs).toEqual([]);
      expect(f.ticks.count).toBe(0); // busy: no local tick either
      f.setBusy(false);
      await until(() => f.repairs.includes('stalled'));
    } finally {
      f.keeper.close();
    }
  });

  it("ticks locally when the queue's ticks stop arriving with the connection still up (Redis frozen)", async () => {
    const f = fakes({ status: 'ready', scheduler: { every: 20, next: Date.now() + 60_000 } });
    try {
      // No tick seen and the scheduler's next job never moves: stale after 50 + 2 × 20 ms.
      await until(() => f.keeper.ticksLocally() && f.ticks.count > 0);
    } finally {
      f.keeper.close();
    }
  });

  it('stops everything on close()', async () => {
    const f = fakes({ status: 'reconnecting' });
    f.keeper.close();
    await sleep(80);
    expect(f.ticks.count).toBe(0);
  });
});
