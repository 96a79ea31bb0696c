/* The file store port: the bookkeeping of a push's stored files (storage/file.repository.ts implements it). */

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
