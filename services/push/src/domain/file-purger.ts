import type { FileStore } from './ports/file-store';
import type { ObjectStore } from './ports/object-store';
import type { RequestFileStore } from './ports/request-file-store';

export interface PurgeDueOptions {
  /** Statements that find due pushes, at most; what is left stays for the next call. Default 1000. */
  maxBatches?: number;
  /** Pushes not to try now (their last purge failed; the caller retries them later). */
  exclude?: readonly string[];
  /** Checked before each push: true ends the call early (shutdown). */
  shouldStop?: () => boolean;
}

export interface PurgeDueResult {
  /** Pushes (and requests: their attachments) whose files were purged. */
  purged: number;
  /** Objects deleted for them. */
  objects: number;
  /** The push (or request) whose purge failed, which ended the call (the store is likely down). */
  failed?: { pushId: string; error: Error };
}

/** Who owns purgeable files: file pushes, and requests (the requester's attachments). */
interface PurgeSource {
  due(batch: number, exclude: readonly string[]): Promise<{ id: string; objectKeys: string[] }[]>;
  markPurged(id: string): Promise<void>;
}

/**
 * Deletes the stored files of expired file pushes once they are due (`files_purge_after`, by the
 * database's clock: a time expiry or a DELETE makes them due at once, a last view after the grace
 * period): objects first, then rows, so a purge interrupted half-way is simply run again. No job
 * per push: the worker's tick asks for whatever is due. The requester's attachments of requests
 * are purged the same way once a close made them due (`request.files_purge_after`), after the
 * pushes. Also deletes the objects of uploads a crash left behind (the worker's periodic sweep).
 */
export function createFilePurger(deps: {
  files: FileStore;
  store: ObjectStore;
  /** The requester's attachments of closed requests (absent: pushes only). */
  requestFiles?: Pick<RequestFileStore, 'requestsWithFilesDue' | 'markRequestFilesPurged'>;
}) {
  const { files, store, requestFiles } = deps;
  const sources: PurgeSource[] = [
    {
      due: async (batch, exclude) =>
        (await files.pushesWithFilesDue(batch, exclude)).map((d) => ({
          id: d.pushId,
          objectKeys: d.objectKeys,
        })),
      markPurged: (id) => files.markFilesPurged(id),
    },
    ...(requestFiles
      ? [
          {
            due: async (batch: number, exclude: readonly string[]) =>
              (await requestFiles.requestsWithFilesDue(batch, exclude)).map((d) => ({
                id: d.requestId,
                objectKeys: d.objectKeys,
              })),
            markPurged: (id: string) => requestFiles.markRequestFilesPurged(id),
          },
        ]
      : []),
  ];

  return {
    /**
     * Purges every push whose files are due, `batch` pushes per statement, until a statement finds
     * fewer than `batch`. Stops at the first failure (the object store is likely down: the other
     * pushes would fail the same way, each after the store's deadlines) and says which push failed.
     */
    async purgeDue(batch: number, options: PurgeDueOptions = {}): Promise<PurgeDueResult> {
      const { maxBatches = 1000, exclude = [], shouldStop = () => false } = options;
      const result: PurgeDueResult = { purged: 0, objects: 0 };
      for (const source of sources) {
        for (let i = 0; i < maxBatches && !shouldStop(); i++) {
          const due = await source.due(batch, exclude);
          for (const { id, objectKeys } of due) {
            if (shouldStop()) return result;
            try {
              await store.delete(objectKeys);
              await source.markPurged(id);
            } catch (err) {
              return { ...result, failed: { pushId: id, error: err as Error } };
            }
            result.purged++;
            result.objects += objectKeys.length;
          }
          if (due.length < batch) break;
        }
      }
      return result;
    },

    /**
     * The objects of uploads a crash left behind: stale upload intents are claimed first (a create
     * can no longer use them), then their objects deleted, then they are forgotten; no transaction
     * is open while the object store works. Returns how many objects were deleted.
     */
    sweepStaleUploads: (batch: number, staleUploadSeconds: number): Promise<number> =>
      files.sweepStaleUploadIntents(staleUploadSeconds, batch, (keys) => store.delete(keys)),
  };
}

export type FilePurger = ReturnType<typeof createFilePurger>;
