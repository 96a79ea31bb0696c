import type { Logger } from '@secret-push/logger';
import type { EmailDelivery } from '../../domain/email-delivery';
import type { TickJob } from './tick-job';

export interface SendEmailDeps {
  delivery: EmailDelivery;
  /** How often a round starts (PUSH_EMAIL_SEND_INTERVAL_MS). */
  intervalMs: number;
  /** Rounds per run at most: a backlog is sent over consecutive runs. */
  maxRounds?: number;
  logger: Logger;
  /** The clock of the interval and the backoff (tests). */
  now?: () => number;
}

const backoff = (failures: number) => Math.min(60_000, 1000 * 2 ** (failures - 1));

/**
 * Sends the push service's emails that are due (domain/email-delivery.ts over the queue of
 * packages/mail): in the background on its own interval, so SMTP never delays expiry. A run goes on
 * while rounds come back full (up to `maxRounds`). The retry state is the queue's, in PostgreSQL; a
 * worker killed mid-round loses nothing (its leases run out and the emails are due again).
 */
export function sendEmailJob(deps: SendEmailDeps): TickJob {
  const now = deps.now ?? Date.now;
  let nextAt = 0;
  let failures = 0;
  return {
    name: 'send-email',
    mode: 'background',
    due: () => now() >= nextAt,
    async run({ shouldStop }) {
      nextAt = now() + deps.intervalMs;
      let handled = 0;
      try {
        for (let round = 0; round < (deps.maxRounds ?? 10) && !shouldStop(); round++) {
          const r = await deps.delivery.deliverRound();
          const n = r.sent + r.deferred + r.failed;
          handled += n;
          if (n === 0) break;
        }
        failures = 0;
      } catch (err) {
        failures++;
        nextAt = now() + Math.max(deps.intervalMs, backoff(failures));
        deps.logger.warn(
          { err: (err as Error).message, retry_in_ms: nextAt - now() },
          'email round failed; the emails stay due',
        );
      }
      return handled;
    },
  };
}
