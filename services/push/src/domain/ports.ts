import type { Readable } from 'node:stream';
import type { AuditContext, AuditEntry, AuditKind, PushKind, PushSnapshot } from './push';
import type { CheckedTokenSettings, PersonalToken, User, UserIdentity, UserSummary } from './user';

/*
 * What the domain needs from the outside world, in its own terms. storage/ (PostgreSQL) and files/
 * (the object store) implement these; the composition roots (server.ts, worker-server.ts) wire
 * them. Nothing here knows a column, a bucket or a queue.
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
}

/** A file of a new push, sealed under the push's key id. */
export interface NewFileRecord {
  id: string;
  position: number;
  objectKey: string;
  filenameSealed: Buffer;
  contentType: string;
  size: number;
  keySealed: Buffer;
}

/** A stored file of a push. */
export interface StoredFile {
  id: string;
  objectKey: string;
  filenameSealed: Buffer;
  contentType: string;
  size: number;
  keySealed: Buffer;
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
  /**
   * Claim a view, or explain and audit the refusal; undefined for an unknown token. One statement,
   * or two when `likelyViewable` and the view is refused.
   */
  visit(request: VisitRequest): Promise<Visit | undefined>;
  /**
   * Undoes a counted view that was not delivered (see storage/push.repository.ts `refundView`);
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

/** A download counted under a view: the file and the push's key id. */
export interface DownloadGrant {
  file: StoredFile;
  keyId: string;
  downloads: number;
}

/** The bookkeeping of stored files (storage/file.repository.ts). */
export interface FileStore {
  /** Recorded before an object is streamed, so a crash's leftovers can be found. */
  insertUploadIntent(objectKey: string, pushId: string): Promise<void>;
  deleteUploadIntents(objectKeys: string[]): Promise<void>;
  listFiles(pushId: string): Promise<StoredFile[]>;
  /** Counts one download under a view if allowed now; undefined otherwise. */
  claimDownload(
    link: { pushId: string; fileId: string; viewId: string },
    max: number,
  ): Promise<DownloadGrant | undefined>;
  /** Gives back a download that was counted but could not be served (the object store failed). */
  refundDownload(link: { fileId: string; viewId: string }): Promise<void>;
  /** DELETE during the grace period: the files become due now; true if that changed anything. */
  purgeFilesNow(pushId: string): Promise<boolean>;
  /** After a push's objects are deleted: its file rows go and it is marked purged. */
  markFilesPurged(pushId: string): Promise<void>;
  /** Up to `batch` pushes whose files are due now, oldest first, with their object keys; skips `exclude`. */
  pushesWithFilesDue(
    batch: number,
    exclude?: readonly string[],
  ): Promise<{ pushId: string; objectKeys: string[] }[]>;
  /** Hands stale upload intents to `deleteObjects`, then forgets them (kept if it throws). */
  sweepStaleUploadIntents(
    olderThanSeconds: number,
    batch: number,
    deleteObjects: (objectKeys: string[]) => Promise<void>,
  ): Promise<number>;
}

/** The object store as the files feature needs it; any S3-compatible server (files/object-store.ts). */
export interface ObjectStore {
  /** Streams `body` into `key` (multipart for large bodies); `abort()` stops it and drops its parts. */
  upload(key: string, body: Readable): { done: Promise<void>; abort(): Promise<void> };
  /** The object's bytes as a stream; undefined if there is no such object. */
  download(key: string): Promise<Readable | undefined>;
  /** Deletes the objects; objects already gone are fine (purges are idempotent). */
  delete(keys: string[]): Promise<void>;
  /** Throws unless the bucket is reachable (readiness). */
  check(): Promise<void>;
  close(): void;
}

/** Counts passphrase attempts before they are verified; throws TooManyAttempts or DependencyDown. */
export interface AttemptLimiter {
  consume(pushKey: string, ip: string | null): Promise<void>;
}

/** A push as retrieved: its download links (file pushes), as the API and the pages present them. */
export interface FileLink {
  filename: string;
  content_type: string;
  size: number;
  url: string;
}

/** A token found by its hash, with its user and the database's clock at the time of the read. */
export interface TokenLookup {
  user: User;
  token: PersonalToken;
  now: Date;
}

/**
 * Users and their personal tokens (storage/user.repository.ts). Token statements take the user id
 * with the token id: a token of another user is never found, changed or deleted.
 */
export interface UserStore {
  /** Inserts the user, or updates the email, its verification and `lastSeenAt` of the one with that (issuer, subject). */
  upsertUser(identity: UserIdentity): Promise<User>;
  findUser(userId: string): Promise<User | undefined>;
  /** Users whose email is `email`, whatever its case (several issuers may share one address). */
  findUsersByEmail(email: string): Promise<User[]>;
  listUsers(): Promise<UserSummary[]>;
  /**
   * Disables the user and deletes all of its tokens in one transaction; an already disabled user
   * keeps its first `disabledAt`. Undefined for an unknown user.
   */
  disableUser(userId: string): Promise<{ user: User; tokensRevoked: number } | undefined>;
  enableUser(userId: string): Promise<User | undefined>;
  /** Deletes the user and (cascading) its tokens; false for an unknown user. */
  deleteUser(userId: string): Promise<boolean>;
  /**
   * Inserts a token for a user that exists and is not disabled (checked under a lock that a
   * concurrent disable waits for); `undefined` otherwise. A name the user already uses, or an
   * expiry not after the database's now, throws UserInputRejected.
   */
  insertToken(
    userId: string,
    settings: CheckedTokenSettings,
    tokenHash: Buffer,
  ): Promise<PersonalToken | undefined>;
  listTokens(userId: string): Promise<PersonalToken[]>;
  /** Replaces the token's hash (the old value stops working); undefined if the user has no such token. */
  replaceTokenHash(userId: string, tokenId: string, tokenHash: Buffer): Promise<PersonalToken | undefined>;
  /** False if the user has no such token. */
  deleteToken(userId: string, tokenId: string): Promise<boolean>;
  findByTokenHash(tokenHash: Buffer): Promise<TokenLookup | undefined>;
  /** Sets `lastUsedAt` to now unless it was set within the last resolution period (any replica). */
  touchToken(tokenId: string, resolutionSeconds: number): Promise<void>;
}
