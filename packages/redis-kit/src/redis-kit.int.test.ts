import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { createLogger } from '@secret-push/logger';
import { closeRedis, createRedis, waitUntilReady } from './index';

// Needs the local Redis (127.0.0.1:6379), used only under this file's own key prefix. redis-kit cannot
// depend on @secret-push/testing, so its helpers (captureLogs, freePort) are repeated here.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `t:redis-kit:${randomBytes(5).toString('hex')}:`;

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      cb();
    },
  });
  const records = () =>
    chunks
      .join('')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { stream, records };
}

async function closedPortUrl(): Promise<string> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return `redis://127.0.0.1:${port}`;
}

/** A redis-server of this file's own (never the shared one), to freeze with SIGSTOP. */
async function privateRedisServer(): Promise<{ url: string; proc: ChildProcess; stop(): Promise<void> }> {
  const url = await closedPortUrl();
  const proc = spawn(
    'redis-server',
    ['--port', new URL(url).port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const probe = createRedis(url, createLogger({ name: 'probe', level: 'silent' }));
  try {
    if (!(await waitUntilReady(probe, 5000))) throw new Error('private redis-server did not start');
  } finally {
    probe.disconnect();
  }
  return {
    url,
    proc,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

const clients: Redis[] = [];
function client(url: string, logs = capture(), options: { commandTimeoutMs?: number } = {}): Redis {
  const redis = createRedis(url, createLogger({ name: 'redis-test', level: 'warn' }, logs.stream), options);
  clients.push(redis);
  return redis;
}

afterAll(async () => {
  // disconnect() stops a client's reconnect loop, but on a client whose socket is already closed
  // (reconnecting, or ended) it also arms ioredis's 2 s disconnect timer, which nothing clears: wait
  // for those timers so that Jest can exit cleanly.
  const pending = clients.filter((r) => r.status !== 'end');
  for (const r of pending) r.disconnect();
  await new Promise((r) => setTimeout(r, 2100));
  // Clean up this file's keys (SCAN under the prefix, never KEYS).
  const redis = createRedis(REDIS_URL, createLogger({ name: 'cleanup', level: 'silent' }));
  await waitUntilReady(redis, 2000);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  await closeRedis(redis);
});

describe('createRedis', () => {
  it('runs commands once connected', async () => {
    const redis = client(REDIS_URL);
    expect(await waitUntilReady(redis, 2000)).toBe(true);
    await redis.set(`${PREFIX}k`, 'v', 'EX', 60);
    expect(await redis.get(`${PREFIX}k`)).toBe('v');
  });

  it('fails a command at once when nothing listens, instead of queuing it', async () => {
    const redis = client(await closedPortUrl());
    const started = Date.now();
    await expect(redis.get(`${PREFIX}never`)).rejects.toThrow(/enableOfflineQueue|writeable|closed/i);
    expect(Date.now() - started).toBeLessThan(200);
    // Still failing fast while it keeps reconnecting in the background.
    await new Promise((r) => setTimeout(r, 300));
    const again = Date.now();
    await expect(redis.incr(`${PREFIX}never`)).rejects.toThrow();
    expect(Date.now() - again).toBeLessThan(200);
    expect(redis.status).not.toBe('ready');
  });

  it('fails concurrent commands of the same tick at once (no queue of ours)', async () => {
    const redis = client(await closedPortUrl());
    const started = Date.now();
    const results = await Promise.allSettled([redis.get('a'), redis.incr('b'), redis.expire('c', 1)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('logs a connection error once per distinct message, not once per reconnect attempt', async () => {
    const logs = capture();
    const redis = client(await closedPortUrl(), logs);
    let attempts = 0;
    redis.on('reconnecting', () => attempts++);
    const deadline = Date.now() + 3000;
    while (attempts < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(attempts).toBeGreaterThanOrEqual(3);
    const warnings = logs.records().filter((r) => r.msg === 'redis connection error');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', err: expect.stringContaining('ECONNREFUSED') });
  });
});

describe('commandTimeoutMs', () => {
  it('rejects a command that a frozen Redis (SIGSTOP) does not answer within the deadline, and recovers', async () => {
    const server = await privateRedisServer();
    try {
      const redis = client(server.url, capture(), { commandTimeoutMs: 300 });
      expect(await waitUntilReady(redis, 2000)).toBe(true);
      await redis.set(`${PREFIX}frozen`, '1');
      server.proc.kill('SIGSTOP');
      try {
        const started = Date.now();
        await expect(redis.get(`${PREFIX}frozen`)).rejects.toThrow(/Command timed out/);
        const elapsed = Date.now() - started;
        expect(elapsed).toBeGreaterThanOrEqual(250);
        expect(elapsed).toBeLessThan(1000);
        // Concurrent commands each get the same deadline.
        const again = Date.now();
        const results = await Promise.allSettled([redis.incr(`${PREFIX}a`), redis.incr(`${PREFIX}b`)]);
        expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
        expect(Date.now() - again).toBeLessThan(1000);
      } finally {
        server.proc.kill('SIGCONT');
      }
      // Thawed: the same client answers again (the late replies of the timed-out commands are dropped).
      await new Promise((r) => setTimeout(r, 100));
      expect(await redis.get(`${PREFIX}frozen`)).toBe('1');
    } finally {
      await server.stop();
    }
  });

  it('gives a command sent while an earlier one awaits a frozen Redis its own deadline, not the sum', async () => {
    const server = await privateRedisServer();
    try {
      const redis = client(server.url, capture(), { commandTimeoutMs: 1000 });
      expect(await waitUntilReady(redis, 2000)).toBe(true);
      server.proc.kill('SIGSTOP');
      try {
        const first = redis.get(`${PREFIX}first`).catch((e: unknown) => e);
        await new Promise((r) => setTimeout(r, 50));
        const started = Date.now();
        const err = await redis.get(`${PREFIX}second`).catch((e: unknown) => e);
        const elapsed = Date.now() - started;
        expect(err).toEqual(expect.objectContaining({ message: expect.stringMatching(/Command timed out/) }));
        // Its own 1000 ms; behind the first command's batch (auto-pipelining) it took ~1950 ms.
        expect(elapsed).toBeLessThan(1600);
        await first;
      } finally {
        server.proc.kill('SIGCONT');
      }
    } finally {
      await server.stop();
    }
  });

  it('is not set unless asked for (BullMQ worker connections must block)', () => {
    expect(client(REDIS_URL).options.commandTimeout).toBeUndefined();
    expect(client(REDIS_URL, capture(), { commandTimeoutMs: 500 }).options.commandTimeout).toBe(500);
  });
});

describe('waitUntilReady', () => {
  it('is true at once for a client that is already ready', async () => {
    const redis = client(REDIS_URL);
    expect(await waitUntilReady(redis, 2000)).toBe(true);
    const started = Date.now();
    expect(await waitUntilReady(redis, 2000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(50);
  });

  it('is false after the given time when nothing listens, and leaves no listener behind', async () => {
    const redis = client(await closedPortUrl());
    const before = redis.listenerCount('ready');
    const started = Date.now();
    expect(await waitUntilReady(redis, 300)).toBe(false);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1000);
    expect(redis.listenerCount('ready')).toBe(before);
  });
});

describe('closeRedis', () => {
  /** Rejects when `p` is still pending after `ms` (and leaves no timer behind). */
  async function within<T>(ms: number, p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([p, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
  const ended = (redis: Redis) =>
    redis.status === 'end' ? Promise.resolve() : new Promise<void>((r) => redis.once('end', () => r()));

  it('closes a connected client', async () => {
    const redis = client(REDIS_URL);
    expect(await waitUntilReady(redis, 2000)).toBe(true);
    const end = ended(redis);
    await within(1000, closeRedis(redis));
    await within(1000, end);
    expect(redis.status).toBe('end');
    await expect(redis.get(`${PREFIX}k`)).rejects.toThrow(/Connection is closed/);
  });

  it('does not hang on a client that never connected, and stops its reconnect loop', async () => {
    const redis = client(await closedPortUrl());
    let attempts = 0;
    redis.on('reconnecting', () => attempts++);
    const deadline = Date.now() + 3000;
    while (attempts < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(attempts).toBeGreaterThanOrEqual(2); // reconnecting by now
    await within(1000, closeRedis(redis));
    const after = attempts;
    await new Promise((r) => setTimeout(r, 500));
    expect(attempts).toBe(after);
    const started = Date.now();
    await expect(redis.get(`${PREFIX}k`)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('does not hang right after creation (still connecting) nor when called twice', async () => {
    const redis = client(await closedPortUrl());
    const end = ended(redis);
    await within(1000, closeRedis(redis));
    await within(1000, end);
    await within(1000, closeRedis(redis));
    expect(redis.status).toBe('end');
  });
});
