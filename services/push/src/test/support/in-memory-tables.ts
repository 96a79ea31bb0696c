import type { AuditEntry, Push } from '../../domain/push';
import type { NewFileRecord, StoredFile } from '../../domain/ports/file-store';
import type { NewPushRecord } from '../../domain/ports/push-store';

/*
 * The rows of the in-memory stores (test/support/in-memory-push-store.ts, in-memory-file-store.ts),
 * shared between them as the SQL tables are shared by storage/push.repository.ts and
 * file.repository.ts.
 */

/** A push row (`push`) with its secrets and files (`push_file`). */
export interface Row {
  push: Push;
  tokenHash: string;
  tokenSealed: Buffer;
  keyId: string;
  payloadSealed: Buffer | null;
  noteSealed: Buffer | null;
  passphraseHash: string | null;
  /** Audit entries recorded (the cap counts these). */
  auditEntries: number;
  files: StoredFile[];
  /** The push's objects were deleted and its file rows with them (`files_purged`). */
  filesPurged: boolean;
}

export interface Entry extends AuditEntry {
  id: string;
  pushId: string;
}

/** An upload intent (`upload_intent`): recorded before an object is streamed. */
export interface Intent {
  pushId: string;
  createdAt: Date;
  /** Taken by a sweep: a create can no longer consume it. */
  claimed: boolean;
}

/** The rows the in-memory FileStore shares with this store (as the SQL tables are shared). */
export interface InMemoryTables {
  rows: Map<string, Row>;
  audit: Entry[];
  intents: Map<string, Intent>;
}

/** A new push's row, as the insert writes it at `now` (its window starts then). */
export function newRow(r: NewPushRecord, files: readonly NewFileRecord[], now: Date): Row {
  return {
    push: {
      id: r.id,
      kind: r.kind,
      owner: r.owner,
      name: r.name,
      views: 0,
      expireAfterDays: r.expireAfterDays,
      expireAfterViews: r.expireAfterViews,
      expiresAt: new Date(now.getTime() + r.ttlSeconds * 1000),
      expired: false,
      expiredOn: null,
      deleted: false,
      deletableByViewer: r.deletableByViewer,
      retrievalStep: r.retrievalStep,
      passphraseProtected: r.passphraseHash !== null,
      auditDropped: 0,
      filesPurgeAfter: null,
      noticeOn: r.email?.noticeOn ?? [],
      emailLocale: r.email?.locale ?? null,
      createdAt: now,
      updatedAt: now,
    },
    tokenHash: r.tokenHash.toString('hex'),
    tokenSealed: r.tokenSealed,
    keyId: r.keyId,
    payloadSealed: r.payloadSealed,
    noteSealed: r.noteSealed,
    passphraseHash: r.passphraseHash,
    auditEntries: 0,
    files: [...files]
      .sort((a, b) => a.position - b.position)
      .map(({ id, objectKey, filenameSealed, contentType, size, keySealed }) => ({
        id,
        objectKey,
        filenameSealed,
        contentType,
        size,
        keySealed,
      })),
    filesPurged: false,
  };
}
