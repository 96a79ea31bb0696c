import type { Logger } from '@secret-push/logger';
import type { Expiry } from '../../domain/expiry';
import type { EmailDelivery } from '../../domain/email-delivery';
import type { FilePurger } from '../../domain/file-purger';
import type { OutboxConsumer, OutboxEvent } from '../../domain/outbox';
import type { OutboxStore } from '../../domain/ports/outbox-store';
import type { ClosedByTime, RequestClosing } from '../../domain/request-closing';
import { closeRequestsDueJob } from './close-requests-due';
import { type DeliverWebhooksOptions, deliverWebhooksJob } from './deliver-webhooks';
import { dispatchOutboxJob } from './dispatch-outbox';
import { type ExpireDueDeps, expireDueJob } from './expire-due';
import { purgeFilesJob } from './purge-files';
import { sendEmailJob } from './send-email';
import { sweepStaleUploadsJob } from './sweep-stale-uploads';
import type { TickJob } from './tick-job';

/** What the jobs are made of: the domain's services, the tick's batches, metrics hooks. */
export interface TickJobDeps {
  expiry: Expiry;
  /** Requests past their window are closed by time (absent: not by this tick, as in unit tests). */
  requestClosing?: RequestClosing;
  onRequestClosed?(closed: ClosedByTime): void;
  /** File purges and stale uploads; absent when the instance has no object store. */
  purger?: FilePurger;
  /** Rows per statement (PUSH_SWEEP_BATCH_SIZE). */
  batchSize: number;
  /** Statements per tick at most, per job: a backlog is drained over consecutive ticks. */
  maxBatchesPerTick: number;
  /** How often stale upload intents are looked for (PUSH_SWEEP_INTERVAL_SECONDS). */
  sweepIntervalMs: number;
  staleUploadSeconds: number;
  onExpired: ExpireDueDeps['onExpired'];
  onPurged?(pushes: number): void;
  onPurgeFailed?(): void;
  /** The outbox and who consumes its events (domain/outbox.ts). */
  outbox: OutboxStore;
  outboxConsumers: readonly OutboxConsumer[];
  onDispatched?(events: readonly OutboxEvent[]): void;
  /** The email sender and its interval (PUSH_EMAIL_SEND_INTERVAL_MS); absent where email is off. */
  email?: { delivery: EmailDelivery; intervalMs: number };
  /** Webhook deliveries (absent: not sent by this process). */
  webhooks?: DeliverWebhooksOptions;
  logger: Logger;
  /** The clock of the backoffs and intervals (tests). */
  now?: () => number;
}

/** The jobs of every tick, in the order they start: one line per job. */
export function tickJobs(deps: TickJobDeps): TickJob[] {
  const { purger, webhooks, requestClosing } = deps;
  return [
    expireDueJob(deps),
    ...(requestClosing ? [closeRequestsDueJob({ ...deps, requestClosing })] : []),
    dispatchOutboxJob({ ...deps, consumers: deps.outboxConsumers }),
    ...(purger ? [purgeFilesJob({ ...deps, purger })] : []),
    ...(purger ? [sweepStaleUploadsJob({ ...deps, purger, intervalMs: deps.sweepIntervalMs })] : []),
    ...(deps.email ? [sendEmailJob({ ...deps, ...deps.email })] : []),
    ...(webhooks ? [deliverWebhooksJob({ ...deps, ...webhooks })] : []),
  ];
}
