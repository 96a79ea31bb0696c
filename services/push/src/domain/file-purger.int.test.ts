import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { type Kysely, sql } from 'kysely';
import {
  freshDatabase,
  type LocalS3,
  S3RVER_CREDENTIALS,
  startS3,
  type TestDatabase,
} from '@secret-push/testing';
import { createS3ObjectStore } from '../files/object-store';
import type { PushDatabase } from '../storage/database';
import { createFileRepository } from '../storage/file.repository';
import { pushMigrations } from '../storage/migrations';
import { createPushRepository } from '../storage/push.repository';
import { DependencyDown } from './errors';
import { createFilePurger } from './file-purger';
import type { FileStore, NewFileRecord } from './ports/file-store';
import type { ObjectStore } from './ports/object-store';
import type { NewPushRecord, PushStore } from './ports/push-store';

// createFilePurger over the real PostgreSQL file repository and a real S3-compatible server (a
// private s3rver for this file).

let database: TestDatabase<PushDatabase>;
let db: Kysely<PushDatabase>;
let s3: LocalS3;
let objects: ObjectStore;
let files: FileStore;
let pushes: PushStore;

beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('purger', pushMigrations);
  db = database.db;
  files = createFileRepository(db);
  pushes = createPushRepository(db);
  s3 = await startS3();
  objects = createS3ObjectStore({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    bucket: s3.bucket,
    credentials: { ...S3RVER_CREDENTIALS },
    forcePathStyle: true,
    checksums: 'when_required',
    partSize: 5 * 1024 * 1024,
    queueSize: 2,
    connectTimeoutMs: 3000,
    requestTimeoutMs: 30_000,
  });
});
afterAll(async () => {
  objects.close();
  await s3.close();
  await database.drop();
});
beforeEach(async () => {
  await sql`truncate push, audit_entry, push_file, upload_intent, file_download, idempotency_key, push_email_batch, push_email, request, request_audit_entry, request_file, request_answer_code`.execute(
    db,
  );
});

const ctx = { ip: '203.0.113.9', userAgent: 'purger-test', referrer: '' };

async function put(key: string): Promise<void> {
  await objects.upload(key, Readable.from([randomBytes(64)])).done;
}

/** A file push with `n` stored objects, created as the file service does (intent, object, commit). */
async function filePush(n: number, over: Partial<NewPushRecord> = {}) {
  const id = randomUUID();
  const record: NewPushRecord = {
    id,
    tokenHash: randomBytes(32),
    tokenSealed: Buffer.from('t'),
    keyId: 'k',
    kind: 'file',
    owner: 'client:c',
    name: null,
    payloadSealed: null,
    noteSealed: null,
    passphraseHash: null,
    expireAfterDays: 1,
    expireAfterViews: 1,
    ttlSeconds: 86_400,
    deletableByViewer: true,
    retrievalStep: false,
    outbox: false,
    ...over,
  };
  const recs: NewFileRecord[] = [];
  for (let position = 0; position < n; position++) {
    const fileId = randomUUID();
    const objectKey = `files/${id}/${fileId}`;
    await files.insertUploadIntent(objectKey, id);
    await put(objectKey);
    recs.push({
      id: fileId,
      position,
      objectKey,
      filenameSealed: Buffer.from('name'),
      contentType: 'text/plain',
      size: 64,
      keySealed: Buffer.from('key'),
    });
  }
  await pushes.insert(record, ctx, recs);
  return { id, record, keys: recs.map((r) => r.objectKey).sort() };
}

async function lastView(record: NewPushRecord, fileGraceSeconds: number): Promise<void> {
  const v = await pushes.visit({
    tokenHash: record.tokenHash,
    ctx,
    mode: 'view',
    passphraseVerified: false,
    likelyViewable: true,
    fileGraceSeconds,
    maxAuditEntries: 2000,
  });
  expect(v?.outcome === 'viewed' && v.snapshot.push.expired).toBe(true);
}

