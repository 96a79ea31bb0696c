import type { Readable } from 'node:stream';
import type { KeyRing } from '@secret-push/key-ring';
import { decryptStream } from '../security/file-cipher';
import {
  type FileService,
  type OpenedDownload,
  type StoredUpload,
  fileKeyAad,
  filenameAad,
} from './file-service';
import { safeFilename } from './file-names';
import type { NewFileRecord } from './ports/file-store';
import type { ObjectStore } from './ports/object-store';
import type { RequestFileStore } from './ports/request-file-store';
import type { AuditContext } from './push';

export interface RequestFilesDeps {
  requestFiles: RequestFileStore;
  /** Sealing of file names and keys, and the upload clean-up: the push files' service. */
  files: Pick<FileService, 'fileRecords'>;
  keyRing: KeyRing;
  store: ObjectStore;
  /** Records an `attachment_download` entry in the request's audit log (capped like the push's). */
  audit(requestId: string, ctx: AuditContext): Promise<void>;
}

/** The request an attachment download is about, as the responder's lookup found it. */
export interface AttachmentRequest {
  id: string;
  keyId: string;
}

/** An attachment download: served, spent (410), or not available (404, whatever the reason). */
export type AttachmentDownload =
  | ({ outcome: 'opened'; downloadsLeft: number } & OpenedDownload)
  | { outcome: 'spent' }
  | { outcome: 'unavailable' };

/**
 * The requester's attachments (issue 28): stored like a push's files (streamed, encrypted with a
 * key of their own, name and key sealed under the request's key id; the request service lists
 * them in its views), downloaded by the responder a stated number of times (counted atomically, given back if
 * the store's read does not start), and purged when the request closes.
 */
export function createRequestFiles(deps: RequestFilesDeps) {
  const { requestFiles, keyRing, store } = deps;
  const nameOf = (keyId: string, fileId: string, sealed: Buffer) =>
    safeFilename(keyRing.open({ keyId, data: sealed }, filenameAad(fileId)));

  return {
    /** The rows of a new request's attachments, sealed under its key id (in the request's insert). */
    attachmentRecords: (uploads: StoredUpload[], keyId: string): NewFileRecord[] =>
      deps.files.fileRecords(uploads, keyId),

    /**
     * One download by the responder: counted first (so concurrent downloads cannot exceed the
     * limit), audited `attachment_download`, then streamed and decrypted from the store. A read
     * that does not start (the store is down, the object is gone) gives the download back.
     */
    async openAttachment(
      request: AttachmentRequest,
      fileId: string,
      ctx: AuditContext,
    ): Promise<AttachmentDownload> {
      const claim = await requestFiles.claimAttachmentDownload(request.id, fileId);
      if (claim.outcome !== 'granted') return claim;
      let body: Readable | undefined;
      try {
        body = await store.download(claim.file.objectKey);
        if (body) await deps.audit(request.id, ctx);
      } catch (err) {
        body?.destroy();
        await requestFiles.refundAttachmentDownload(request.id, fileId).catch(() => undefined);
        throw err;
      }
      if (!body) {
        await requestFiles.refundAttachmentDownload(request.id, fileId);
        return { outcome: 'unavailable' };
      }
      const { file, keyId } = claim;
      const key = Buffer.from(keyRing.open({ keyId, data: file.keySealed }, fileKeyAad(file.id)), 'base64');
      const source = body;
      return {
        outcome: 'opened',
        downloadsLeft: claim.downloadsLeft,
        filename: nameOf(keyId, file.id, file.filenameSealed),
        contentType: file.contentType,
        size: file.size,
        body: source.pipe(decryptStream(key, file.id)).once('error', () => source.destroy()),
      };
    },

    /**
     * After a close (whose statement made the attachments due: `files_purge_after`): purges them
     * at once, objects then rows. If the store fails now they stay due, and the worker's purge pass
     * (the file purger) deletes them. Never throws: the close has happened whatever the purge does.
     */
    async purgeOnClose(requestId: string): Promise<void> {
      try {
        const rows = await requestFiles.listAttachments(requestId);
        if (rows.length === 0) return;
        await store.delete(rows.map((r) => r.objectKey));
        await requestFiles.markRequestFilesPurged(requestId);
      } catch {
        // left to the worker's purge pass
      }
    },
  };
}

export type RequestFiles = ReturnType<typeof createRequestFiles>;
