import { Counter, register as globalRegistry } from 'prom-client';
import { createMetricsRegistry } from './metrics-registry';

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