const stored = async (pushId: string) => (await s3.listKeys(`files/${pushId}/`)).sort();
const purgedFlag = async (pushId: string) =>
  (await db.selectFrom('push').select('files_purged').where('id', '=', pushId).executeTakeFirstOrThrow())
    .files_purged;

describe('purgeDue', () => {
  it('deletes the objects, then the rows, and marks the push purged', async () => {
    const { id, keys } = await filePush(3);
    await pushes.expireManually(id, ctx);
    expect(await stored(id)).toEqual(keys);

    const purger = createFilePurger({ files, store: objects });
    expect(await purger.purgeDue(10)).toEqual({ purged: 1, objects: 3 });
    expect(await stored(id)).toEqual([]);
    expect(await files.listFiles(id)).toEqual([]);
    expect(await purgedFlag(id)).toBe(true);
    // and again: nothing
    expect(await purger.purgeDue(10)).toEqual({ purged: 0, objects: 0 });
  });

  it('leaves the files during the grace period after the last view; a DELETE then makes them due now', async () => {
    const { id, record, keys } = await filePush(1);
    await lastView(record, 300);
    const purger = createFilePurger({ files, store: objects });
    expect(await purger.purgeDue(10)).toEqual({ purged: 0, objects: 0 });
    expect(await stored(id)).toEqual(keys);
    expect(await files.listFiles(id)).toHaveLength(1);
    expect(await purgedFlag(id)).toBe(false);

    expect(await files.purgeFilesNow(id)).toBe(true);
    expect(await purger.purgeDue(10)).toEqual({ purged: 1, objects: 1 });
    expect(await stored(id)).toEqual([]);
  });

  it('purges right after a last view with no grace period', async () => {
    const { id, record } = await filePush(2);
    await lastView(record, 0);
    expect(await createFilePurger({ files, store: objects }).purgeDue(10)).toEqual({ purged: 1, objects: 2 });
    expect(await stored(id)).toEqual([]);
  });

  it('leaves an active file push and an expired text push alone', async () => {
    const { id, keys } = await filePush(1, { expireAfterViews: 3 });
    const text = randomUUID();
    await pushes.insert(
      {
        id: text,
        tokenHash: randomBytes(32),
        tokenSealed: Buffer.from('t'),
        keyId: 'k',
        kind: 'text',
        owner: null,
        name: null,
        payloadSealed: Buffer.from('p'),
        noteSealed: null,
        passphraseHash: null,
        expireAfterDays: 1,
        expireAfterViews: 1,
        ttlSeconds: 60,
        deletableByViewer: true,
        retrievalStep: false,
        outbox: false,
      },
      ctx,
    );
    await pushes.expireManually(text, ctx);
    expect(await createFilePurger({ files, store: objects }).purgeDue(10)).toEqual({ purged: 0, objects: 0 });
    expect(await stored(id)).toEqual(keys);
  });

  it('works in batches, oldest first, up to maxBatches; leaves out `exclude`', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) {
      const p = await filePush(1);
      await pushes.expireManually(p.id, ctx);
      made.push(p);
    }
    const spy = jest.spyOn(files, 'pushesWithFilesDue');
    try {
      const purger = createFilePurger({ files, store: objects });
      expect(await purger.purgeDue(2, { maxBatches: 1, exclude: [made[0]!.id] })).toEqual({
        purged: 2,
        objects: 2,
      });
      expect(await stored(made[0]!.id)).toEqual(made[0]!.keys);
      expect(await stored(made[1]!.id)).toEqual([]);
      expect(await stored(made[2]!.id)).toEqual([]);
      expect(await purger.purgeDue(2)).toEqual({ purged: 3, objects: 3 });
      expect(spy.mock.calls.map((c) => c[0])).toEqual([2, 2, 2]); // 2, then 2 + 1: the short one ends it
    } finally {
      spy.mockRestore();
    }
  });

  it('with the object store down: stops at the first push, keeps its rows, and purges once it is back', async () => {
    const a = await filePush(2);
    const b = await filePush(1);
    await pushes.expireManually(a.id, ctx);
    await pushes.expireManually(b.id, ctx);
    const purger = createFilePurger({ files, store: objects });
    await s3.stop();
    let result;
    try {
      result = await purger.purgeDue(10);
    } finally {
      await s3.start();
    }
    expect(result).toMatchObject({ purged: 0, objects: 0, failed: { pushId: a.id } });
    expect(result.failed?.error).toBeInstanceOf(DependencyDown);
    expect(await purgedFlag(a.id)).toBe(false);
    expect(await files.listFiles(a.id)).toHaveLength(2);
    expect(await stored(a.id)).toEqual(a.keys);
    expect(await stored(b.id)).toEqual(b.keys);

    expect(await purger.purgeDue(10)).toEqual({ purged: 2, objects: 3 });
    expect(await stored(a.id)).toEqual([]);
    expect(await stored(b.id)).toEqual([]);
  });

  it('runs again after objects were deleted but the rows were not marked (objects already gone are fine)', async () => {
    const { id, keys } = await filePush(2);
    await pushes.expireManually(id, ctx);
    await objects.delete(keys); // a purge interrupted after the objects went
    expect(await createFilePurger({ files, store: objects }).purgeDue(10)).toEqual({ purged: 1, objects: 2 });
    expect(await purgedFlag(id)).toBe(true);
  });
});

