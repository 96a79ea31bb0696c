import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { DownloadLinkSigner } from '../security/download-link';
import { decryptStream } from '../security/file-cipher';
import type { KeyRing } from '@secret-push/key-ring';
import type { AuditContext } from './push';
import type { FileLink } from './file-link';
import { safeFilename } from './file-names';
import type { FileStore, NewFileRecord, StoredFile } from './ports/file-store';
import type { ObjectStore } from './ports/object-store';
import type { PushStore } from './ports/push-store';

export interface FileServiceDeps {
  files: FileStore;
  pushes: Pick<PushStore, 'recordCappedAudit'>;
  keyRing: KeyRing;
  store: ObjectStore;
  signer: DownloadLinkSigner;
  publicUrl: string;
  graceSeconds: number;
  downloadsPerView: number;
  maxAuditEntries: number;
}

/** An upload about to be streamed: where it goes and the key that encrypts it. */
export interface PreparedUpload {
  fileId: string;
  objectKey: string;
  key: Buffer;
}

/** A file stored in the object store, not yet committed with its push. */
export interface StoredUpload {
  fileId: string;
  objectKey: string;
  filename: string;
  contentType: string;
  size: number;
  key: Buffer;
  /** SHA-256 of the file's bytes, taken while streaming when the create has an Idempotency-Key. */
  sha256?: Buffer;
}

export interface OpenedDownload {
  filename: string;
  contentType: string;
  size: number;
  body: Readable;
}

const fileKeyAad = (fileId: string) => `${fileId}|file_key`;
export const filenameAad = (fileId: string) => `${fileId}|filename`;

/**
 * Files of file pushes: uploads streamed encrypted into the object store with an intent recorded
 * first (so a crash's leftovers can be found and deleted), signed download links bound to a counted view, counted downloads, and
 * purges. Objects are named by random ids only; names and keys are sealed in the database.
 */
export function createFileService(deps: FileServiceDeps) {
  const { files, keyRing, store } = deps;

  return {
    /** Records the upload intent, then hands out where and how to store the file. */
    async prepareUpload(pushId: string): Promise<PreparedUpload> {
      const fileId = randomUUID();
      const objectKey = `files/${pushId}/${fileId}`;
      await files.insertUploadIntent(objectKey, pushId);
      return { fileId, objectKey, key: randomBytes(32) };
    },

    /** The rows of the push's files, sealed under the push's key id. */
    fileRecords(uploads: StoredUpload[], keyId: string): NewFileRecord[] {
      return uploads.map((u, position) => ({
        id: u.fileId,
        position,
        objectKey: u.objectKey,
        filenameSealed: keyRing.seal(u.filename, filenameAad(u.fileId), keyId),
        contentType: u.contentType,
        size: u.size,
        keySealed: keyRing.seal(u.key.toString('base64'), fileKeyAad(u.fileId), keyId),
      }));
    },

    /**
     * Removes what a failed create stored. Best effort: if the store is down now, the intents stay
     * and the sweep deletes the objects later.
     */
    async discard(objectKeys: string[]): Promise<void> {
      if (objectKeys.length === 0) return;
      try {
        await store.delete(objectKeys);
        await files.deleteUploadIntents(objectKeys);
      } catch {
        // left to the sweep (the intents remain)
      }
    },

    /**
     * Download links for the files of a push (as the claiming statement read them), bound to the
     * view that was just counted. Each lives for the grace period, never past the push's window.
     */
    linksForView(
      view: { pushId: string; viewId: string; keyId: string; now: Date; windowEnds: Date },
      rows: StoredFile[],
    ): FileLink[] {
      const { pushId, viewId, keyId } = view;
      const graceEnds = view.now.getTime() + deps.graceSeconds * 1000;
      const expires = Math.floor(Math.min(graceEnds, view.windowEnds.getTime()) / 1000);
      return rows.map((r) => ({
        filename: safeFilename(keyRing.open({ keyId, data: r.filenameSealed }, filenameAad(r.id))),
        content_type: r.contentType,
        size: r.size,
        url: `${deps.publicUrl}/api/v2/files/${r.id}?${deps.signer.sign({ pushId, fileId: r.id, viewId, expires })}`,
      }));
    },

    /**
     * One download through a link: verified, counted (at most `downloadsPerView` per view and
     * file; given back if the store's read does not start), audited `file_download`, then streamed
     * and decrypted from the store. Undefined for
     * any link that is not good now; the caller does not learn why.
     */
    async openDownload(
      fileId: string,
      query: Record<string, unknown>,
      ctx: AuditContext,
    ): Promise<OpenedDownload | undefined> {
      const claim = deps.signer.verify(fileId, query);
      if (!claim) return undefined;
      const grant = await files.claimDownload(claim, deps.downloadsPerView);
      if (!grant) return undefined;
      // Counted first (so concurrent downloads cannot exceed the limit), given back if the
      // object's read does not start: a store outage never spends a download.
      let body: Readable | undefined;
      try {
        body = await store.download(grant.file.objectKey);
        if (body) {
          await deps.pushes.recordCappedAudit(claim.pushId, 'file_download', ctx, deps.maxAuditEntries);
        }
      } catch (err) {
        body?.destroy();
        await files.refundDownload(claim).catch(() => undefined);
        throw err;
      }
      if (!body) {
        await files.refundDownload(claim);
        return undefined;
      }
      const key = Buffer.from(
        keyRing.open({ keyId: grant.keyId, data: grant.file.keySealed }, fileKeyAad(fileId)),
        'base64',
      );
      return {
        filename: safeFilename(
          keyRing.open({ keyId: grant.keyId, data: grant.file.filenameSealed }, filenameAad(fileId)),
        ),
        contentType: grant.file.contentType,
        size: grant.file.size,
        body: body.pipe(decryptStream(key, fileId)).once('error', () => body.destroy()),
      };
    },

    /** DELETE during the grace period: the files become due now; true if a purge should run. */
    releaseNow: (pushId: string) => files.purgeFilesNow(pushId),
  };
}

export type FileService = ReturnType<typeof createFileService>;
