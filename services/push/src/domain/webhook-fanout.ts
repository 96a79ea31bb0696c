import type { OutboxConsumer, OutboxEvent } from './outbox';
import type { NewDelivery, WebhookDeliveryStore } from './ports/webhook-store';
import { eventBody, eventTypeOf } from './webhook';

/**
 * The webhooks' outbox consumer: each event becomes one delivery per enabled endpoint of the push's
 * owner that wants its type, its body written once (every attempt sends the same bytes). Idempotent
 * by event id: a batch handed over again after a crash queues nothing twice.
 */
export function webhookFanout(deps: { deliveries: WebhookDeliveryStore }): OutboxConsumer {
  const { deliveries } = deps;
  return {
    name: 'webhooks',
    async accept(events: readonly OutboxEvent[]) {
      if (events.length === 0) return;
      const pushes = new Map(
        (await deliveries.pushFacts([...new Set(events.flatMap((e) => (e.pushId ? [e.pushId] : [])))])).map(
          (p) => [p.id, p],
        ),
      );
      const owners = [...new Set([...pushes.values()].map((p) => p.owner))];
      if (owners.length === 0) return;
      const endpoints = await deliveries.listening(owners);
      if (endpoints.length === 0) return;
      const emailIds = events.flatMap((e) => (e.kind === 'email_failed' && e.emailId ? [e.emailId] : []));
      const emails = new Map((await deliveries.failedEmails(emailIds)).map((m) => [m.id, m]));
      const queued: NewDelivery[] = [];
      for (const event of events) {
        const push = event.pushId ? pushes.get(event.pushId) : undefined;
        if (!push) continue;
        const type = eventTypeOf(event.kind);
        const wanting = endpoints.filter((e) => e.owner === push.owner && e.eventTypes.includes(type));
        if (wanting.length === 0) continue;
        const email = event.emailId ? emails.get(event.emailId) : undefined;
        if (event.kind === 'email_failed' && !email) continue;
        const body = eventBody(event.kind, event.at, push, email);
        for (const endpoint of wanting) {
          queued.push({ endpointId: endpoint.id, eventId: event.id, type, body });
        }
      }
      if (queued.length > 0) await deliveries.enqueue(queued);
    },
  };
}
