import {
  WEBHOOK_EVENT_TYPES,
  type Webhook,
  type WebhookDelivery,
  type WebhookWithSecret,
} from '@secret-push/client';
import { shortTime, table } from '../output.ts';

/** The human output of `secret-push webhooks …`. */

/** `all` for every type, else the types comma-separated. */
const eventsOf = (w: Webhook) =>
  WEBHOOK_EVENT_TYPES.every((t) => w.event_types.includes(t)) ? 'all' : w.event_types.join(',');

const stateOf = (w: Webhook) => (w.enabled ? 'enabled' : `disabled (${w.disabled_reason ?? 'by its owner'})`);

export function webhookTable(webhooks: readonly Webhook[]): string {
  return table(
    ['ID', 'STATE', 'EVENTS', 'URL'],
    webhooks.map((w) => [w.id, stateOf(w), eventsOf(w), w.url]),
  );
}

/** An endpoint, one `name: value` line each; with its secret after a create or a rotation. */
export function webhookDetails(w: Webhook | WebhookWithSecret): string {
  const lines: [string, string][] = [
    ['id', w.id],
    ['url', w.url],
    ['events', w.event_types.join(', ')],
    ['state', stateOf(w)],
  ];
  if (w.previous_secret_expires_at) {
    lines.push(['previous secret signs until', shortTime(w.previous_secret_expires_at)]);
  }
  if ('secret' in w) lines.push(['secret', w.secret]);
  return lines.map(([k, v]) => `${k}: ${v}\n`).join('');
}

/** Said on stderr whenever a secret is printed. */
export const STORE_SECRET =
  'Store the secret now (your receiver verifies messages with it): it is not shown again. ' +
  '`secret-push webhooks rotate ID` makes a new one.\n';

export function deliveryTable(deliveries: readonly WebhookDelivery[]): string {
  return table(
    ['ID', 'TYPE', 'STATUS', 'ATTEMPTS', 'CODE', 'QUEUED', 'LAST ERROR'],
    deliveries.map((d) => [
      d.id,
      d.type,
      d.status,
      String(d.attempts),
      d.last_status_code === null ? '-' : String(d.last_status_code),
      shortTime(d.created_at),
      d.last_error ?? '-',
    ]),
  );
}
