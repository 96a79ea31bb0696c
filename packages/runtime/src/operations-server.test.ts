import { type MetricsSource } from './operations';
import { startOperationsServer } from './operations-server';
import { createReadiness } from './readiness';

const registry: MetricsSource = {
  contentType: 'text/plain; version=0.0.4; charset=utf-8',
  metrics: () => Promise.resolve('jobs_total 3\n'),
};

async function get(url: string) {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('startOperationsServer', () => {
  it('serves /healthz, /readyz and /metrics on its own port, and 404 for anything else', async () => {
    let redisUp = true;
    const ops = await startOperationsServer({
      host: '127.0.0.1',
      port: 0,
      registry,
      readiness: createReadiness({
        database: { check: () => Promise.resolve(), required: true },
        redis: {
          check: () => (redisUp ? Promise.resolve() : Promise.reject(new Error('down'))),
          required: true,
        },
      }),
    });
    try {
      expect(ops.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await get(`${ops.url}/healthz`)).toEqual({
        status: 200,
        type: 'application/json; charset=utf-8',
        text: '{"status":"ok"}',
      });
      expect(await get(`${ops.url}/readyz`)).toMatchObject({
        status: 200,
        text: '{"status":"ready","checks":{"database":"ok","redis":"ok"}}',
      });
      redisUp = false;
      expect(await get(`${ops.url}/readyz`)).toMatchObject({
        status: 503,
        text: '{"status":"unavailable","checks":{"database":"ok","redis":"unavailable"}}',
      });
      expect(await get(`${ops.url}/metrics`)).toEqual({
        status: 200,
        type: registry.contentType,
        text: 'jobs_total 3\n',
      });
      expect(await get(`${ops.url}/healthz?probe=1`)).toMatchObject({ status: 200 });
      expect(await get(`${ops.url}/nope`)).toEqual({
        status: 404,
        type: 'application/json; charset=utf-8',
        text: '{"error":"Not found.","code":"not_found"}',
      });
    } finally {
      await ops.close();
    }
    expect(ops.server.listening).toBe(false);
  });

  it('answers 500 when the registry cannot produce its metrics', async () => {
    const ops = await startOperationsServer({
      host: '127.0.0.1',
      port: 0,
      registry: { contentType: 'text/plain', metrics: () => Promise.reject(new Error('collect failed')) },
      readiness: createReadiness({}),
    });
    try {
      expect(await get(`${ops.url}/metrics`)).toEqual({
        status: 500,
        type: 'application/json; charset=utf-8',
        text: '{"error":"Internal server error.","code":"internal_error"}',
      });
    } finally {
      await ops.close();
    }
  });
});
