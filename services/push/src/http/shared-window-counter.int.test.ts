import { Redis } from 'ioredis';
import { createLogger } from '@secret-push/logger';
import {
  REDIS_URL,
  captureLogs,
  deleteRedisKeys,
  startPrivateRedis,
  uniquePrefix,
} from '@secret-push/testing';
import { SharedWindowCounter } from './shared-window-counter';

const silent = createLogger({ name: 't', level: 'silent' });
const redis = new Redis(REDIS_URL);
const prefix = uniquePrefix('swc');
const made: SharedWindowCounter[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await deleteRedisKeys(REDIS_URL, prefix);
  await redis.quit();
});

/** A replica's counter: each test its own limit name, all replicas of a test on the same keys. */
const track = (c: SharedWindowCounter) => {
  made.push(c);
  return c;
};
let n = 0;
let name = '';
const replicas = (perMinute: number, count: number, now?: () => number) => {
  name = `${prefix}t${n++}:`;
  return Array.from({ length: count }, () =>
    track(
      new SharedWindowCounter(
        redis,
        { prefix: name, perMinute, syncMs: 10_000, ...(now ? { now } : {}) },
        silent,
      ),
    ),
  );
};
const admitted = (c: SharedWindowCounter, key: string, times: number) =>
  Array.from({ length: times }, () => c.take(key).ok).filter(Boolean).length;

describe('SharedWindowCounter (local-first limit shared through Redis)', () => {
  it('is exact within one replica: the limit, then refusals with the seconds left in the minute', () => {
    const [a] = replicas(5, 1);
    expect(admitted(a!, 'ip:1', 5)).toBe(5);
    const refused = a!.take('ip:1');
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    expect(a!.take('ip:2').ok).toBe(true); // another caller has its own count
  });

  it('shares counts: a replica learns the others’ total at its next sync and refuses past the limit', async () => {
    const [a, b] = replicas(10, 2);
    expect(admitted(a!, 'ip:1', 7)).toBe(7);
    await a!.flush();
    expect(b!.take('ip:1').ok).toBe(true); // b has not synced yet: 8
    await b!.flush(); // b learns the total: 8
    expect(admitted(b!, 'ip:1', 5)).toBe(2); // 9, 10, then refused
    await b!.flush();
    expect(a!.take('ip:1').ok).toBe(true); // a still knows 7 (+0 pending): admits one (tolerance)
    await a!.flush(); // learns 11
    expect(a!.take('ip:1').ok).toBe(false);
    expect(Number(await redis.get(`${name}${Math.floor(Date.now() / 60_000)}:ip:1`))).toBe(11);
  });

  it('goes over the limit by at most what other replicas admit before their sync, never more', async () => {
    const [a, b, c] = replicas(4, 3);
    // Before any sync each replica admits up to the limit on its own: 12 in all (the stated bound).
    expect(admitted(a!, 'ip:9', 10) + admitted(b!, 'ip:9', 10) + admitted(c!, 'ip:9', 10)).toBe(12);
    await Promise.all([a!.flush(), b!.flush(), c!.flush()]);
    // After one sync every replica knows the total and refuses.
    for (const r of [a!, b!, c!]) expect(r.take('ip:9').ok).toBe(false);
  });

  it('starts a new count each minute, and the Redis counters expire', async () => {
    let now = Date.UTC(2026, 10, 27, 12, 0, 30);
    const [a] = replicas(2, 1, () => now);
    expect(admitted(a!, 'ip:1', 3)).toBe(2);
    await a!.flush();
    const key = `${name}${Math.floor(now / 60_000)}:ip:1`;
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
    now += 60_000;
    expect(admitted(a!, 'ip:1', 3)).toBe(2);
  });

  it('holds a bounded number of keys: past maxKeys, new callers share one overflow count', () => {
    const c = track(
      new SharedWindowCounter(
        redis,
        { prefix: `${prefix}t5:`, perMinute: 3, maxKeys: 2, syncMs: 10_000 },
        silent,
      ),
    );
    expect(c.take('ip:a').ok && c.take('ip:b').ok).toBe(true);
    expect(admitted(c, 'ip:c', 1) + admitted(c, 'ip:d', 1) + admitted(c, 'ip:e', 1)).toBe(3);
    expect(c.take('ip:f').ok).toBe(false); // the overflow count is spent
    expect(c.take('ip:a').ok).toBe(true); // known callers keep their own
  });

  it('without Redis still limits what it sees, logs once, and shares the counts when Redis is back', async () => {
    const own = await startPrivateRedis();
    const down = new Redis(own.url, {
      maxRetriesPerRequest: 0,
      commandTimeout: 300,
      retryStrategy: () => 50,
    });
    down.on('error', () => undefined); // refused connections while it is down
    const logs = captureLogs();
    const logger = createLogger({ name: 't', level: 'info' }, logs.stream);
    const c = new SharedWindowCounter(down, { prefix: 'swc-down:', perMinute: 3, syncMs: 10_000 }, logger);
    try {
      await own.stop();
      expect(admitted(c, 'ip:1', 5)).toBe(3);
      await c.flush();
      await c.flush();
      expect(logs.text().match(/Redis unavailable/g)).toHaveLength(1);
      expect(c.take('ip:1').ok).toBe(false);
      await own.start();
      for (let i = 0; i < 50 && down.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 50));
      await c.flush();
      expect(Number(await down.get(`swc-down:${Math.floor(Date.now() / 60_000)}:ip:1`))).toBe(3);
      expect(logs.text()).toContain('shared through Redis again');
    } finally {
      await c.close();
      down.disconnect();
      await own.stop();
    }
  });
});
