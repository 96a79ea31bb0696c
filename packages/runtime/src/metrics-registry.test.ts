import { Counter, register as globalRegistry } from 'prom-client';
import { createMetricsRegistry, httpRequestDuration } from './metrics-registry';

describe('createMetricsRegistry', () => {
  it('creates a registry of its own, with the default process metrics', async () => {
    const a = createMetricsRegistry();
    const b = createMetricsRegistry();
    expect(a).not.toBe(b);
    expect(a).not.toBe(globalRegistry);
    const text = await a.metrics();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('keeps metrics apart: a counter registered on one registry is absent from another', async () => {
    const a = createMetricsRegistry();
    const b = createMetricsRegistry();
    new Counter({ name: 'only_in_a_total', help: 'test', registers: [a] }).inc();
    expect(await a.metrics()).toContain('only_in_a_total 1');
    expect(await b.metrics()).not.toContain('only_in_a_total');
    expect(await globalRegistry.metrics()).not.toContain('only_in_a_total');
  });
});

describe('httpRequestDuration', () => {
  it('names the histogram after the service, labelled by route, method and status', async () => {
    const registry = createMetricsRegistry();
    httpRequestDuration(registry, 'svc').observe({ route: '/x/:id', method: 'GET', status: '200' }, 0.003);
    const text = await registry.metrics();
    expect(text).toContain(
      'svc_http_request_duration_seconds_bucket{le="0.005",route="/x/:id",method="GET",status="200"} 1',
    );
  });
});
