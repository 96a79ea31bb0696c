import type { AuditContext, AuditEntry, AuditKind, PushKind, PushSnapshot } from '../push';
import type { NewPushEmail } from './email-store';
import type { NewFileRecord, StoredFile } from './file-store';

/*
 * The push store port: what the domain needs from the database for pushes and their audit log,
 * in its own terms (storage/push.repository.ts implements it over storage/push/; the composition roots wire it).
 */

/** The sealed secrets a view may wipe (the last one does). */
export interface ViewedSecrets {
  payloadSealed: Buffer | null;
  noteSealed: Buffer | null;
  passphraseHash: string | null;
}

/** A push's sealed secrets, as stored: opened by the domain with the key ring (`keyId`). */
export interface PushSecrets {
  keyId: string;
  tokenSealed: Buffer;
  noteSealed: Buffer | null;
  passphraseHash: string | null;
}

/** A push as read, with its sealed secrets. */
export interface StoredPush extends PushSnapshot {
  secrets: PushSecrets;
}

/** A new push as the store inserts it: secrets already sealed, the window in seconds from the database's now. */
export interface NewPushRecord {
  id: string;
  tokenHash: Buffer;
  tokenSealed: Buffer;
  keyId: string;
  kind: PushKind;
  owner: string | null;
  name: string | null;
  payloadSealed: Buffer | null;
  noteSealed: Buffer | null;
  passphraseHash: string | null;
  expireAfterDays: number;
  expireAfterViews: number;
  ttlSeconds: number;
  deletableByViewer: boolean | null;
  retrievalStep: boolean;
  /**
   * A create that involves email (recipients, owner notices): written with the push in one
   * transaction (the push's notices and locale, the `creation_email_send` entry, its batch and
   * queued emails; EmailDailyLimitReached rolls it all back). Absent: the push alone, as ever.
   */
  email?: NewPushEmail;
  /** Its audited changes also yield outbox events (domain/outbox.ts). */
  outbox: boolean;
}

/**
 * What a visit to a push did, decided in one statement under the row's lock:
 * - `viewed`: a view was counted (and, if it was the last, the push expired and its secrets were
 *   wiped); the payload is the one sealed before the wipe;
 * - `refused`: no view; `reason` says why (`expired`: not viewable, expired by time now if its
 *   window had passed; `passphrase`: a passphrase is needed and was not verified); the refusal
 *   was audited (`failed_view` / `failed_passphrase`, within the audit cap);
 * - `opened`: a recipient page was opened (no view; audited `link_opened`).
 * `expiredByTime`: this visit found the push past its window and expired it (`expire_by_time`).
 */
export type Visit =
  | {
      outcome: 'viewed';
      snapshot: PushSnapshot;
      payloadSealed: Buffer | null;
      keyId: string;
      viewId: string;
      /** A file push's files, read by the claiming statement itself. */
      files: StoredFile[];
      /** The secrets as they were before this view (a last view wipes them): what a refund restores. */
      before: ViewedSecrets;
    }
  | { outcome: 'refused'; reason: 'expired' | 'passphrase'; snapshot: PushSnapshot; expiredByTime: boolean }
  | { outcome: 'opened'; snapshot: PushSnapshot; expiredByTime: boolean };

export interface VisitRequest {
  tokenHash: Buffer;
  ctx: AuditContext;
  /** `view` claims a view when the rule allows it; `open` never does. */
  mode: 'view' | 'open';
  passphraseVerified: boolean;
  /**
   * The caller expects the view to be granted (no passphrase involved): the store may try a leaner
   * claim first and explain a miss with a second statement. False: one statement whatever happens.
   */
  likelyViewable: boolean;
  /** A file push's files stay downloadable this long after its last view. */
  fileGraceSeconds: number;
  maxAuditEntries: number;
}

/** A create's Idempotency-Key as stored: only hashes (domain/idempotency.ts). */
export interface IdempotencyRecord {
  scope: string;
  keyHash: Buffer;
  requestHash: Buffer;
  /** A key older than this is forgotten: the next create with it makes a new push. */
  ttlSeconds: number;
}

