/* The request file store port: the requester's attachments (storage/request-file.repository.ts). */
import type { StoredFile } from './file-store';

/** A requester's attachment and how many times the responder fetched it. */
export interface RequestAttachment extends StoredFile {
  downloads: number;
}

/**
 * One download of an attachment, counted (or why not): `granted` with what is needed to serve
 * it; `spent` when the file was downloaded as many times as the request allows; `unavailable`
 * when the request is no longer open (answered, closed, or past its window) or the file is not
 * one of its attachments.
 */
export type AttachmentClaim =
  | { outcome: 'granted'; file: StoredFile; keyId: string; downloadsLeft: number }
  | { outcome: 'spent' }
  | { outcome: 'unavailable' };

export interface RequestFileStore {
  /** The request's attachments, in the order they were sent. */
  listAttachments(requestId: string): Promise<RequestAttachment[]>;
  /**
   * Counts one download of `fileId` if it is an attachment of `requestId`, the request is open
   * and inside its window (the database's clock), and the file has downloads left: one statement,
   * so that concurrent downloads never exceed the limit.
   */
  claimAttachmentDownload(requestId: string, fileId: string): Promise<AttachmentClaim>;
  /** Gives back a counted download that could not be served (the object store failed). */
  refundAttachmentDownload(requestId: string, fileId: string): Promise<void>;
  /** A close: the request's attachments are due for purging now; true if that changed anything. */
  releaseFilesNow(requestId: string): Promise<boolean>;
  /** Up to `batch` requests whose attachments are due, oldest first, with their object keys. */
  requestsWithFilesDue(
    batch: number,
    exclude?: readonly string[],
  ): Promise<{ requestId: string; objectKeys: string[] }[]>;
  /** After a request's objects are deleted: its file rows go and it is marked purged. */
  markRequestFilesPurged(requestId: string): Promise<void>;
}
