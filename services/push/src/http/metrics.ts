import type { RequestHandler } from 'express';
import { Counter } from 'prom-client';
import { createMetricsRegistry, httpRequestDuration } from '@secret-push/runtime';
import type { PushEvents } from '../domain/push-events';

/** Prometheus metrics of the push API. Route labels are route patterns, never raw paths. */
export function createPushMetrics() {
  const registry = createMetricsRegistry();
  const m = {
    registry,
    requestDuration: httpRequestDuration(registry, 'push'),
    created: new Counter({
      name: 'pushes_created_total',
      help: 'Pushes created, by kind',
      labelNames: ['kind'],
      registers: [registry],
    }),
    viewed: new Counter({
      name: 'pushes_viewed_total',
      help: 'Views served, by kind',
      labelNames: ['kind'],
      registers: [registry],
    }),
    expired: new Counter({
      name: 'pushes_expired_total',
      help: 'Pushes expired, by reason',
      labelNames: ['reason'],
      registers: [registry],
    }),
    introspection: new Counter({
      name: 'push_introspection_cache_lookups_total',
      help: 'Token verifications by cache outcome (hit ratio = hit / all)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    personalTokens: new Counter({
      name: 'push_personal_token_lookups_total',
      help: 'Personal API token verifications by cache outcome (miss: a database lookup)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
  return m;
}

export type PushMetrics = ReturnType<typeof createPushMetrics>;

export function metricsEvents(m: PushMetrics): PushEvents {
  return {
    created: (push) => void m.created.inc({ kind: push.kind }),
    viewed: (push) => m.viewed.inc({ kind: push.kind }),
    expired: (_push, reason) => void m.expired.inc({ reason }),
  };
}

export function observeRequests(m: PushMetrics): RequestHandler {
  return (req, res, next) => {
    const end = m.requestDuration.startTimer({ method: req.method });
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      end({ route: route ? `${req.baseUrl}${route}` : 'unmatched', status: String(res.statusCode) });
    });
    next();
  };
}
