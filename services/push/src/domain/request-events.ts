import type { EventKind, OutboxConsumer, OutboxEvent } from './outbox';
import type { NewDelivery, WebhookDeliveryStore } from './ports/webhook-store';
import { type FailedEmailFacts, emailData } from './webhook';

/*
 * What a request's events become (issue 28): the outbox events `request_answered` and
 * `request_closed` (written with the change, only for a request somebody listens to: `request.outbox`)
 * are handed to two consumers here, as the push events are (webhook-fanout.ts, owner-notices.ts):
 * - webhooks `request.answered` / `request.closed` to the owner's endpoints that asked for them;
 * - webhook `email.delivery_failed` for an `email_failed` event of a request (its link to the
 *   responder, or the owner's notice, failed for good: storage/email.repository.ts writes it);
 * - the owner's email that an answer is waiting (`notice_request_answered`), when the request asked
 *   for it (`notify_owner_on_answer`).
 * Bodies and emails never carry the message, the note, the token or anything of the answer.
 */

export const REQUEST_EVENT_KINDS = ['request_answered', 'request_closed'] as const;
export type RequestEventKind = (typeof REQUEST_EVENT_KINDS)[number];

export const REQUEST_WEBHOOK_TYPES = ['request.answered', 'request.closed'] as const;
export type RequestWebhookType = (typeof REQUEST_WEBHOOK_TYPES)[number];

export const isRequestEventKind = (kind: EventKind): kind is RequestEventKind =>
  (REQUEST_EVENT_KINDS as readonly string[]).includes(kind);

export const requestWebhookTypeOf = (kind: RequestEventKind): RequestWebhookType =>
  kind === 'request_answered' ? 'request.answered' : 'request.closed';

/** A request as the consumers see it: nothing secret. */
export interface RequestFacts {
  id: string;
  owner: string;
  /** First 16 hex characters of SHA-256(url_token) (the SDK's pushRef applies). */
  ref: string;
  name: string | null;
  answeredAt: Date | null;
  closedAt: Date | null;
  closedReason: 'owner' | 'time' | null;
  notifyOwnerOnAnswer: boolean;
}

/** The exact JSON of a request event's message: the request as the event left it. */
export function requestEventBody(kind: RequestEventKind, at: Date, request: RequestFacts): string {
  const closed = kind === 'request_closed';
  return JSON.stringify({
    type: requestWebhookTypeOf(kind),
    timestamp: at.toISOString(),
    data: {
      request_ref: request.ref,
      name: request.name,
      state: closed ? 'closed' : 'answered',
      closed_reason: closed ? request.closedReason : null,
      answered_at: request.answeredAt?.toISOString() ?? null,
      closed_at: closed ? (request.closedAt?.toISOString() ?? null) : null,
    },
  });
}

/** The state a request's facts show. */
const stateOf = (request: RequestFacts): 'open' | 'answered' | 'closed' =>
  request.closedAt ? 'closed' : request.answeredAt ? 'answered' : 'open';

/**
 * The exact JSON of `email.delivery_failed` for a request's email: the request named by its
 * reference (as the request events do) and the failed email (as a push's `data.email`).
 */
export function requestEmailFailedBody(at: Date, request: RequestFacts, email: FailedEmailFacts): string {
  return JSON.stringify({
    type: 'email.delivery_failed',
    timestamp: at.toISOString(),
    data: { request_ref: request.ref, name: request.name, state: stateOf(request), email: emailData(email) },
  });
}

/** What the request consumers read and write (storage/request-events.repository.ts). */
export interface RequestEventStore {
  /** The requests of these events (gone ones are left out). */
  requestFacts(requestIds: readonly string[]): Promise<RequestFacts[]>;
  /**
   * Queues the owner's `notice_request_answered` for each event, to the owner's verified address (an
   * owner without one, e.g. an API client, gets none: counted as skipped); an event seen twice is
   * queued once. Returns how many were queued.
   */
  queueAnsweredNotices(
    notices: { eventId: string; requestId: string; auditId: string | null }[],
  ): Promise<number>;
}

