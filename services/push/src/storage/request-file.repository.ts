import { type Kysely, sql } from 'kysely';
import { UploadIntentLost } from '../domain/errors';
import type { NewFileRecord, StoredFile } from '../domain/ports/file-store';
import type {
  AttachmentClaim,
  RequestAttachment,
  RequestFileStore,
} from '../domain/ports/request-file-store';
import type { PushDatabase } from './database';
import { filesDue, markFilesPurged } from './files-purge.sql';
import type { RequestFileRow } from './request.table';

type Db = Kysely<PushDatabase>;

const toFile = (
  r: Omit<RequestFileRow, 'downloads' | 'created_at' | 'request_id' | 'position'>,
): StoredFile => ({
  id: r.id,
  objectKey: r.object_key,
  filenameSealed: r.filename_sealed,
  contentType: r.content_type,
  size: Number(r.size),
  keySealed: r.key_sealed,
});

/**
 * The requester's attachments of a new request, in the transaction that inserts the request: the
 * file rows, and their upload intents consumed. If the stale-upload sweep took one (an upload that
 * outlived the stale limit), nothing commits (UploadIntentLost), as for a file push.
 */
export async function insertRequestFiles(trx: Db, requestId: string, files: NewFileRecord[]): Promise<void> {
  if (files.length === 0) return;
  await trx
    .insertInto('request_file')
    .values(
      files.map((f) => ({
        id: f.id,
        request_id: requestId,
        position: f.position,
        object_key: f.objectKey,
        filename_sealed: f.filenameSealed,
        content_type: f.contentType,
        size: f.size,
        key_sealed: f.keySealed,
      })),
    )
    .execute();
  const consumed = await trx
    .deleteFrom('upload_intent')
    .where(
      'object_key',
      'in',
      files.map((f) => f.objectKey),
    )
    .executeTakeFirst();
  if (Number(consumed.numDeletedRows) !== files.length) throw new UploadIntentLost();
}

async function listAttachments(db: Db, requestId: string): Promise<RequestAttachment[]> {
  const rows = await db
    .selectFrom('request_file')
    .selectAll()
    .where('request_id', '=', requestId)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ ...toFile(r), downloads: r.downloads }));
}

/**
 * One statement: the counter goes up only while the request is open, inside its window (by the
 * database's clock) and the file has downloads left; the row lock on the file serializes
 * concurrent downloads, so at most `attachment_downloads_allowed` ever succeed. When nothing was
 * counted, the same statement says whether the file was spent.
 */
async function claimAttachmentDownload(db: Db, requestId: string, fileId: string): Promise<AttachmentClaim> {
  const { rows } = await sql<{
    claimed: boolean;
    spent: boolean;
    id: string | null;
    object_key: string | null;
    filename_sealed: Buffer | null;
    content_type: string | null;
    size: string | null;
    key_sealed: Buffer | null;
    key_id: string | null;
    downloads_left: number | null;
  }>`
    with r as (
      select id, key_id, attachment_downloads_allowed as allowed from request
      where id = ${requestId} and state = 'open' and close_after_at > now() and not files_purged
    ), c as (
      update request_file f set downloads = f.downloads + 1
      from r
      where f.id = ${fileId} and f.request_id = r.id and f.downloads < r.allowed
      returning f.*, r.key_id, r.allowed - f.downloads as downloads_left
    )
    select true as claimed, false as spent, c.id, c.object_key, c.filename_sealed, c.content_type, c.size,
           c.key_sealed, c.key_id, c.downloads_left
    from c
    union all
    select false, exists (select 1 from request_file f join r on f.request_id = r.id where f.id = ${fileId}),
           null, null, null, null, null, null, null, null
    where not exists (select 1 from c)`.execute(db);
  const row = rows[0]!;
  if (!row.claimed) return { outcome: row.spent ? 'spent' : 'unavailable' };
  return {
    outcome: 'granted',
    file: toFile({
      id: row.id!,
      object_key: row.object_key!,
      filename_sealed: row.filename_sealed!,
      content_type: row.content_type!,
      size: row.size!,
      key_sealed: row.key_sealed!,
    }),
    keyId: row.key_id!,
    downloadsLeft: row.downloads_left!,
  };
}

async function releaseFilesNow(db: Db, requestId: string): Promise<boolean> {
  const r = await db
    .updateTable('request')
    .set({ files_purge_after: sql<Date>`now()` })
    .where('id', '=', requestId)
    .where('files_purged', '=', false)
    .where((eb) =>
      eb.or([eb('files_purge_after', 'is', null), eb('files_purge_after', '>', sql<Date>`now()`)]),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The domain's RequestFileStore over PostgreSQL. */
export function createRequestFileRepository(db: Db): RequestFileStore {
  return {
    listAttachments: (requestId) => listAttachments(db, requestId),
    claimAttachmentDownload: (requestId, fileId) => claimAttachmentDownload(db, requestId, fileId),
    async refundAttachmentDownload(requestId, fileId) {
      await db
        .updateTable('request_file')
        .set((eb) => ({ downloads: eb('downloads', '-', 1) }))
        .where('id', '=', fileId)
        .where('request_id', '=', requestId)
        .where('downloads', '>', 0)
        .execute();
    },
    releaseFilesNow: (requestId) => releaseFilesNow(db, requestId),
    // Due and purged like a push's files (files-purge.sql.ts), through `request_files_purge_idx`.
    requestsWithFilesDue: async (batch, exclude = []) =>
      (await filesDue(db, 'request', batch, exclude)).map((d) => ({
        requestId: d.id,
        objectKeys: d.objectKeys,
      })),
    markRequestFilesPurged: (requestId) => markFilesPurged(db, 'request', requestId),
  };
}
