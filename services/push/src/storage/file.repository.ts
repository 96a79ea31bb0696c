import { type Kysely, sql } from 'kysely';
import type { DownloadGrant, FileStore, StoredFile } from '../domain/ports/file-store';
import type { PushDatabase } from './database';
import { filesDue, markFilesPurged } from './files-purge.sql';
import type { PushFileRow } from './push.table';
import { filesDownloadable } from './view-rule.sql';

type Db = Kysely<PushDatabase>;

const toFile = (r: PushFileRow): StoredFile => ({
  id: r.id,
  objectKey: r.object_key,
  filenameSealed: r.filename_sealed,
  contentType: r.content_type,
  size: Number(r.size),
  keySealed: r.key_sealed,
});

async function listFiles(db: Db, pushId: string): Promise<StoredFile[]> {
  const rows = await db
    .selectFrom('push_file')
    .selectAll()
    .where('push_id', '=', pushId)
    .orderBy('position')
    .execute();
  return rows.map(toFile);
}

/**
 * Counts one download of `fileId` under the view `viewId`, in one statement, only if the file
 * belongs to the push, the view is a counted view of that push, the files are downloadable now
 * (filesDownloadable, by the database's clock) and fewer than `max` downloads were made under
 * this view. Concurrent downloads serialize on the counter row: at most `max` ever succeed.
 */
async function claimDownload(
  db: Db,
  link: { pushId: string; fileId: string; viewId: string },
  max: number,
): Promise<DownloadGrant | undefined> {
  const { rows } = await sql<PushFileRow & { key_id: string; downloads: number }>`
    with f as (
      select pf.*, p.key_id from push_file pf
      join push p on p.id = pf.push_id
      join audit_entry v on v.id = ${link.viewId} and v.push_id = p.id and v.kind = 'view'
      where pf.id = ${link.fileId} and pf.push_id = ${link.pushId} and ${filesDownloadable()}
    ), c as (
      insert into file_download (view_id, file_id, downloads)
      select ${link.viewId}, id, 1 from f
      on conflict (view_id, file_id) do update set downloads = file_download.downloads + 1
      where file_download.downloads < ${max}
      returning downloads
    )
    select f.*, c.downloads from f cross join c`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const { key_id, downloads, ...file } = row;
  return { file: toFile(file), keyId: key_id, downloads };
}

/** DELETE during the grace period: the files become due now. True if that changed anything. */
async function purgeFilesNow(db: Db, pushId: string): Promise<boolean> {
  const r = await db
    .updateTable('push')
    .set({ files_purge_after: sql<Date>`now()` })
    .where('id', '=', pushId)
    .where('expired', '=', true)
    .where('files_purged', '=', false)
    .where(sql<boolean>`files_purge_after > now()`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** How long a sweep owns the intents it claimed before another sweep may take them over. */
const CLAIM_LEASE_SECONDS = 600;

/**
 * Hands up to `batch` stale upload intents (older than `olderThanSeconds`: a crash's leftovers) to
 * `deleteObjects`, oldest first, then forgets them. No transaction is open while the objects are
 * deleted (migration 2026_11_24_0001):
 * 1. claim, in one statement of its own: the intents get `claimed_at` (for good) and a lease
 *    (`SKIP LOCKED` and the lease let several sweepers share the work; a create holding an intent
 *    in its transaction is skipped). From then on a create cannot consume them: it fails with
 *    UploadIntentLost instead of committing a push whose objects are being deleted;
 * 2. delete the objects (the object store, with its own deadlines);
 * 3. forget the intents, in a short transaction.
 * If deleting the objects fails, the lease is released and the claimed intents stay for the next
 * sweep (the claim is kept, so they stay unusable); if the sweeper dies, another one takes them
 * over when the lease ends. Intents claimed earlier are retried whatever their age.
 */
async function sweepStaleUploadIntents(
  db: Db,
  olderThanSeconds: number,
  batch: number,
  deleteObjects: (objectKeys: string[]) => Promise<void>,
): Promise<number> {
  const { rows } = await sql<{ object_key: string }>`
    with claimed as (
      update upload_intent set claimed_at = coalesce(claimed_at, now()),
                               lease_until = now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})
      where object_key in (
        select object_key from upload_intent
        where (claimed_at is not null or created_at < now() - make_interval(secs => ${olderThanSeconds}))
          and (lease_until is null or lease_until < now())
        order by created_at limit ${batch} for update skip locked)
      returning object_key, created_at
    )
    select object_key from claimed order by created_at, object_key`.execute(db);
  const keys = rows.map((r) => r.object_key);
  if (keys.length === 0) return 0;
  try {
    await deleteObjects(keys);
  } catch (err) {
    // Best effort: if this fails too, the lease ends by itself.
    await sql`update upload_intent set lease_until = null where object_key = any(${keys})`
      .execute(db)
      .catch(() => {});
    throw err;
  }
  await db.transaction().execute(async (trx) => {
    await sql`update upload_intent set objects_deleted = true where object_key = any(${keys})`.execute(trx);
    await sql`delete from upload_intent where object_key = any(${keys})`.execute(trx);
  });
  return keys.length;
}

/** The domain's FileStore over PostgreSQL. */
export function createFileRepository(db: Db): FileStore {
  return {
    async insertUploadIntent(objectKey, pushId) {
      await db.insertInto('upload_intent').values({ object_key: objectKey, push_id: pushId }).execute();
    },
    async deleteUploadIntents(objectKeys) {
      if (objectKeys.length === 0) return;
      await db.deleteFrom('upload_intent').where('object_key', 'in', objectKeys).execute();
    },
    listFiles: (pushId) => listFiles(db, pushId),
    claimDownload: (link, max) => claimDownload(db, link, max),
    async refundDownload(link) {
      await db
        .updateTable('file_download')
        .set((eb) => ({ downloads: eb('downloads', '-', 1) }))
        .where('view_id', '=', link.viewId)
        .where('file_id', '=', link.fileId)
        .where('downloads', '>', 0)
        .execute();
    },
    purgeFilesNow: (pushId) => purgeFilesNow(db, pushId),
    markFilesPurged: (pushId) => markFilesPurged(db, 'push', pushId),
    pushesWithFilesDue: async (batch, exclude = []) =>
      (await filesDue(db, 'push', batch, exclude)).map((d) => ({ pushId: d.id, objectKeys: d.objectKeys })),
    sweepStaleUploadIntents: (olderThan, batch, deleteObjects) =>
      sweepStaleUploadIntents(db, olderThan, batch, deleteObjects),
  };
}
