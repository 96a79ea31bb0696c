import type { ColumnType, Generated, Selectable } from 'kysely';

/** An owner's webhook endpoint (see its migration 2026_11_26_0010_webhooks). */
export interface WebhookEndpointTable {
  id: Generated<string>;
  owner: string;
  url: string;
  event_types: string[];
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  key_id: string;
  secret_sealed: Buffer;
  previous_key_id: string | null;
  previous_secret_sealed: Buffer | null;
  previous_until: Date | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

/** One message to one endpoint: its `id` is the `webhook-id`, its `body` the exact bytes signed. */
export interface WebhookDeliveryTable {
  id: Generated<string>;
  endpoint_id: string;
  event_id: string;
  type: string;
  body: string;
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_status: number | null;
  last_error: string | null;
  latency_ms: number | null;
  response: string | null;
  delivered_at: Date | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