const requestEvents = (events: readonly OutboxEvent[]) =>
  events.flatMap((e) =>
    e.requestId && isRequestEventKind(e.kind) ? [{ ...e, requestId: e.requestId, kind: e.kind }] : [],
  );

/** The `email_failed` events of requests, with their email. */
const failedEmailEvents = (events: readonly OutboxEvent[]) =>
  events.flatMap((e) =>
    e.requestId && e.kind === 'email_failed' && e.emailId
      ? [{ ...e, requestId: e.requestId, emailId: e.emailId }]
      : [],
  );

/**
 * The webhooks of request events: one delivery per enabled endpoint of the owner that asked for the
 * type, the body written once. Idempotent by event id (the delivery table's key).
 */
export function requestWebhookFanout(deps: {
  requests: Pick<RequestEventStore, 'requestFacts'>;
  deliveries: Pick<WebhookDeliveryStore, 'listening' | 'enqueue' | 'failedEmails'>;
}): OutboxConsumer {
  return {
    name: 'request-webhooks',
    async accept(all) {
      const events = requestEvents(all);
      const failures = failedEmailEvents(all);
      if (events.length === 0 && failures.length === 0) return;
      const ids = new Set([...events, ...failures].map((e) => e.requestId));
      const facts = await deps.requests.requestFacts([...ids]);
      const byId = new Map(facts.map((f) => [f.id, f]));
      const endpoints = await deps.deliveries.listening([...new Set(facts.map((f) => f.owner))]);
      const emails =
        failures.length === 0
          ? new Map<string, FailedEmailFacts>()
          : new Map(
              (await deps.deliveries.failedEmails(failures.map((e) => e.emailId))).map((m) => [m.id, m]),
            );
      const queued: NewDelivery[] = [];
      const queue = (event: OutboxEvent, owner: string, type: string, body: () => string) => {
        const wanting = endpoints.filter(
          (e) => e.owner === owner && (e.eventTypes as readonly string[]).includes(type),
        );
        if (wanting.length === 0) return;
        const written = body();
        for (const endpoint of wanting) {
          queued.push({ endpointId: endpoint.id, eventId: event.id, type, body: written });
        }
      };
      for (const event of events) {
        const request = byId.get(event.requestId);
        if (!request) continue;
        queue(event, request.owner, requestWebhookTypeOf(event.kind), () =>
          requestEventBody(event.kind, event.at, request),
        );
      }
      for (const event of failures) {
        const request = byId.get(event.requestId);
        const email = emails.get(event.emailId);
        if (!request || !email) continue;
        queue(event, request.owner, 'email.delivery_failed', () =>
          requestEmailFailedBody(event.at, request, email),
        );
      }
      if (queued.length > 0) await deps.deliveries.enqueue(queued);
    },
  };
}

/** The owner's email that an answer is waiting, for requests that asked for it. */
export function requestNoticesConsumer(deps: {
  requests: RequestEventStore;
  onSkipped?(count: number): void;
}): OutboxConsumer {
  return {
    name: 'request-notices',
    async accept(all) {
      const answered = requestEvents(all).filter((e) => e.kind === 'request_answered');
      if (answered.length === 0) return;
      const facts = await deps.requests.requestFacts([...new Set(answered.map((e) => e.requestId))]);
      const asking = new Set(facts.filter((f) => f.notifyOwnerOnAnswer).map((f) => f.id));
      const notices = answered
        .filter((e) => asking.has(e.requestId))
        .map((e) => ({ eventId: e.id, requestId: e.requestId, auditId: e.auditId }));
      if (notices.length === 0) return;
      const queued = await deps.requests.queueAnsweredNotices(notices);
      if (queued < notices.length) deps.onSkipped?.(notices.length - queued);
    },
  };
}
