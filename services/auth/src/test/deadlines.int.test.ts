import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import request from 'supertest';
import { startPrivateRedis } from '@secret-push/testing';
import { startAuth } from '../testing';
import { introspect, postForm } from './support/helpers';

// Every outbound call has a deadline of ours, and readiness means "can serve its core" (the
// database). Redis is a private redis-server frozen with CLIENT PAUSE; the database is held up
// with a lock on this test's own database.

const timed = async <T>(work: Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
};

describe('with Redis frozen (CLIENT PAUSE on a private redis-server)', () => {
  it('issues tokens and refuses bad secrets within the command deadline, and stays ready', async () => {
    const redis = await startPrivateRedis();
    const auth = await startAuth({
      env: { AUTH_REDIS_URL: redis.url, AUTH_REDIS_COMMAND_TIMEOUT_MS: '300' },
    });
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    try {
      const client = await auth.createClient('pushes:read');
      await admin.call('CLIENT', 'PAUSE', '6000', 'ALL');

      const token = await timed(auth.token(client));
      expect(token.ms).toBeLessThan(2000);
      expect((await introspect(auth.issuer, auth.resourceServer, token.value)).body.active).toBe(true);
      // The failed-authentication throttle fails open after 300 ms: a plain 401.
      const refused = await timed(
        postForm(
          auth.issuer,
          '/connect/token',
          { grant_type: 'client_credentials' },
          { ...client, client_secret: 'nope' },
        ),
      );
      expect(refused.value.status).toBe(401);
      expect(refused.ms).toBeLessThan(2000);

      const ready = await timed(request(auth.issuer).get('/readyz'));
      expect(ready.value.status).toBe(200);
      expect(ready.value.body.checks).toEqual({ database: 'ok', redis: 'unavailable' });
      expect(ready.ms).toBeLessThan(2000);
    } finally {
      admin.disconnect();
      await auth.stop();
      await redis.stop();
    }
  });
});

describe('with the database holding a statement past statement_timeout (shared server, pg_sleep)', () => {
  it('answers 503 temporarily_unavailable within the statement deadline, and recovers', async () => {
    const auth = await startAuth({
      env: { AUTH_DATABASE_STATEMENT_TIMEOUT_MS: '300', AUTH_DATABASE_QUERY_TIMEOUT_MS: '3000' },
    });
    try {
      const client = await auth.createClient('pushes:read');
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = auth.db.transaction().execute(async (trx) => {
        await sql`lock table oidc_payload in access exclusive mode`.execute(trx);
        locked();
        await sql`select pg_sleep(2)`.execute(trx);
      });
      await isLocked;

      const res = await timed(
        postForm(auth.issuer, '/connect/token', { grant_type: 'client_credentials' }, client),
      );
      expect(res.value.status).toBe(503);
      expect(res.value.body).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'the database is unavailable, retry later',
      });
      expect(res.ms).toBeLessThan(1500);

      await holder;
      await expect(auth.token(client)).resolves.toEqual(expect.any(String));
    } finally {
      await auth.stop();
    }
  });
});

describe('HTTP server limits', () => {
  it('answers 408 to headers that do not complete within AUTH_HTTP_HEADERS_TIMEOUT_MS', async () => {
    const auth = await startAuth({ env: { AUTH_HTTP_HEADERS_TIMEOUT_MS: '1000' } });
    try {
      const { port } = new URL(auth.issuer);
      const slow = await new Promise<{ received: string; ms: number }>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1');
        const started = Date.now();
        let received = '';
        socket.on('data', (c: Buffer) => (received += c.toString()));
        socket.on('error', () => {});
        const keep = setInterval(() => socket.write('X-Slow: 1\r\n'), 200);
        socket.once('close', () => {
          clearInterval(keep);
          resolve({ received, ms: Date.now() - started });
        });
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      });
      expect(slow.received).toMatch(/^HTTP\/1\.1 408/);
      expect(slow.ms).toBeGreaterThanOrEqual(900);
      expect(slow.ms).toBeLessThan(2500);
      expect((await request(auth.issuer).get('/healthz')).status).toBe(200);
    } finally {
      await auth.stop();
    }
  });
});
