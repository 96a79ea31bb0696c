import { createLogger } from '@secret-push/logger';
import type { Expiry } from '../domain/expiry';
import type { FilePurger, PurgeDueOptions, PurgeDueResult } from '../domain/file-purger';
import type { PushSnapshot } from '../domain/push';
import { tickJobs } from './jobs/registry';
import { createTicker } from './ticker';

// The tick and its registered jobs against scripted ports: no overlap in one process, purges never
// awaited by the tick, backoffs after failed purges, the stale-upload sweep's cadence, shutdown.
// (The statements themselves run against PostgreSQL in test/worker*.int.test.ts.)

const silent = createLogger({ name: 'test', level: 'silent' });
const snap = (id: string) => ({ push: { id } }) as unknown as PushSnapshot;

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function setup(
  options: {
    expire?: () => Promise<PushSnapshot[]>;
    purge?: (o: PurgeDueOptions) => Promise<PurgeDueResult>;
    sweep?: () => Promise<number>;
    sweepIntervalMs?: number;
  } = {},
) {
  let clock = 1_000_000;
  const calls = { expire: 0, purge: [] as PurgeDueOptions[], sweep: 0, expired: [] as string[] };
  const expiry = {
    expireDue: (_batch: number, o: { shouldStop?: () => boolean }) => {
      calls.expire++;
      if (o.shouldStop?.()) return Promise.resolve([]);
      return options.expire ? options.expire() : Promise.resolve([snap('a'), snap('b')]);
    },
  } as unknown as Expiry;
  const purger = {
    purgeDue: (_batch: number, o: PurgeDueOptions) => {
      calls.purge.push(o);
      return options.purge ? options.purge(o) : Promise.resolve({ purged: 0, objects: 0 });
    },
    sweepStaleUploads: () => {
      calls.sweep++;
      return options.sweep ? options.sweep() : Promise.resolve(0);
    },
  } as unknown as FilePurger;
  const jobs = tickJobs({
    expiry,
    purger,
    batchSize: 10,
    maxBatchesPerTick: 3,
    sweepIntervalMs: options.sweepIntervalMs ?? 60_000,
    staleUploadSeconds: 3600,
    onExpired: (s) => calls.expired.push(s.push.id),
    outbox: { drain: () => Promise.resolve(0), oldestAgeSeconds: () => Promise.resolve(0) },
    outboxConsumers: [],
    logger: silent,
    now: () => clock,
  });
  const ticker = createTicker({ jobs, logger: silent });
  return {
    ticker,
    calls,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('ticker', () => {
  it('expires what is due and reports it; starts a purge pass and, at first, the stale-upload sweep', async () => {
    const { ticker, calls } = setup();
    await expect(ticker.tick()).resolves.toEqual({ done: { 'expire-due': 2 } });
    expect(calls.expired).toEqual(['a', 'b']);
    await settle();
    expect(calls.purge).toHaveLength(1);
    expect(calls.sweep).toBe(1);
  });

  it('never runs two ticks at once in one process: the second returns busy', async () => {
    const gate = deferred<PushSnapshot[]>();
    const { ticker, calls } = setup({ expire: () => gate.promise });
    const first = ticker.tick();
    expect(ticker.busy()).toBe(true);
    await expect(ticker.tick()).resolves.toEqual({ done: {}, skipped: 'busy' });
    gate.resolve([snap('x')]);
    await expect(first).resolves.toEqual({ done: { 'expire-due': 1 } });
    expect(ticker.busy()).toBe(false);
    expect(calls.expire).toBe(1);
  });

  it('does not wait for the purges: a slow object store never delays the next tick', async () => {
    const gate = deferred<PurgeDueResult>();
    const { ticker, calls } = setup({ purge: () => gate.promise });
    await ticker.tick();
    await ticker.tick(); // the pass started by the first one still runs: no second pass
    expect(calls.expire).toBe(2);
    expect(calls.purge).toHaveLength(1);
    gate.resolve({ purged: 1, objects: 1 });
    await settle();
    await ticker.tick();
    expect(calls.purge).toHaveLength(2);
  });

  it('after a failed purge: waits before the next pass, which leaves that push out for longer', async () => {
    const failing = new Set(['p1']);
    const { ticker, calls, advance } = setup({
      purge: (o) =>
        Promise.resolve(
          failing.size > 0 && !o.exclude?.includes('p1')
            ? { purged: 0, objects: 0, failed: { pushId: 'p1', error: new Error('cannot delete') } }
            : { purged: 1, objects: 1 },
        ),
    });
    const pass = async () => {
      await ticker.tick();
      await settle();
    };
    await pass();
    expect(calls.purge).toHaveLength(1);
    await pass(); // within the pass backoff (1 s): no pass
    expect(calls.purge).toHaveLength(1);
    advance(1000);
    await pass(); // the next pass leaves p1 out (5 s), and purges the others
    expect(calls.purge).toHaveLength(2);
    expect(calls.purge[1]!.exclude).toEqual(['p1']);
    await pass(); // that pass succeeded: no backoff
    expect(calls.purge).toHaveLength(3);
    advance(4000); // p1's turn again: it fails again, now left out for 10 s
    await pass();
    expect(calls.purge[3]!.exclude).toEqual([]);
    advance(1000);
    await pass();
    expect(calls.purge[4]!.exclude).toEqual(['p1']);
    failing.clear();
    advance(10_000);
    await pass();
    expect(calls.purge[5]!.exclude).toEqual([]);
  });

  it('runs the stale-upload sweep once per interval', async () => {
    const { ticker, calls, advance } = setup({ sweepIntervalMs: 5000 });
    await ticker.tick();
    await settle();
    await ticker.tick();
    await settle();
    expect(calls.sweep).toBe(1);
    advance(5000);
    await ticker.tick();
    await settle();
    expect(calls.sweep).toBe(2);
  });

  it('close(): the running tick stops before its next statement, passes in flight finish, nothing new starts', async () => {
    const gate = deferred<PushSnapshot[]>();
    const purgeGate = deferred<PurgeDueResult>();
    const { ticker, calls } = setup({ expire: () => gate.promise, purge: () => purgeGate.promise });
    const running = ticker.tick();
    const closed = ticker.close();
    let done = false;
    void closed.then(() => (done = true));
    gate.resolve([]);
    await running;
    await settle();
    expect(calls.purge).toHaveLength(0); // closing: no pass started after the tick
    expect(done).toBe(true);
    await expect(ticker.tick()).resolves.toEqual({ done: {}, skipped: 'closing' });
    purgeGate.resolve({ purged: 0, objects: 0 });
  });
});
