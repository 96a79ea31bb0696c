import {
  HEALTH_PATHS,
  JSON_CONTENT_TYPE,
  type MetricsSource,
  OPERATIONS_PATHS,
  operationsResponse,
} from './operations';
import { createReadiness } from './readiness';

const PROMETHEUS = 'text/plain; version=0.0.4; charset=utf-8';
const registry: MetricsSource = {
  contentType: PROMETHEUS,
  metrics: () => Promise.resolve('# HELP up Whether the process is up\nup 1\n'),
};
const readiness = (redisUp: boolean) =>
  createReadiness({
    database: { check: () => Promise.resolve(), required: true },
    redis: { check: () => (redisUp ? Promise.resolve() : Promise.reject(new Error('down'))), required: true },
  });

describe('operationsResponse', () => {
  it('answers /healthz with 200 {"status":"ok"}', async () => {
    expect(await operationsResponse('/healthz', { readiness: readiness(false), registry })).toEqual({
      status: 200,
      contentType: JSON_CONTENT_TYPE,
      body: '{"status":"ok"}',
    });
  });

  it('answers /readyz with 200 and the checks when ready', async () => {
    expect(await operationsResponse('/readyz', { readiness: readiness(true), registry })).toEqual({
      status: 200,
      contentType: JSON_CONTENT_TYPE,
      body: '{"status":"ready","checks":{"database":"ok","redis":"ok"}}',
    });
  });

  it('answers /readyz with 503 and the checks when not ready', async () => {
    expect(await operationsResponse('/readyz', { readiness: readiness(false), registry })).toEqual({
      status: 503,
      contentType: JSON_CONTENT_TYPE,
      body: '{"status":"unavailable","checks":{"database":"ok","redis":"unavailable"}}',
    });
  });

  it("answers /metrics with the registry's text and content type", async () => {
    expect(await operationsResponse('/metrics', { readiness: readiness(true), registry })).toEqual({
      status: 200,
      contentType: PROMETHEUS,
      body: '# HELP up Whether the process is up\nup 1\n',
    });
  });

  it('does not answer /metrics without a registry (a routed port serves health only)', async () => {
    expect(operationsResponse('/metrics', { readiness: readiness(true) })).toBeUndefined();
    expect(await operationsResponse('/readyz', { readiness: readiness(true) })).toMatchObject({
      status: 200,
    });
  });

  it('is undefined, at once, for any other path', () => {
    for (const path of ['/', '/healthz/', '/HEALTHZ', '/metrics.json', '/api/v2/version']) {
      expect(operationsResponse(path, { readiness: readiness(true), registry })).toBeUndefined();
    }
  });

  it('lists exactly the paths it answers', () => {
    expect(OPERATIONS_PATHS).toEqual(['/healthz', '/readyz', '/metrics']);
    expect(HEALTH_PATHS).toEqual(['/healthz', '/readyz']);
  });
});
