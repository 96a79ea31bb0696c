/* eslint-disable @typescript-eslint/require-await -- an in-memory port answers at once; `async` keeps a throw a rejection, as with the real stores. */
import type { FileStore } from '../../domain/ports/file-store';
import type { TestClock } from './in-memory-clock';
import type { InMemoryTables } from './in-memory-tables';

/*
 * The FileStore port in memory, over the tables of the in-memory PushStore (as file.repository.ts
 * shares the database with push.repository.ts), with the rules of its statements: a download is
 * counted only under a view that was counted (not refunded) while the files are downloadable
 * (storage/view-rule.sql.ts `filesDownloadable`), at most `max` per view and file; files become due
 * at `filesPurgeAfter`; stale upload intents are claimed, handed over, then forgotten.
 */
export function createInMemoryFileStore(clock: TestClock, tables: InMemoryTables): FileStore {
  const { rows, audit, intents } = tables;
  /** Downloads per view and file (`file_download`). */
  const downloads = new Map<string, number>();
  const counter = (viewId: string, fileId: string) => `${viewId}|${fileId}`;

  const downloadable = (pushId: string, now: Date) => {
    const row = rows.get(pushId);
    if (!row || row.filesPurged) return false;
    const p = row.push;
    const inWindow = !p.expired && now < p.expiresAt;
    return inWindow || (p.filesPurgeAfter !== null && p.filesPurgeAfter > now);
  };

  return {
    async insertUploadIntent(objectKey, pushId) {
      intents.set(objectKey, { pushId, createdAt: clock.now(), claimed: false });
    },
    async deleteUploadIntents(objectKeys) {
      for (const k of objectKeys) intents.delete(k);
    },
    async listFiles(pushId) {
      return (rows.get(pushId)?.files ?? []).map((f) => ({ ...f }));
    },
    async claimDownload(link, max) {
      const row = rows.get(link.pushId);
      const file = row?.files.find((f) => f.id === link.fileId);
      const view = audit.find((e) => e.id === link.viewId && e.pushId === link.pushId && e.kind === 'view');
      if (!row || !file || !view || !downloadable(link.pushId, clock.now())) return undefined;
      const key = counter(link.viewId, link.fileId);
      const n = downloads.get(key) ?? 0;
      if (n >= max) return undefined;
      downloads.set(key, n + 1);
      return { file: { ...file }, keyId: row.keyId, downloads: n + 1 };
    },
    async refundDownload(link) {
      const key = counter(link.viewId, link.fileId);
      const n = downloads.get(key) ?? 0;
      if (n > 0) downloads.set(key, n - 1);
    },
    async purgeFilesNow(pushId) {
      const row = rows.get(pushId);
      const now = clock.now();
      const p = row?.push;
      if (
        !row ||
        !p ||
        !p.expired ||
        row.filesPurged ||
        !(p.filesPurgeAfter !== null && p.filesPurgeAfter > now)
      ) {
        return false;
      }
      p.filesPurgeAfter = now;
      return true;
    },
    async markFilesPurged(pushId) {
      const row = rows.get(pushId);
      if (!row) return;
      for (const f of row.files) {
        for (const k of [...downloads.keys()]) if (k.endsWith(`|${f.id}`)) downloads.delete(k);
      }
      row.files = [];
      row.filesPurged = true;
    },
    async pushesWithFilesDue(batch, exclude = []) {
      const now = clock.now();
      return [...rows.values()]
        .filter(
          (r) =>
            !r.filesPurged &&
            r.push.filesPurgeAfter !== null &&
            r.push.filesPurgeAfter <= now &&
            !exclude.includes(r.push.id),
        )
        .sort(
          (a, b) =>
            a.push.filesPurgeAfter!.getTime() - b.push.filesPurgeAfter!.getTime() ||
            (a.push.id < b.push.id ? -1 : 1),
        )
        .slice(0, batch)
        .map((r) => ({ pushId: r.push.id, objectKeys: r.files.map((f) => f.objectKey) }));
    },
    async sweepStaleUploadIntents(olderThanSeconds, batch, deleteObjects) {
      const cutoff = clock.now().getTime() - olderThanSeconds * 1000;
      const stale = [...intents.entries()]
        .filter(([, i]) => i.claimed || i.createdAt.getTime() < cutoff)
        .sort(([ka, a], [kb, b]) => a.createdAt.getTime() - b.createdAt.getTime() || (ka < kb ? -1 : 1))
        .slice(0, batch);
      // Claimed for good: a create can no longer consume them, even if deleting the objects fails.
      for (const [, i] of stale) i.claimed = true;
      const keys = stale.map(([k]) => k);
      if (keys.length === 0) return 0;
      await deleteObjects(keys);
      for (const k of keys) intents.delete(k);
      return keys.length;
    },
  };
}
