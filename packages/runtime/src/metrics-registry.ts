import { Registry, collectDefaultMetrics } from 'prom-client';

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
