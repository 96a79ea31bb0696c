import type { FileStore, ObjectStore } from './ports';

export type PurgeOutcome =
  { outcome: 'purged'; objects: number } | { outcome: 'nothing' } | { outcome: 'later'; ms: number };

/**
 * Deletes the stored files of expired file pushes once they are due (`files_purge_after`, by the
 * database's clock): objects first, then rows, so a purge interrupted half-way is simply run again.
 * Used by the worker's purge jobs and by its sweep.
 */
export function createFilePurger(deps: { files: FileStore; store: ObjectStore }) {
  const { files, store } = deps;

  async function purgeIfDue(pushId: string): Promise<PurgeOutcome> {
    const state = await files.purgeState(pushId);
    if (state.state === 'none') return { outcome: 'nothing' };
    if (state.state === 'later') return { outcome: 'later', ms: state.ms };
    await store.delete(state.objectKeys);
    await files.markFilesPurged(pushId);
    return { outcome: 'purged', objects: state.objectKeys.length };
  }

  return {
    purgeIfDue,

    /**
     * The sweep's part: purges whose jobs were lost, and the objects of uploads a crash left
     * behind. Neither holds a transaction while the object store works: a purge reads its keys,
     * deletes the objects, then marks the push; stale upload intents are claimed first (a create
     * can no longer use them), then their objects deleted, then they are forgotten.
     */
    async sweep(
      batch: number,
      staleUploadSeconds: number,
    ): Promise<{ purged: number; staleObjects: number }> {
      let purged = 0;
      for (const pushId of await files.pushesWithFilesDue(batch)) {
        if ((await purgeIfDue(pushId)).outcome === 'purged') purged++;
      }
      const staleObjects = await files.sweepStaleUploadIntents(staleUploadSeconds, batch, (keys) =>
        store.delete(keys),
      );
      return { purged, staleObjects };
    },
  };
}

export type FilePurger = ReturnType<typeof createFilePurger>;
