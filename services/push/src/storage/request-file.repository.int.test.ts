import { randomBytes, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import { freshDatabase, type TestDatabase } from '@secret-push/testing';
import { UploadIntentLost } from '../domain/errors';
import { createFilePurger } from '../domain/file-purger';
import type { NewFileRecord } from '../domain/ports/file-store';
import type { ObjectStore } from '../domain/ports/object-store';
import type { RequestFileStore } from '../domain/ports/request-file-store';
import type { PushDatabase } from './database';
import { createFileRepository } from './file.repository';
import { pushMigrations } from './migrations';
import { createRequestFileRepository, insertRequestFiles } from './request-file.repository';

// createRequestFileRepository against a real PostgreSQL: attachments inserted with their request
// (upload intents consumed), downloads counted atomically, and the purge of closed requests'
// attachments through the file purger. Requests are inserted as rows; time is moved by rewriting
// timestamps.

let database: TestDatabase<PushDatabase>;
let db: Kysely<PushDatabase>;
let store: RequestFileStore;
/** A second pool, wide enough that concurrent claims really run on separate connections. */
let wide: Kysely<PushDatabase>;

beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('requestfilerepo', pushMigrations);
  db = database.db;
  store = createRequestFileRepository(db);
  wide = createKysely<PushDatabase>({ url: database.url, poolSize: 20 });
});
afterAll(async () => {
  await wide.destroy();
  await database.drop();
});
beforeEach(async () => {
  await sql`truncate request, upload_intent cascade`.execute(db);
});

/** An open request (a row as the request repository writes it), with `allowed` downloads per file. */
async function insertRequest(allowed = 3): Promise<string> {
  const id = randomUUID();
  await sql`
    insert into request (id, token_hash, token_sealed, key_id, owner, message_sealed, close_after_at,
                         answer_expire_after_views, attachment_downloads_allowed)
    values (${id}, ${randomBytes(32)}, ${Buffer.from('t')}, 'k1', 'client:c', ${Buffer.from('m')},
            now() + interval '1 day', 1, ${allowed})`.execute(db);
  return id;
}

function fileRecord(requestId: string, position: number): NewFileRecord {
  const id = randomUUID();
  return {
    id,
    position,
    objectKey: `files/${requestId}/${id}`,
    filenameSealed: Buffer.from(`name-${position}`),
    contentType: 'application/pdf',
    size: 1000 + position,
    keySealed: Buffer.from('key'),
  };
}

/** Attachments stored the way a create stores them: intents first, then the rows in a transaction. */
async function attach(requestId: string, n: number): Promise<NewFileRecord[]> {
  const files = Array.from({ length: n }, (_, i) => fileRecord(requestId, i));
  const intents = createFileRepository(db);
  for (const f of files) await intents.insertUploadIntent(f.objectKey, requestId);
  await db.transaction().execute((trx) => insertRequestFiles(trx, requestId, files));
  return files;
}

describe('request file repository', () => {
  it('inserts attachments in the order sent and consumes their upload intents', async () => {
    const id = await insertRequest();
    const files = await attach(id, 2);
    expect((await store.listAttachments(id)).map((f) => [f.id, f.size, f.downloads])).toEqual([
      [files[0]!.id, 1000, 0],
      [files[1]!.id, 1001, 0],
    ]);
    const { rows } = await sql<{ n: string }>`select count(*) as n from upload_intent`.execute(db);
    expect(rows[0]!.n).toBe('0');
  });

  it('commits nothing when the sweep took an upload intent (UploadIntentLost)', async () => {
    const id = await insertRequest();
    const files = [fileRecord(id, 0)];
    await expect(
      db.transaction().execute((trx) => insertRequestFiles(trx, id, files)),
    ).rejects.toBeInstanceOf(UploadIntentLost);
    expect(await store.listAttachments(id)).toEqual([]);
  });

  it('counts downloads up to the allowed number, then says spent; a refund gives one back', async () => {
    const id = await insertRequest(2);
    const [file] = await attach(id, 1);
    const first = await store.claimAttachmentDownload(id, file!.id);
    expect(first).toMatchObject({ outcome: 'granted', keyId: 'k1', downloadsLeft: 1 });
    expect(first.outcome === 'granted' && first.file.objectKey).toBe(file!.objectKey);
    expect(await store.claimAttachmentDownload(id, file!.id)).toMatchObject({ downloadsLeft: 0 });
    expect(await store.claimAttachmentDownload(id, file!.id)).toEqual({ outcome: 'spent' });
    await store.refundAttachmentDownload(id, file!.id);
    expect(await store.claimAttachmentDownload(id, file!.id)).toMatchObject({ outcome: 'granted' });
    expect(await store.claimAttachmentDownload(randomUUID(), file!.id)).toEqual({ outcome: 'unavailable' });
    expect(await store.claimAttachmentDownload(id, randomUUID())).toEqual({ outcome: 'unavailable' });
  });

  it('never grants more than allowed under concurrent claims', async () => {
    const id = await insertRequest(3);
    const [file] = await attach(id, 1);
    const concurrent = createRequestFileRepository(wide);
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, () => concurrent.claimAttachmentDownload(id, file!.id)),
    );
    expect(outcomes.filter((o) => o.outcome === 'granted')).toHaveLength(3);
    expect(outcomes.filter((o) => o.outcome === 'spent')).toHaveLength(9);
  });

  it('grants nothing once the request is answered, closed or past its window', async () => {
    for (const change of [
      sql`update request set state = 'answered', answered_at = now()`,
      sql`update request set state = 'closed', closed_at = now(), closed_reason = 'owner'`,
      sql`update request set close_after_at = now() - interval '1 second'`,
    ]) {
      await sql`truncate request cascade`.execute(db);
      const id = await insertRequest();
      const [file] = await attach(id, 1);
      await change.execute(db);
      expect(await store.claimAttachmentDownload(id, file!.id)).toEqual({ outcome: 'unavailable' });
    }
  });

  it('purges the attachments of requests a close made due, through the file purger', async () => {
    const due = await insertRequest();
    const dueFiles = await attach(due, 2);
    const notDue = await insertRequest();
    await attach(notDue, 1);
    const deleted: string[] = [];
    const objects: ObjectStore = {
      upload: () => ({ done: Promise.resolve(), abort: () => Promise.resolve() }),
      download: () => Promise.resolve(undefined),
      delete: (keys) => {
        deleted.push(...keys);
        return Promise.resolve();
      },
      check: () => Promise.resolve(),
      close: () => undefined,
    };
    const purger = createFilePurger({ files: createFileRepository(db), store: objects, requestFiles: store });
    expect(await store.releaseFilesNow(due)).toBe(true);
    expect(await store.releaseFilesNow(due)).toBe(false);
    expect(await purger.purgeDue(10)).toEqual({ purged: 1, objects: 2 });
    expect(deleted.sort()).toEqual(dueFiles.map((f) => f.objectKey).sort());
    expect(await store.listAttachments(due)).toEqual([]);
    expect(await store.listAttachments(notDue)).toHaveLength(1);
    const { rows } = await sql<{
      purged: boolean;
    }>`select files_purged as purged from request where id = ${due}`.execute(db);
    expect(rows[0]!.purged).toBe(true);
    expect(await purger.purgeDue(10)).toEqual({ purged: 0, objects: 0 });
  });
});
