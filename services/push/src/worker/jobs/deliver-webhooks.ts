import type { Logger } from '@secret-push/logger';
import type { DeliveryRound } from '../../domain/webhook-delivery';
import type { TickJob } from './tick-job';

export interface DeliverWebhooksOptions {
  delivery: DeliveryRound;
  /** How often it looks for due deliveries (PUSH_WEBHOOK_INTERVAL_MS). */
  intervalMs: number;
  /** Deliveries sent at once (PUSH_WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /**
   * How long a delivery stays leased to this worker: longer than an attempt (10 s) with its
   * statements; a worker that dies holding it leaves it due again after this.
   */
  leaseSeconds?: number;
}

export interface DeliverWebhooksDeps extends DeliverWebhooksOptions {
  logger: Logger;
  now?: () => number;
}

/** Rounds per run at most (a backlog goes on at the next run). */
const MAX_ROUNDS = 20;

const backoff = (failures: number) => Math.min(60_000, 1000 * 2 ** (failures - 1));

/**
 * Sends the webhook deliveries that are due (domain/webhook-delivery.ts), in the background on its
 * own interval: a slow receiver never delays expiry. Each round leases twice as many deliveries as
 * it sends at once, so a lease never outlives its wait; a full round is followed by another. A
 * failed round (the database) backs off; its leases run out and the deliveries are due again.
 */
export function deliverWebhooksJob(deps: DeliverWebhooksDeps): TickJob {
  const now = deps.now ?? Date.now;
  const limit = deps.concurrency * 2;
  let nextAt = 0;
  let failures = 0;
  return {
    name: 'deliver-webhooks',
    mode: 'background',
    due: () => now() >= nextAt,
    async run({ shouldStop }) {
      let handled = 0;
      try {
        for (let round = 0; round < MAX_ROUNDS && !shouldStop(); round++) {
          const n = await deps.delivery.run({
            limit,
            leaseSeconds: deps.leaseSeconds ?? 60,
            concurrency: deps.concurrency,
          });
          handled += n;
          if (n < limit) break;
        }
        failures = 0;
        nextAt = now() + deps.intervalMs;
      } catch (err) {
        failures++;
        nextAt = now() + backoff(failures);
        deps.logger.warn(
          { err: (err as Error).message, retry_in_ms: nextAt - now() },
          'webhook delivery round failed; its deliveries are due again when their leases run out',
        );
      }
      return handled;
    },
  };
}
