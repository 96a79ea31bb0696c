import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import request from 'supertest';
import { startPrivateRedis, startS3 } from '@secret-push/testing';
import { startPush, startTestWorker } from '../testing';
import { type Harness, createPush, createdToken, harness } from './support/helpers';

// Every outbound call has a deadline of ours, and readiness means "can serve its core".
// Dependencies are taken down privately (a private redis-server, a private s3rver) or held up on
// the shared PostgreSQL with a lock that only this test's database knows.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.stop());

const timed = async <T>(work: Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
};

describe('with Redis frozen (CLIENT PAUSE on a private redis-server)', () => {
  it('answers within the command deadline plus slack, not after the pause: creates 201, passphrase attempts 503', async () => {
    const redis = await startPrivateRedis();
    const push = await startPush(h.auth, {
      env: { PUSH_REDIS_URL: redis.url, PUSH_REDIS_COMMAND_TIMEOUT_MS: '300' },
    });
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    try {
      const plain = await createdToken(push.url, { payload: 'plain' });
      const guarded = await createdToken(push.url, { payload: 'guarded', passphrase: 'pw' });
      // Every client's commands wait 6 s from now (this one's too): a Redis that accepts and never answers.
      await admin.call('CLIENT', 'PAUSE', '6000', 'ALL');

      // The rate limit fails open after 300 ms; the expiry job gives up after its own 500 ms.
      const create = await timed(createPush(push.url, { payload: 'during the freeze' }));
      expect(create.value.status).toBe(201);
      expect(create.ms).toBeLessThan(2500);

      const retrieve = await timed(request(push.url).get(`/api/v2/pushes/${plain}`));
      expect(retrieve.value.body.payload).toBe('plain');
      expect(retrieve.ms).toBeLessThan(2000);

      // Passphrase attempts must be counted: refused (fail closed), within the deadline.
      const pass = await timed(request(push.url).get(`/api/v2/pushes/${guarded}`).set('X-Passphrase', 'pw'));
      expect(pass.value.status).toBe(503);
      expect(pass.value.body.code).toBe('dependency_unavailable');
      expect(pass.ms).toBeLessThan(2000);

      // Ready (its core works), with Redis reported down.
      const ready = await timed(request(push.url).get('/readyz'));
      expect(ready.value.status).toBe(200);
      expect(ready.value.body.checks).toEqual({ database: 'ok', redis: 'unavailable' });
      expect(ready.ms).toBeLessThan(2000);
    } finally {
      admin.disconnect();
      await push.stop();
      await redis.stop();
    }
  });
});

describe('with the database holding a statement past statement_timeout (shared server, pg_sleep)', () => {
  it('answers 503 dependency_unavailable (not 500) within the statement deadline, and recovers', async () => {
    const push = await startPush(h.auth, {
      env: { PUSH_DATABASE_STATEMENT_TIMEOUT_MS: '300', PUSH_DATABASE_QUERY_TIMEOUT_MS: '3000' },
    });
    try {
      const t = await createdToken(push.url, { payload: 'locked out for a moment' });
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // Another session holds the table for 2 s: every statement of the service on it waits.
      const holder = push.db.transaction().execute(async (trx) => {
        await sql`lock table push in access exclusive mode`.execute(trx);
        locked();
        await sql`select pg_sleep(2)`.execute(trx);
      });
      await isLocked;

      const retrieve = await timed(request(push.url).get(`/api/v2/pushes/${t}`));
      expect(retrieve.value.status).toBe(503);
      expect(retrieve.value.body.code).toBe('dependency_unavailable');
      expect(retrieve.value.headers['retry-after']).toBe('5');
      expect(retrieve.ms).toBeLessThan(1500);
      const create = await timed(createPush(push.url, { payload: 'x' }));
      expect(create.value.status).toBe(503);
      expect(create.ms).toBeLessThan(1500);

      await holder;
      expect((await request(push.url).get(`/api/v2/pushes/${t}`)).body.payload).toBe(
        'locked out for a moment',
      );
    } finally {
      await push.stop();
    }
  });
});

describe('HTTP server limits', () => {
  it('applies the configured limits (defaults: headers 10 s, request 10 min, idle 30 s, keep-alive 65 s)', () => {
    const server = h.push.server.server;
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(600_000);
    expect(server.timeout).toBe(30_000);
    expect(server.keepAliveTimeout).toBe(65_000);
  });

  it('answers 408 to headers that do not complete within PUSH_HTTP_HEADERS_TIMEOUT_MS, and 431 to oversized ones', async () => {
    const push = await startPush(h.auth, {
      env: { PUSH_HTTP_HEADERS_TIMEOUT_MS: '1000', PUSH_HTTP_MAX_HEADER_BYTES: '4096' },
    });
    try {
      const { port } = new URL(push.url);
      const raw = (text: string, trickle = false) =>
        new Promise<{ received: string; ms: number }>((resolve) => {
          const socket = connect(Number(port), '127.0.0.1');
          const started = Date.now();
          let received = '';
          socket.on('data', (c: Buffer) => (received += c.toString()));
          socket.on('error', () => {});
          const keep = trickle ? setInterval(() => socket.write('X-Slow: 1\r\n'), 200) : undefined;
          socket.once('close', () => {
            clearInterval(keep);
            resolve({ received, ms: Date.now() - started });
          });
          socket.write(text);
        });
      const slow = await raw('GET /api/v2/version HTTP/1.1\r\nHost: x\r\n', true);
      expect(slow.received).toMatch(/^HTTP\/1\.1 408/);
      expect(slow.ms).toBeGreaterThanOrEqual(900);
      expect(slow.ms).toBeLessThan(2500);
      const big = await raw(`GET /api/v2/version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(8192)}\r\n\r\n`);
      expect(big.received).toMatch(/^HTTP\/1\.1 431/);
      expect((await request(push.url).get('/api/v2/version')).status).toBe(200);
    } finally {
      await push.stop();
    }
  });
});

describe('worker readiness: its database, not Redis nor the object store', () => {
  it('stays ready with the object store down or Redis frozen (both reported): it ticks on its own timer without Redis', async () => {
    const s3 = await startS3();
    const redis = await startPrivateRedis();
    const env = { ...h.push.env, ...s3.env, PUSH_REDIS_URL: redis.url };
    const worker = await startTestWorker({ ...h.push, env });
    try {
      expect((await request(worker.url).get('/readyz')).body).toEqual({
        status: 'ready',
        checks: { database: 'ok', redis: 'ok', object_store: 'ok' },
      });
      await s3.stop();
      const withoutStore = await request(worker.url).get('/readyz');
      expect(withoutStore.status).toBe(200);
      expect(withoutStore.body.checks.object_store).toBe('unavailable');
      expect((await request(worker.url).get('/metrics')).text).toContain(
        'push_worker_dependency_up{dependency="object_store"} 0',
      );
      // Redis frozen for 3 s (a stopped one would keep BullMQ's close() waiting for 20 s).
      const admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
      await admin.call('CLIENT', 'PAUSE', '3000', 'ALL');
      admin.disconnect();
      const withoutRedis = await request(worker.url).get('/readyz');
      expect(withoutRedis.status).toBe(200);
      expect(withoutRedis.body.checks.redis).toBe('unavailable');
      await new Promise((r) => setTimeout(r, 1200)); // the pause ends
      expect((await request(worker.url).get('/readyz')).body.checks.redis).toBe('ok');
    } finally {
      await worker.close();
      await redis.stop();
      await s3.close();
    }
  });
});
