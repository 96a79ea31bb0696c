import { DEFAULT_CHECK_TIMEOUT_MS, createReadiness } from './readiness';

const ok = () => Promise.resolve();
const down = () => Promise.reject(new Error('ECONNREFUSED'));
const frozen = () => new Promise<never>(() => {});

describe('createReadiness', () => {
  it('is ready when every dependency answers, reporting each in the order given', async () => {
    const readiness = createReadiness({
      database: { check: ok, required: true },
      redis: { check: ok, required: false },
    });
    const report = await readiness();
    expect(report).toEqual({ ready: true, checks: { database: 'ok', redis: 'ok' } });
    expect(Object.keys(report.checks)).toEqual(['database', 'redis']);
  });

  it('is not ready when a required dependency fails', async () => {
    const readiness = createReadiness({
      database: { check: down, required: true },
      redis: { check: ok, required: true },
    });
    expect(await readiness()).toEqual({ ready: false, checks: { database: 'unavailable', redis: 'ok' } });
  });

  it('stays ready when only an optional dependency fails, and still reports it', async () => {
    const readiness = createReadiness({
      database: { check: ok, required: true },
      redis: { check: down, required: false },
    });
    expect(await readiness()).toEqual({ ready: true, checks: { database: 'ok', redis: 'unavailable' } });
  });

  it('reports a frozen check unavailable after its timeout, without waiting for it', async () => {
    const readiness = createReadiness({
      database: { check: ok, required: true },
      object_store: { check: frozen, required: true, timeoutMs: 50 },
    });
    const started = Date.now();
    const report = await readiness();
    const elapsed = Date.now() - started;
    expect(report).toEqual({ ready: false, checks: { database: 'ok', object_store: 'unavailable' } });
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(1000);
  });

  it('waits 2000 ms by default', async () => {
    expect(DEFAULT_CHECK_TIMEOUT_MS).toBe(2000);
    jest.useFakeTimers();
    try {
      const report = createReadiness({ redis: { check: frozen, required: true } })();
      await jest.advanceTimersByTimeAsync(1999);
      let settled = false;
      void report.then(() => (settled = true));
      await jest.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(await report).toEqual({ ready: false, checks: { redis: 'unavailable' } });
    } finally {
      jest.useRealTimers();
    }
  });

  it('counts a check that throws synchronously as unavailable', async () => {
    const readiness = createReadiness({
      database: {
        check: () => {
          throw new Error('pool destroyed');
        },
        required: true,
      },
    });
    expect(await readiness()).toEqual({ ready: false, checks: { database: 'unavailable' } });
  });

  it('checks every dependency afresh on each call', async () => {
    let up = false;
    const readiness = createReadiness({ redis: { check: () => (up ? ok() : down()), required: true } });
    expect((await readiness()).ready).toBe(false);
    up = true;
    expect((await readiness()).ready).toBe(true);
  });
});
