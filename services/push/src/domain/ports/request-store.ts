import type { PushSnapshot } from '../push';
import type { NewPushRecord } from './push-store';
import type {
  AnswerLimits,
  AnswerableBy,
  AuditContext,
  RequestAuditEntry,
  RequestAuditKind,
  RequestSnapshot,
  RequestState,
  RequestWindow,
} from '../request';

/*
 * The request store port (storage/request.repository.ts implements it): requests, their audit
 * log, and the answer (the answer push and the request's change in one transaction).
 */

/** A new request as the store inserts it: secrets sealed, the window in seconds from the database's now. */
export interface NewRequestRecord {
  id: string;
  tokenHash: Buffer;
  tokenSealed: Buffer;
  keyId: string;
  owner: string;
  messageSealed: Buffer;
  name: string | null;
  noteSealed: Buffer | null;
  passphraseHash: string | null;
  responseFileAttachments: boolean;
  includeRequestor: boolean;
  requestorEmail: string | null;
  answerableBy: AnswerableBy;
  answerableEmails: string[];
  window: RequestWindow;
  answer: AnswerLimits;
  notifyOwnerOnAnswer: boolean;
  emailLocale: string | null;
  attachmentDownloads: number;
  /**
   * A listener the domain knows of (the owner's notice by email); the statement adds the owner's
   * enabled webhook endpoints that ask for a request event type.
   */
  outbox: boolean;
}

/** A request's sealed secrets, opened by the domain with the key ring. */
export interface RequestSecrets {
  keyId: string;
  tokenSealed: Buffer;
  messageSealed: Buffer;
  noteSealed: Buffer | null;
  passphraseHash: string | null;
}

/** The answer push as the owner's view links it (its own token, sealed). */
export interface AnswerPushRef {
  id: string;
  keyId: string;
  tokenSealed: Buffer;
  retrievalStep: boolean;
  files: number;
}

/** A requester's attachment, as the views list it. */
export interface RequestFileInfo {
  id: string;
  filenameSealed: Buffer;
  keyId: string;
  contentType: string;
  size: number;
  downloads: number;
}

export interface StoredRequest extends RequestSnapshot {
  secrets: RequestSecrets;
  answerPush: AnswerPushRef | null;
}

/**
 * An answer, decided under the request's row lock: `answered` (the push and the request's change
 * committed together), `already_answered`, or `gone` (closed, or past its window).
 */
export type AnswerOutcome =
  | { outcome: 'answered'; snapshot: RequestSnapshot; push: PushSnapshot }
  | { outcome: 'already_answered' }
  | { outcome: 'gone' };

export interface RequestStore {
  insert(record: NewRequestRecord, ctx: AuditContext): Promise<RequestSnapshot>;
  findByTokenHash(tokenHash: Buffer): Promise<StoredRequest | undefined>;
  listOwned(
    owner: string,
    states: readonly RequestState[],
    page: number,
  ): Promise<{ requests: StoredRequest[]; now: Date }>;
  listAuditEntries(requestId: string, page: number): Promise<RequestAuditEntry[]>;
  /** Records an entry unless the request holds `max` (then only counted); `failed_passphrase` always. */
  recordAudit(requestId: string, kind: RequestAuditKind, ctx: AuditContext, max: number): Promise<void>;
  /** Closes an open or answered request (`owner`), audited `close`; undefined when it was closed already. */
  close(requestId: string, ctx: AuditContext): Promise<RequestSnapshot | undefined>;
  /** Stores the answer push (as a push create does) and marks the request answered, atomically. */
  answer(requestId: string, push: NewPushRecord, ctx: AuditContext): Promise<AnswerOutcome>;
  filesOf(requestId: string): Promise<RequestFileInfo[]>;
}
