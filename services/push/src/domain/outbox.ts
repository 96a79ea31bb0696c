import type { AuditKind } from './push';

/**
 * The outbox: every audited change of a push that somebody listens to (`push.outbox`, decided at
 * create by `wantsEvents`) is also an event, written by the statement that made the change (so a
 * change and its event commit together, or neither does). The worker drains the events in
 * batches and hands each batch to every consumer (owner notices by email, webhooks…), at least
 * once: a consumer may see an event again after a crash and must be idempotent by `id`.
 */

/** The audit kinds that are events (refusals without a secret at stake and page openings are not). */
export const AUDITED_EVENT_KINDS = [
  'creation',
  'view',
  'view_refunded',
  'expire',
  'expire_by_views',
  'expire_by_time',
  'expire_by_receipt',
  'file_download',
  'failed_passphrase',
] as const satisfies readonly AuditKind[];

export type AuditedEventKind = (typeof AUDITED_EVENT_KINDS)[number];

/**
 * An event: an audited change, or `email_failed` (an email about the push failed for good:
 * written by the worker with the failure, `emailId` naming the email), or a request's
 * `request_answered` / `request_closed` (`requestId`; domain/request-events.ts consumes them).
 */
export type EventKind = AuditedEventKind | 'email_failed' | 'request_answered' | 'request_closed';

export const isEventKind = (kind: AuditKind): kind is AuditedEventKind =>
  (AUDITED_EVENT_KINDS as readonly string[]).includes(kind);

export interface OutboxEvent {
  /** The stable event id: the same on every delivery of this event, whatever consumes it. */
  id: string;
  /** The push it is about; null for an event about a request (`requestId`). */
  pushId: string | null;
  /** The request it is about (`request_answered`, `request_closed`); null for a push's event. */
  requestId: string | null;
  kind: EventKind;
  /** The audit entry it came with (`view_refunded`: the view entry that was refunded). */
  auditId: string | null;
  /** `email_failed`: the email (push_email) that failed. */
  emailId: string | null;
  /** When the change committed its statement (the database's clock). */
  at: Date;
}

export interface OutboxConsumer {
  /** For logs and metrics. */
  readonly name: string;
  /**
   * Takes a batch, oldest first, and makes it durable on its side (e.g. rows of its own delivery
   * table keyed by event id) before resolving; a rejection leaves the batch for the next round.
   */
  accept(events: readonly OutboxEvent[]): Promise<void>;
}

/** Why a new push is listened to (each consumer adds its reason; none: no event is ever written). */
export interface EventListeners {
  /** The owner asked for notices by email. */
  ownerNotices: boolean;
}

/** Whether a push's changes must yield events. */
export const wantsEvents = (listeners: EventListeners): boolean => listeners.ownerNotices;
