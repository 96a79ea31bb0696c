import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The one way a process creates its Prometheus registry: a registry of its own (never the global
 * one, so tests can run several services in one process), with the process's default metrics
 * (CPU, memory, event loop lag, GC) registered on it.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * Every service's request latency histogram, `<service>_http_request_duration_seconds`, by route
 * pattern (never a raw path: paths can hold secrets), method and status.
 */
export function httpRequestDuration(registry: Registry, service: string) {
  return new Histogram({
    name: `${service}_http_request_duration_seconds`,
    help: 'HTTP request latency by route pattern, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
}
