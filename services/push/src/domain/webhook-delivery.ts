import type { KeyRing } from '@secret-push/key-ring';
import type {
  AttemptRecord,
  LeasedDelivery,
  WebhookDeliveryStore,
  WebhookEndpointStore,
} from './ports/webhook-store';
import type { AttemptResult, WebhookSender } from './ports/webhook-sender';
import { webhookHeaders } from '../security/webhook-signature';
import { MAX_RETRY_AFTER_SECONDS, WEBHOOK_RETRY_SCHEDULE } from './webhook';

/** A secret is bound to its endpoint: a copy moved to another row fails to open. */
export const secretAad = (endpointId: string) => `${endpointId}|webhook_secret`;

/** The outcome of one attempt for metrics: what became of the delivery. */
export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'refused';

/** What an attempt's result means for its delivery and endpoint. */
export interface AttemptDecision {
  record: AttemptRecord;
  /** Disable the endpoint, for this reason. */
  disable?: string;
  outcome: DeliveryOutcome;
}

/** The delay before retry number `attempt` with ±20 % jitter; null when the schedule is spent. */
export function retryDelaySeconds(attempt: number, random: () => number = Math.random): number | null {
  const base = WEBHOOK_RETRY_SCHEDULE[attempt - 1];
  if (base === undefined) return null;
  return Math.max(1, Math.round(base * (0.8 + 0.4 * random())));
}

/**
 * Decides an attempt (the `attempts`-th): 2xx succeeded; 410 failed and the endpoint disabled;
 * anything else (3xx included: redirects are not followed) is retried after the schedule's delay,
 * or the receiver's `Retry-After` when longer (bounded); the schedule spent: failed and disabled.
 */
export function decideAttempt(
  attempts: number,
  result: AttemptResult,
  random?: () => number,
): AttemptDecision {
  const answered = result.kind === 'answered' ? result : undefined;
  const base = {
    lastStatus: answered?.status ?? null,
    latencyMs: result.kind === 'refused' ? null : result.latencyMs,
    response: answered?.answer ?? null,
  };
  if (answered && answered.status >= 200 && answered.status < 300) {
    return { record: { ...base, status: 'succeeded', lastError: null }, outcome: 'succeeded' };
  }
  const error =
    result.kind === 'answered'
      ? `HTTP ${result.status}${result.status >= 300 && result.status < 400 ? ' (redirects are not followed)' : ''}`
      : result.reason;
  if (answered?.status === 410) {
    return {
      record: { ...base, status: 'failed', lastError: error },
      disable: 'the receiver answered 410 Gone',
      outcome: 'failed',
    };
  }
  const delay = retryDelaySeconds(attempts, random);
  if (delay === null) {
    return {
      record: { ...base, status: 'failed', lastError: `gave up after ${attempts} attempts: ${error}` },
      disable: `every attempt of a delivery failed (${attempts}); last: ${error}`,
      outcome: 'failed',
    };
  }
  const asked = Math.min(answered?.retryAfterSeconds ?? 0, MAX_RETRY_AFTER_SECONDS);
  return {
    record: { ...base, status: 'pending', lastError: error, retryInSeconds: Math.max(delay, asked) },
    outcome: result.kind === 'refused' ? 'refused' : 'retrying',
  };
}

export interface DeliveryDeps {
  deliveries: WebhookDeliveryStore;
  endpoints: Pick<WebhookEndpointStore, 'disable'>;
  sender: WebhookSender;
  keyRing: KeyRing;
  /** Unix milliseconds (the `webhook-timestamp` of each attempt). */
  now?: () => number;
  random?: () => number;
  /** After each attempt (metrics). */
  onAttempt?(outcome: DeliveryOutcome, latencyMs: number | null): void;
  /** Email is on: an endpoint the worker disables is notified to its owner by email. */
  notifyOwners: boolean;
  /** An endpoint was disabled (410, or a delivery that spent the schedule): metrics. */
  onEndpointDisabled?(endpoint: { id: string; owner: string }, noticeQueued: boolean): void;
}

export interface DeliveryRound {
  /** Leases up to `limit` due deliveries and attempts each, `concurrency` at a time. How many. */
  run(options: { limit: number; leaseSeconds: number; concurrency: number }): Promise<number>;
}

/** The delivery of due messages (worker/jobs/deliver-webhooks.ts runs it). */
export function webhookDelivery(deps: DeliveryDeps): DeliveryRound {
  const now = deps.now ?? Date.now;
  const attempt = async (d: LeasedDelivery): Promise<void> => {
    let result: AttemptResult;
    if (!d.enabled) {
      await deps.deliveries.record(d, {
        status: 'failed',
        lastStatus: null,
        lastError: 'the endpoint is disabled',
        latencyMs: null,
        response: null,
      });
      deps.onAttempt?.('failed', null);
      return;
    }
    try {
      const secrets = d.secrets.map((s) => deps.keyRing.open(s, secretAad(d.endpointId)));
      const headers = webhookHeaders(d.id, Math.floor(now() / 1000), d.body, secrets);
      result = await deps.sender.post({ url: d.url, headers, body: d.body });
    } catch (err) {
      result = { kind: 'failed', reason: `could not send: ${(err as Error).message}`, latencyMs: 0 };
    }
    const decision = decideAttempt(d.attempts, result, deps.random);
    const recorded = await deps.deliveries.record(d, decision.record);
    deps.onAttempt?.(decision.outcome, decision.record.latencyMs);
    if (recorded && decision.disable) {
      const r = await deps.endpoints.disable(d.endpointId, decision.disable, {
        notifyOwner: deps.notifyOwners,
      });
      if (r.disabled) deps.onEndpointDisabled?.({ id: d.endpointId, owner: d.owner }, r.noticeQueued);
    }
  };
  return {
    async run({ limit, leaseSeconds, concurrency }) {
      const leased = await deps.deliveries.leaseDue(limit, leaseSeconds);
      const queue = [...leased];
      const workers = Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let d = queue.shift(); d; d = queue.shift()) await attempt(d);
      });
      await Promise.all(workers);
      return leased.length;
    },
  };
}
