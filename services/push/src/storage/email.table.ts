import type { ColumnType, Generated, Selectable } from 'kysely';

/** One send (a `creation_email_send` entry): Password Pusher's `notify_by_email` (see the migration). */
export interface PushEmailBatchTable {
  id: Generated<string>;
  /** Exactly one of `push_id` and `request_id` (a `request_link` send). */
  push_id: string | null;
  request_id: string | null;
  audit_id: string | null;
  owner: string;
  recipients: string[];
  locale: string;
  sender_address: string | null;
  created_at: ColumnType<Date, never, never>;
}

/** The queue of the push service's emails: packages/mail's columns and what to compose from. */
export interface PushEmailTable {
  id: Generated<string>;
  recipient: string;
  status: Generated<'queued' | 'sending' | 'deferred' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_error: string | null;
  smtp_response: string | null;
  sent_at: Date | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: Generated<Date>;
  /** Null for `notice_webhook_disabled` (about an endpoint) and the request purposes (`request_id`). */
  push_id: string | null;
  request_id: string | null;
  owner: string;
  purpose: string;
  locale: string;
  batch_id: string | null;
  event_id: string | null;
  audit_id: string | null;
  endpoint_id: string | null;
}

export type PushEmailRow = Selectable<PushEmailTable>;
export type PushEmailBatchRow = Selectable<PushEmailBatchTable>;
