import request from 'supertest';
import { startPush } from '../testing';
import { type Harness, bearer, createPush, createdToken, harness } from './support/helpers';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.stop());

describe('operations endpoints', () => {
  it('serves liveness and readiness on the main port, Prometheus metrics labelled by route pattern on the metrics port', async () => {
    expect((await request(h.push.url).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(h.push.url).get('/readyz')).body).toEqual({
      status: 'ready',
      checks: { database: 'ok', redis: 'ok' },
    });

    const t = await createdToken(h.push.url, { payload: 'x', expire_after_views: 1 }, h.token);
    await request(h.push.url).get(`/api/v2/pushes/${t}`);
    await request(h.push.url).get('/api/v2/pushes/active').set(bearer(h.token));
    const text = (await request(h.push.metricsUrl).get('/metrics')).text;
    expect(text).toContain('pushes_created_total{kind="text"} 1');
    expect(text).toContain('pushes_viewed_total{kind="text"} 1');
    expect(text).toContain('pushes_expired_total{reason="views"} 1');
    expect(text).toMatch(/push_introspection_cache_lookups_total\{outcome="miss"\} 1\n/);
    expect(text).toMatch(/push_introspection_cache_lookups_total\{outcome="hit"\} 1\n/);
    expect(text).toMatch(
      /push_http_request_duration_seconds_count\{method="GET",route="\/api\/v2\/pushes\/:url_token",status="200"\} 1/,
    );
    expect(text).not.toContain(t);
    expect(text).toContain('push_dependency_up{dependency="database"} 1');
    expect(text).toContain('push_dependency_up{dependency="redis"} 1');
  });

  it('serves /metrics on the metrics port only: 404 on the main port, which the Ingress routes', async () => {
    expect(h.push.metricsUrl).not.toBe(h.push.url);
    const main = await request(h.push.url).get('/metrics');
    expect(main.status).toBe(404);
    expect(main.body.code).toBe('not_found');
    const ops = await request(h.push.metricsUrl).get('/metrics');
    expect(ops.status).toBe(200);
    expect(ops.headers['content-type']).toMatch(/^text\/plain/);
    expect((await request(h.push.metricsUrl).get('/readyz')).body.status).toBe('ready');
    expect((await request(h.push.metricsUrl).get('/api/v2/version')).status).toBe(404);
  });

  it('finishes in-flight requests on shutdown', async () => {
    const push = await startPush(h.auth);
    const received = new Promise((r) => push.server.server.once('request', r));
    const inFlight = createPush(push.url, { payload: 'x', passphrase: 'slow hash' });
    await received; // the handler is now running (a passphrase hash takes ~25 ms)
    const stopping = push.stop();
    expect((await inFlight).status).toBe(201);
    await stopping;
  });
});
