import request from 'supertest';
import { createLogger } from '@secret-push/logger';
import { captureLogs, freePort, startPrivateRedis } from '@secret-push/testing';
import { loadAuthConfig } from '../config';
import { startAuthServer } from '../server';
import { type TestAuth, startAuth } from '../testing';
import { introspect, postForm } from './support/helpers';

describe('two instances on one database', () => {
  let a: TestAuth;
  let b: TestAuth;
  beforeAll(async () => {
    a = await startAuth();
    // The second instance shares the first one's database (and nothing else).
    b = await startAuth({ env: { AUTH_DATABASE_URL: a.env.AUTH_DATABASE_URL! } });
  });
  afterAll(async () => {
    await b.stop();
    await a.stop();
  });

  it('accept each other’s tokens', async () => {
    const client = await a.createClient('pushes:read');
    const fromA = await a.token(client);
    const fromB = await b.token(client);
    expect((await introspect(b.issuer, a.resourceServer, fromA)).body.active).toBe(true);
    expect((await introspect(a.issuer, a.resourceServer, fromB)).body.active).toBe(true);
  });
});

describe('health, readiness, metrics and logs', () => {
  it('reports liveness, readiness and Prometheus metrics without logging secrets', async () => {
    const logs = captureLogs();
    const auth = await startAuth({ logger: createLogger({ name: 'auth', level: 'debug' }, logs.stream) });
    try {
      const client = await auth.createClient('pushes:read');
      const token = await auth.token(client);
      await postForm(
        auth.issuer,
        '/connect/token',
        { grant_type: 'client_credentials' },
        { ...client, client_secret: 'nope' },
      );
      await introspect(auth.issuer, auth.resourceServer, token);

      expect((await request(auth.issuer).get('/healthz')).body).toEqual({ status: 'ok' });
      const ready = await request(auth.issuer).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });

      // /metrics is on the metrics port only; the main port (routed by the Ingress) answers 404.
      expect((await request(auth.issuer).get('/metrics')).status).toBe(404);
      const metrics = await request(auth.metricsUrl).get('/metrics');
      expect(metrics.text).toContain(`auth_tokens_issued_total{client_id="${client.client_id}"} 1`);
      expect(metrics.text).toContain(
        `auth_refusals_total{endpoint="token",error="invalid_client",client_id="${client.client_id}"} 1`,
      );
      expect(metrics.text).toMatch(
        /auth_http_request_duration_seconds_count\{method="POST",route="token",status="200"\} \d+/,
      );
      expect(metrics.text).toContain('auth_dependency_up{dependency="database"} 1');
      expect(metrics.text).toContain('auth_dependency_up{dependency="redis"} 1');

      const text = logs.text();
      expect(text).toContain('"path":"/connect/token"');
      for (const secret of [token, client.client_secret, auth.resourceServer.client_secret, 'nope']) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await auth.stop();
    }
  });

  it('stays ready without Redis (reported), is not ready without its database, and answers 503 rather than 500', async () => {
    const redis = await startPrivateRedis();
    const auth = await startAuth({ env: { AUTH_REDIS_URL: redis.url } });
    try {
      const client = await auth.createClient('pushes:read');
      await redis.stop();
      // Tokens are still issued and introspected: ready, with Redis reported down.
      const ready = await request(auth.issuer).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.checks).toEqual({ database: 'ok', redis: 'unavailable' });
      expect((await request(auth.metricsUrl).get('/metrics')).text).toContain(
        'auth_dependency_up{dependency="redis"} 0',
      );
      // The failed-auth throttle fails open: tokens are still issued without Redis.
      await expect(auth.token(client)).resolves.toEqual(expect.any(String));
    } finally {
      await redis.stop();
      await auth.stop();
    }

    const deadPort = await freePort();
    const config = loadAuthConfig({
      NODE_ENV: 'test',
      AUTH_PORT: String(await freePort()),
      AUTH_METRICS_PORT: '0',
      AUTH_DATABASE_URL: `postgres://postgres@127.0.0.1:${deadPort}/nothing`,
      AUTH_REDIS_URL: 'redis://127.0.0.1:6379',
      AUTH_REDIS_PREFIX: `t:deaddb:${deadPort}:`,
      AUTH_DATA_KEYS: `k1:${Buffer.alloc(32).toString('base64')}`,
    });
    const server = await startAuthServer(config, createLogger({ name: 'auth', level: 'silent' }));
    try {
      const res = await postForm(
        server.url,
        '/connect/token',
        { grant_type: 'client_credentials' },
        {
          client_id: 'spc_x',
          client_secret: 'y',
          scope: '',
        },
      );
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'the database is unavailable, retry later',
      });
      expect((await request(server.url).get('/readyz')).status).toBe(503);
    } finally {
      await server.close();
    }
  });
});
