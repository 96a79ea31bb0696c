import { Counter, Histogram, type Registry } from 'prom-client';
import type { DeliveryOutcome } from '../domain/webhook-delivery';

/**
 * Webhook delivery metrics, in the worker's registry: attempts by outcome (`succeeded`, `retrying`:
 * failed, due again; `failed`: final; `refused`: the destination was not allowed) and how long an
 * attempt took (resolution, connection, request and answer).
 */
export function createWebhookMetrics(registry: Registry) {
  const attempts = new Counter({
    name: 'push_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome (succeeded, retrying, failed: final, refused: destination not allowed)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'push_webhook_attempt_seconds',
    help: 'Duration of a webhook delivery attempt, until the answer was read (or the failure)',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
    registers: [registry],
  });
  const disabled = new Counter({
    name: 'push_webhook_endpoints_disabled_total',
    help: 'Endpoints the worker disabled (a 410, or a delivery that failed its whole schedule)',
    registers: [registry],
  });
  return {
    onAttempt(outcome: DeliveryOutcome, latencyMs: number | null) {
      attempts.inc({ outcome });
      if (latencyMs !== null) latency.observe(latencyMs / 1000);
    },
    onDisabled: () => disabled.inc(),
  };
}