/**
 * What a keyed insert did: `created` the push (its key committed with it), or found the key taken
 * by a create that committed (`existing`: that create's fingerprint and its push as it is now).
 */
export type KeyedInsert =
  | { outcome: 'created'; snapshot: PushSnapshot }
  | { outcome: 'existing'; requestHash: Buffer; push: StoredPush | undefined };

/** The pushes and their audit log (storage/push.repository.ts). */
export interface PushStore {
  insert(record: NewPushRecord, ctx: AuditContext, files?: NewFileRecord[]): Promise<PushSnapshot>;
  /**
   * `insert` under an Idempotency-Key, in one transaction with the key's row. A create that holds
   * the same key and has not committed yet is waited for: if it commits, its push is returned
   * (`existing`) and nothing is inserted; if it fails, this one goes ahead.
   */
  insertOnce(
    record: NewPushRecord,
    ctx: AuditContext,
    key: IdempotencyRecord,
    files?: NewFileRecord[],
  ): Promise<KeyedInsert>;
  findByTokenHash(tokenHash: Buffer): Promise<StoredPush | undefined>;
  /** Gives an anonymous push without one its receipt (by hash); false when it has one or has an owner. */
  setReceipt(pushId: string, receiptHash: Buffer): Promise<boolean>;
  /** The push of a receipt (by its hash), with the database's clock. */
  findByReceiptHash(receiptHash: Buffer): Promise<StoredPush | undefined>;
  /** Expired through its receipt: as expireManually, audited `expire_by_receipt`. */
  expireByReceipt(pushId: string, ctx: AuditContext): Promise<PushSnapshot | undefined>;
  /**
   * The push a keyed create made, if its key (scope and hash) was taken less than `withinSeconds`
   * ago; undefined otherwise (or when the push is gone). One statement.
   */
  findByIdempotencyKey(
    key: { scope: string; keyHash: Buffer },
    withinSeconds: number,
  ): Promise<StoredPush | undefined>;
  /**
   * Claim a view, or explain and audit the refusal; undefined for an unknown token. One statement,
   * or two when `likelyViewable` and the view is refused.
   */
  visit(request: VisitRequest): Promise<Visit | undefined>;
  /**
   * Undoes a counted view that was not delivered (see storage/push/refund.ts);
   * false when there was nothing to undo.
   */
  refundView(view: { pushId: string; viewId: string; before: ViewedSecrets }): Promise<boolean>;
  /** Expires the push if its window has passed (audited `expire_by_time`); undefined otherwise. */
  expireIfPastWindow(pushId: string): Promise<PushSnapshot | undefined>;
  /** Expires up to `batchSize` pushes past their window, skipping locked rows. */
  expireDueBatch(batchSize: number): Promise<PushSnapshot[]>;
  /** Active pushes past their window (what the next tick will expire), counted up to `limit`. */
  countDue(limit: number): Promise<number>;
  /** DELETE: expired and deleted, secrets wiped, audited `expire`; undefined if already expired. */
  expireManually(pushId: string, ctx: AuditContext): Promise<PushSnapshot | undefined>;
  /**
   * Every active push of `owner` expired and deleted now (audited `expire`), and the files of its
   * expired file pushes released for purging now; returns those it expired.
   */
  expireAllOwned(owner: string, ctx: AuditContext): Promise<PushSnapshot[]>;
  /** A noise entry (failed_view, failed_passphrase, link_opened, file_download) within the cap. */
  recordCappedAudit(pushId: string, kind: AuditKind, ctx: AuditContext, max: number): Promise<void>;
  listOwned(
    owner: string,
    state: 'active' | 'expired',
    page: number,
  ): Promise<{ pushes: StoredPush[]; now: Date }>;
  listAuditEntries(pushId: string, page: number): Promise<AuditEntry[]>;
}
