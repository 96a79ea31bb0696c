import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** The states of a request (see migration 2026_11_27_0002_requests). */
export type RequestState = 'open' | 'answered' | 'closed';
export type RequestAnswerableBy = 'anyone' | 'users' | 'emails';
export type RequestClosedReason = 'owner' | 'time';

/**
 * One request: stored like a push (token as SHA-256 plus a sealed copy, message and note sealed
 * with the key ring `key_id` bound to the row, the passphrase as the push's slow hash), its window
 * (`close_after_at`) and the limits of the answer push (`answer_*`).
 */
export interface RequestTable {
  id: string;
  token_hash: Buffer;
  token_sealed: Buffer;
  key_id: string;
  owner: string;
  state: Generated<RequestState>;
  message_sealed: Buffer;
  name: string | null;
  note_sealed: Buffer | null;
  passphrase_hash: string | null;
  response_file_attachments: boolean;
  include_requestor: boolean;
  requestor_email: string | null;
  answerable_by: RequestAnswerableBy;
  answerable_emails: string[];
  close_after_at: Date;
  close_after_duration: number | null;
  expire_after_days: number | null;
  expire_after_duration: number | null;
  answer_expire_after_views: number;
  answer_expire_after_days: number | null;
  answer_expire_after_duration: number | null;
  answer_retrieval_step: boolean;
  answer_deletable_by_viewer: boolean;
  answer_push_id: string | null;
  notify_owner_on_answer: Generated<boolean>;
  email_locale: string | null;
  outbox: Generated<boolean>;
  attachment_downloads_allowed: Generated<number>;
  files_purge_after: Date | null;
  files_purged: Generated<boolean>;
  audit_entries: Generated<number>;
  audit_dropped: Generated<number>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
  answered_at: Date | null;
  closed_at: Date | null;
  closed_reason: RequestClosedReason | null;
}

/** Like `audit_entry`, for a request. */
export interface RequestAuditEntryTable {
  id: Generated<string>;
  request_id: string;
  kind: string;
  ip: string | null;
  user_agent: string;
  referrer: string;
  created_at: ColumnType<Date, never, never>;
}

/** A requester's attachment: like `push_file` (under the request's key id), plus its downloads. */
export interface RequestFileTable {
  id: string;
  request_id: string;
  position: number;
  object_key: string;
  filename_sealed: Buffer;
  content_type: string;
  size: ColumnType<string, number, never>;
  key_sealed: Buffer;
  downloads: Generated<number>;
  created_at: ColumnType<Date, never, never>;
}

/** A one-time code for a listed responder address (`answerable_by` `emails`), only as a hash. */
export interface RequestAnswerCodeTable {
  request_id: string;
  email: string;
  code_hash: Buffer;
  expires_at: Date;
  attempts: Generated<number>;
  used_at: Date | null;
  created_at: ColumnType<Date, never, never>;
}

export type RequestRow = Selectable<RequestTable>;
export type NewRequestRow = Insertable<RequestTable>;
export type RequestAuditEntryRow = Selectable<RequestAuditEntryTable>;
export type RequestFileRow = Selectable<RequestFileTable>;
export type RequestAnswerCodeRow = Selectable<RequestAnswerCodeTable>;
