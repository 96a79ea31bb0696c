import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/**
 * One push. Secrets are sealed with the key ring (`key_id`), bound to the row id and column:
 * the url_token only as SHA-256 (lookup) plus a sealed copy (owner lists), payload and note sealed,
 * the passphrase as a slow hash. Expiry wipes payload, note and passphrase hash in the same statement.
 */
export interface PushTable {
  id: string;
  token_hash: Buffer;
  token_sealed: Buffer;
  /** An anonymous push's receipt (its private status link), as SHA-256; null for most. */
  receipt_hash: Buffer | null;
  key_id: string;
  kind: string;
  owner: string | null;
  name: string | null;
  payload_sealed: Buffer | null;
  note_sealed: Buffer | null;
  passphrase_hash: string | null;
  passphrase_protected: boolean;
  expire_after_days: number;
  expire_after_views: number;
  views: Generated<number>;
  expires_at: ColumnType<Date, never, never>;
  deletable_by_viewer: boolean | null;
  retrieval_step: boolean;
  expired: Generated<boolean>;
  expired_on: Date | null;
  deleted: Generated<boolean>;
  audit_entries: Generated<number>;
  audit_dropped: Generated<number>;
  /** When the push's files are due for purging (a file push that expired; after the grace period for its last view). */
  files_purge_after: Date | null;
  files_purged: Generated<boolean>;
  /** Owner notices (`view`, `failed_passphrase`, `expired_unseen`): set by a create with email. */
  notify_owner_on: Generated<string[]>;
  email_locale: string | null;
  /** Its audited changes also yield outbox events (`push_event`): somebody listens to this push. */
  outbox: Generated<boolean>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

/** An outbox event (see its migration): the stable id, and the audit entry it came with. */
export interface PushEventTable {
  id: Generated<string>;
  seq: ColumnType<string, never, never>;
  /** Null for an event about a request (`request_id`): exactly one of the two is set. */
  push_id: string | null;
  request_id: string | null;
  kind: string;
  audit_id: string | null;
  /** `email_failed`: the push_email row that failed for good. */
  email_id: string | null;
  created_at: ColumnType<Date, never, never>;
}

export interface AuditEntryTable {
  id: Generated<string>;
  push_id: string;
  kind: string;
  ip: string | null;
  user_agent: string;
  referrer: string;
  created_at: ColumnType<Date, never, never>;
}

/** A stored file: the object holds it encrypted under its own key (`key_sealed`, by the push's key id). */
export interface PushFileTable {
  id: string;
  push_id: string;
  position: number;
  object_key: string;
  filename_sealed: Buffer;
  content_type: string;
  size: ColumnType<string, number, never>;
  key_sealed: Buffer;
  created_at: ColumnType<Date, never, never>;
}

/** Written before an object is streamed, deleted with the commit of its push: leftovers are a crash's. */
export interface UploadIntentTable {
  object_key: string;
  push_id: string;
  created_at: ColumnType<Date, never, never>;
}

export interface FileDownloadTable {
  view_id: string;
  file_id: string;
  downloads: number;
}

export type PushRow = Selectable<PushTable>;
export type PushFileRow = Selectable<PushFileTable>;
export type NewPushRow = Omit<Insertable<PushTable>, 'expires_at'>;
export type AuditEntryRow = Selectable<AuditEntryTable>;

/** A create's Idempotency-Key, only as hashes, with the push it made (see its migration). */
export interface IdempotencyKeyTable {
  scope: string;
  key_hash: Buffer;
  request_hash: Buffer;
  push_id: string;
  /** Set again when an expired key is taken over. */
  created_at: ColumnType<Date, never, Date>;
}