describe('sweepStaleUploads', () => {
  async function ageIntent(objectKey: string, seconds: number) {
    await sql`update upload_intent set created_at = now() - make_interval(secs => ${seconds}) where object_key = ${objectKey}`.execute(
      db,
    );
  }

  it("deletes stale uploads' objects, keeping uploads in progress and the files of pushes", async () => {
    const graced = await filePush(1);
    await lastView(graced.record, 600);
    const active = await filePush(1, { expireAfterViews: 5 });

    // a crash's leftover: an object whose intent is an hour old, and an upload still in progress
    const crashed = `files/${randomUUID()}/${randomUUID()}`;
    await files.insertUploadIntent(crashed, randomUUID());
    await put(crashed);
    await ageIntent(crashed, 3600);
    const inProgress = `files/${randomUUID()}/${randomUUID()}`;
    await files.insertUploadIntent(inProgress, randomUUID());
    await put(inProgress);

    const purger = createFilePurger({ files, store: objects });
    expect(await purger.sweepStaleUploads(10, 600)).toBe(1);

    expect(await stored(graced.id)).toEqual(graced.keys);
    expect(await stored(active.id)).toEqual(active.keys);
    expect(await s3.listKeys(crashed)).toEqual([]);
    expect(await s3.listKeys(inProgress)).toEqual([inProgress]);
    const intents = await db.selectFrom('upload_intent').select('object_key').execute();
    expect(intents.map((i) => i.object_key)).toEqual([inProgress]);

    // nothing left to do
    expect(await purger.sweepStaleUploads(10, 600)).toBe(0);
  });

  it('keeps stale intents when the object store is down, for the next sweep', async () => {
    const crashed = `files/${randomUUID()}/${randomUUID()}`;
    await files.insertUploadIntent(crashed, randomUUID());
    await put(crashed);
    await ageIntent(crashed, 3600);
    const purger = createFilePurger({ files, store: objects });
    await s3.stop();
    try {
      await expect(purger.sweepStaleUploads(10, 600)).rejects.toBeInstanceOf(DependencyDown);
    } finally {
      await s3.start();
    }
    expect(await db.selectFrom('upload_intent').select('object_key').execute()).toEqual([
      { object_key: crashed },
    ]);
    expect(await purger.sweepStaleUploads(10, 600)).toBe(1);
    expect(await s3.listKeys(crashed)).toEqual([]);
  });
});
