import { Counter, Histogram } from 'prom-client';
import { createMetricsRegistry } from '@secret-push/runtime';

/** Prometheus metrics of the auth service. No label is ever taken from unauthenticated input. */
export function createAuthMetrics() {
  const registry = createMetricsRegistry();
  return {
    registry,
    tokensIssued: new Counter({
      name: 'auth_tokens_issued_total',
      help: 'Access tokens issued, by client',
      labelNames: ['client_id'],
      registers: [registry],
    }),
    refusals: new Counter({
      name: 'auth_refusals_total',
      help: 'Refused token, introspection and revocation requests, by endpoint and OAuth error (client only when it exists)',
      labelNames: ['endpoint', 'error', 'client_id'],
      registers: [registry],
    }),
    requestDuration: new Histogram({
      name: 'auth_http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
}

export type AuthMetrics = ReturnType<typeof createAuthMetrics>;
