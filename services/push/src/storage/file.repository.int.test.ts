import { randomBytes, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import { freshDatabase, type TestDatabase } from '@secret-push/testing';
import { UploadIntentLost } from '../domain/errors';
import type { FileStore, NewFileRecord } from '../domain/ports/file-store';
import type { NewPushRecord, PushStore, Visit } from '../domain/ports/push-store';
import type { AuditContext } from '../domain/push';
import type { PushDatabase } from './database';
import { createFileRepository } from './file.repository';
import { pushMigrations } from './migrations';
import { createPushRepository } from './push.repository';

// createFileRepository against a real PostgreSQL, with pushes made and viewed through the real
// push repository. Time is moved by rewriting timestamps in the database.

let database: TestDatabase<PushDatabase>;
let db: Kysely<PushDatabase>;
let files: FileStore;
let pushes: PushStore;
/** A second pool, wide enough that concurrent calls really run on separate connections. */
let wide: Kysely<PushDatabase>;
let wideFiles: FileStore;

beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('filerepo', pushMigrations);
  db = database.db;
  files = createFileRepository(db);
  pushes = createPushRepository(db);
  wide = createKysely<PushDatabase>({ url: database.url, poolSize: 25 });
  wideFiles = createFileRepository(wide);
});
afterAll(async () => {
  await wide.destroy();
  await database.drop();
});
beforeEach(async () => {
  await sql`truncate push, audit_entry, push_file, upload_intent, file_download, idempotency_key, push_email_batch, push_email, request, request_audit_entry, request_file, request_answer_code`.execute(
    db,
  );
});

const ctx: AuditContext = { ip: '198.51.100.4', userAgent: 'file-repo-test', referrer: '' };

function pushRecord(over: Partial<NewPushRecord> = {}): NewPushRecord {
  return {
    id: randomUUID(),
    tokenHash: randomBytes(32),
    tokenSealed: Buffer.from('sealed-token'),
    keyId: 'k7',
    kind: 'file',
    owner: 'client:c',
    name: null,
    payloadSealed: null,
    noteSealed: null,
    passphraseHash: null,
    expireAfterDays: 1,
    expireAfterViews: 3,
    ttlSeconds: 86_400,
    deletableByViewer: true,
    retrievalStep: false,
    outbox: false,
    ...over,
  };
}

function fileRecord(pushId: string, position: number): NewFileRecord {
  const id = randomUUID();
  return {
    id,
    position,
    objectKey: `files/${pushId}/${id}`,
    filenameSealed: Buffer.from(`sealed-name-${position}`),
    contentType: 'application/pdf',
    size: 1000 + position,
    keySealed: Buffer.from(`sealed-key-${position}`),
  };
}

/** A file push with `n` files, its intents recorded first as the file service does. */
async function filePush(n = 2, over: Partial<NewPushRecord> = {}) {
  const r = pushRecord(over);
  const recs = Array.from({ length: n }, (_, i) => fileRecord(r.id, i));
  for (const f of recs) await files.insertUploadIntent(f.objectKey, r.id);
  await pushes.insert(r, ctx, recs);
  return { r, recs };
}

async function view(
  r: NewPushRecord,
  fileGraceSeconds = 600,
): Promise<Extract<Visit, { outcome: 'viewed' }>> {
  const v = await pushes.visit({
    tokenHash: r.tokenHash,
    ctx,
    mode: 'view',
    passphraseVerified: false,
    likelyViewable: true,
    fileGraceSeconds,
    maxAuditEntries: 2000,
  });
  expect(v?.outcome).toBe('viewed');
  return v as Extract<Visit, { outcome: 'viewed' }>;
}

const intents = async () =>
  (await db.selectFrom('upload_intent').select('object_key').orderBy('object_key').execute()).map(
    (i) => i.object_key,
  );

async function pushRow(id: string) {
  return db.selectFrom('push').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Sets files_purge_after to `seconds` from the database's now. */
async function purgeAfter(pushId: string, seconds: number): Promise<void> {
  await sql`update push set files_purge_after = now() + make_interval(secs => ${seconds}) where id = ${pushId}`.execute(
    db,
  );
}

describe('upload intents', () => {
  it('are inserted and deleted by object key', async () => {
    const pushId = randomUUID();
    await files.insertUploadIntent('files/x/1', pushId);
    await files.insertUploadIntent('files/x/2', pushId);
    await files.insertUploadIntent('files/x/3', pushId);
    expect(await intents()).toEqual(['files/x/1', 'files/x/2', 'files/x/3']);
    await files.deleteUploadIntents(['files/x/1', 'files/x/3', 'files/x/unknown']);
    expect(await intents()).toEqual(['files/x/2']);
    await files.deleteUploadIntents([]);
    expect(await intents()).toEqual(['files/x/2']);
  });

  it('refuse a duplicate object key', async () => {
    await files.insertUploadIntent('files/dup', randomUUID());
    await expect(files.insertUploadIntent('files/dup', randomUUID())).rejects.toThrow();
  });
});

describe('insert of a file push (push repository)', () => {
  it('stores the files and consumes the intents; listFiles returns them by position', async () => {
    const r = pushRecord();
    const recs = [fileRecord(r.id, 2), fileRecord(r.id, 0), fileRecord(r.id, 1)];
    for (const f of recs) await files.insertUploadIntent(f.objectKey, r.id);
    await files.insertUploadIntent('files/other/leftover', randomUUID());
    await pushes.insert(r, ctx, recs);

    expect(await intents()).toEqual(['files/other/leftover']);
    const listed = await files.listFiles(r.id);
    expect(listed).toEqual(
      [recs[1]!, recs[2]!, recs[0]!].map((f) => ({
        id: f.id,
        objectKey: f.objectKey,
        filenameSealed: f.filenameSealed,
        contentType: f.contentType,
        size: f.size,
        keySealed: f.keySealed,
      })),
    );
    expect(typeof listed[0]!.size).toBe('number');
    expect(await files.listFiles(randomUUID())).toEqual([]);
  });

  it('throws UploadIntentLost when an intent is missing, and keeps nothing', async () => {
    const r = pushRecord();
    const recs = [fileRecord(r.id, 0), fileRecord(r.id, 1)];
    await files.insertUploadIntent(recs[0]!.objectKey, r.id); // the second one was swept meanwhile
    await expect(pushes.insert(r, ctx, recs)).rejects.toBeInstanceOf(UploadIntentLost);

    expect(await db.selectFrom('push').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('push_file').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('audit_entry').selectAll().execute()).toEqual([]);
    // rolled back: the intent that was there is still there, for the sweep
    expect(await intents()).toEqual([recs[0]!.objectKey]);
  });
});

describe('claimDownload', () => {
  it('counts at most `max` downloads per view and file', async () => {
    const { r, recs } = await filePush(2);
    const v1 = await view(r);
    const link = (fileId: string, viewId = v1.viewId) => ({ pushId: r.id, fileId, viewId });

    const g1 = await files.claimDownload(link(recs[0]!.id), 2);
    expect(g1).toEqual({
      file: {
        id: recs[0]!.id,
        objectKey: recs[0]!.objectKey,
        filenameSealed: recs[0]!.filenameSealed,
        contentType: 'application/pdf',
        size: 1000,
        keySealed: recs[0]!.keySealed,
      },
      keyId: 'k7',
      downloads: 1,
    });
    expect((await files.claimDownload(link(recs[0]!.id), 2))?.downloads).toBe(2);
    expect(await files.claimDownload(link(recs[0]!.id), 2)).toBeUndefined();
    // each file has its own counter under the view…
    expect((await files.claimDownload(link(recs[1]!.id), 2))?.downloads).toBe(1);
    // …and each view its own
    const v2 = await view(r);
    expect((await files.claimDownload(link(recs[0]!.id, v2.viewId), 2))?.downloads).toBe(1);
    expect(await files.claimDownload(link(recs[0]!.id), 2)).toBeUndefined();
  });

  it('only under a `view` entry of that push, for a file of that push', async () => {
    const { r, recs } = await filePush(1);
    const { r: other, recs: otherFiles } = await filePush(1);
    const v = await view(r);
    const vOther = await view(other);
    const [creation] = await db
      .selectFrom('audit_entry')
      .select('id')
      .where('push_id', '=', r.id)
      .where('kind', '=', 'creation')
      .execute();

    // another push's view
    expect(
      await files.claimDownload({ pushId: r.id, fileId: recs[0]!.id, viewId: vOther.viewId }, 3),
    ).toBeUndefined();
    // an entry of this push that is not a view
    expect(
      await files.claimDownload({ pushId: r.id, fileId: recs[0]!.id, viewId: String(creation!.id) }, 3),
    ).toBeUndefined();
    // a file of another push, under this push's view
    expect(
      await files.claimDownload({ pushId: r.id, fileId: otherFiles[0]!.id, viewId: v.viewId }, 3),
    ).toBeUndefined();
    // the push id must match the view's and the file's
    expect(
      await files.claimDownload({ pushId: other.id, fileId: recs[0]!.id, viewId: v.viewId }, 3),
    ).toBeUndefined();
    // unknown view id
    expect(
      await files.claimDownload({ pushId: r.id, fileId: recs[0]!.id, viewId: '999999999' }, 3),
    ).toBeUndefined();
    // nothing of the above was counted
    expect(await db.selectFrom('file_download').selectAll().execute()).toEqual([]);
    // and the right link works
    expect(
      await files.claimDownload({ pushId: r.id, fileId: recs[0]!.id, viewId: v.viewId }, 3),
    ).toBeDefined();
  });

  it('after the last view: only until files_purge_after (the grace period)', async () => {
    const { r, recs } = await filePush(1, { expireAfterViews: 1 });
    const v = await view(r, 600);
    const link = { pushId: r.id, fileId: recs[0]!.id, viewId: v.viewId };
    expect(v.snapshot.push.expired).toBe(true);
    expect((await files.claimDownload(link, 5))?.downloads).toBe(1);
    await purgeAfter(r.id, -1);
    expect(await files.claimDownload(link, 5)).toBeUndefined();
  });

  it('after a last view with no grace period: not at all', async () => {
    const { r, recs } = await filePush(1, { expireAfterViews: 1 });
    const v = await view(r, 0);
    expect(
      await files.claimDownload({ pushId: r.id, fileId: recs[0]!.id, viewId: v.viewId }, 5),
    ).toBeUndefined();
  });

  it('not after the window passed, nor after a DELETE', async () => {
    const { r, recs } = await filePush(1);
    const v = await view(r);
    const link = { pushId: r.id, fileId: recs[0]!.id, viewId: v.viewId };
    await sql`update push set expires_at = now() - interval '1 second' where id = ${r.id}`.execute(db);
    expect(await files.claimDownload(link, 5)).toBeUndefined(); // past window, not yet flagged
    await pushes.expireIfPastWindow(r.id);
    expect(await files.claimDownload(link, 5)).toBeUndefined();

    const { r: d, recs: dFiles } = await filePush(1);
    const dv = await view(d);
    await pushes.expireManually(d.id, ctx);
    expect(
      await files.claimDownload({ pushId: d.id, fileId: dFiles[0]!.id, viewId: dv.viewId }, 5),
    ).toBeUndefined();
  });

  it('never once the files are purged, even within the window', async () => {
    const { r, recs } = await filePush(1);
    const v = await view(r);
    const link = { pushId: r.id, fileId: recs[0]!.id, viewId: v.viewId };
    expect(await files.claimDownload(link, 5)).toBeDefined();
    await sql`update push set files_purged = true where id = ${r.id}`.execute(db);
    expect(await files.claimDownload(link, 5)).toBeUndefined();
  });

  it('concurrent claims never exceed max', async () => {
    const { r, recs } = await filePush(1);
    const v = await view(r);
    const link = { pushId: r.id, fileId: recs[0]!.id, viewId: v.viewId };
    const grants = await Promise.all(Array.from({ length: 20 }, () => wideFiles.claimDownload(link, 3)));
    const ok = grants.filter((g) => g !== undefined);
    expect(ok.map((g) => g.downloads).sort()).toEqual([1, 2, 3]);
    const counter = await db.selectFrom('file_download').selectAll().execute();
    expect(counter).toEqual([expect.objectContaining({ downloads: 3 })]);
  });
});

describe('purging', () => {
  const dueIds = async (batch = 100, exclude: string[] = []) =>
    (await files.pushesWithFilesDue(batch, exclude)).map((d) => d.pushId);

  it('pushesWithFilesDue: not while active nor in the grace period; due after purgeFilesNow, with its keys by position; not once purged', async () => {
    const { r, recs } = await filePush(2, { expireAfterViews: 1 });
    expect(await dueIds()).toEqual([]);
    expect(await files.purgeFilesNow(r.id)).toBe(false); // not expired: nothing to bring forward

    await view(r, 600);
    expect(await dueIds()).toEqual([]);

    expect(await files.purgeFilesNow(r.id)).toBe(true);
    expect(await files.purgeFilesNow(r.id)).toBe(false); // already due
    expect(await files.pushesWithFilesDue(100)).toEqual([
      { pushId: r.id, objectKeys: recs.map((f) => f.objectKey) },
    ]);

    await files.markFilesPurged(r.id);
    expect(await dueIds()).toEqual([]);
    expect(await files.listFiles(r.id)).toEqual([]);
    expect((await pushRow(r.id)).files_purged).toBe(true);
    expect(await files.purgeFilesNow(r.id)).toBe(false);
  });

  it('pushesWithFilesDue: due at once after a time expiry or a DELETE; never a text push', async () => {
    const { r } = await filePush(1);
    await pushes.expireManually(r.id, ctx);
    const { r: timed } = await filePush(1);
    await sql`update push set expires_at = now() - interval '1 second' where id = ${timed.id}`.execute(db);
    await pushes.expireIfPastWindow(timed.id);
    const text = pushRecord({ kind: 'text', payloadSealed: Buffer.from('p') });
    await pushes.insert(text, ctx);
    await pushes.expireManually(text.id, ctx);
    expect((await dueIds()).sort()).toEqual([r.id, timed.id].sort());
  });

  it('markFilesPurged removes the rows and their download counters', async () => {
    const { r, recs } = await filePush(1);
    const v = await view(r);
    await files.claimDownload({ pushId: r.id, fileId: recs[0]!.id, viewId: v.viewId }, 3);
    await pushes.expireManually(r.id, ctx);
    await files.markFilesPurged(r.id);
    expect(await db.selectFrom('push_file').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('file_download').selectAll().execute()).toEqual([]);
    expect((await pushRow(r.id)).files_purged).toBe(true);
  });

  it('pushesWithFilesDue: due and unpurged only, oldest first, at most `batch`, leaving out `exclude`', async () => {
    const a = (await filePush(1)).r.id;
    const b = (await filePush(1)).r.id;
    const c = (await filePush(1)).r.id;
    const laterId = (await filePush(1)).r.id;
    const purged = (await filePush(1)).r.id;
    await filePush(1); // active: never due
    for (const id of [a, b, c, laterId, purged]) await pushes.expireManually(id, ctx);
    await purgeAfter(a, -20);
    await purgeAfter(b, -30);
    await purgeAfter(c, -10);
    await purgeAfter(laterId, 60);
    await purgeAfter(purged, -40);
    await files.markFilesPurged(purged);

    expect(await dueIds(10)).toEqual([b, a, c]);
    expect(await dueIds(2)).toEqual([b, a]);
    expect(await dueIds(2, [b])).toEqual([a, c]);
  });

  it('pushesWithFilesDue: skips a push another transaction holds, without waiting for it', async () => {
    const a = (await filePush(1)).r.id;
    const b = (await filePush(1)).r.id;
    for (const id of [a, b]) await pushes.expireManually(id, ctx);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = wide.transaction().execute(async (trx) => {
      await sql`select id from push where id = ${a} for update`.execute(trx);
      locked();
      await held;
    });
    try {
      await isLocked;
      expect(await dueIds()).toEqual([b]);
    } finally {
      release();
      await holder;
    }
    expect((await dueIds()).sort()).toEqual([a, b].sort());
  });
});

describe('sweepStaleUploadIntents', () => {
  /** A deleteObjects callback that only collects the keys it is handed. */
  const collect = (into: string[]) => (keys: string[]) => {
    into.push(...keys);
    return Promise.resolve();
  };

  async function age(objectKey: string, seconds: number) {
    await sql`update upload_intent set created_at = now() - make_interval(secs => ${seconds}) where object_key = ${objectKey}`.execute(
      db,
    );
  }

  it('hands old intents to the callback, oldest first, then deletes them', async () => {
    const pushId = randomUUID();
    for (const k of ['old-1', 'old-2', 'old-3', 'fresh']) await files.insertUploadIntent(k, pushId);
    await age('old-1', 3600);
    await age('old-2', 7200);
    await age('old-3', 120);

    const handed: string[][] = [];
    const n = await files.sweepStaleUploadIntents(300, 10, (keys) => {
      handed.push(keys);
      return Promise.resolve();
    });
    expect(n).toBe(2);
    expect(handed).toEqual([['old-2', 'old-1']]);
    expect(await intents()).toEqual(['fresh', 'old-3']);

    // nothing stale: the callback is not called
    const none = jest.fn(async () => {});
    expect(await files.sweepStaleUploadIntents(300, 10, none)).toBe(0);
    expect(none).not.toHaveBeenCalled();
  });

  it('takes at most `batch`', async () => {
    for (const k of ['a', 'b', 'c']) {
      await files.insertUploadIntent(k, randomUUID());
      await age(k, 1000);
    }
    const handed: string[] = [];
    expect(await files.sweepStaleUploadIntents(60, 2, collect(handed))).toBe(2);
    expect(handed).toHaveLength(2);
    expect(await intents()).toHaveLength(1);
  });

  it('keeps the intents when the callback throws', async () => {
    await files.insertUploadIntent('kept', randomUUID());
    await age('kept', 3600);
    await expect(
      files.sweepStaleUploadIntents(60, 10, () => Promise.reject(new Error('store down'))),
    ).rejects.toThrow('store down');
    expect(await intents()).toEqual(['kept']);
    const handed: string[] = [];
    expect(await files.sweepStaleUploadIntents(60, 10, collect(handed))).toBe(1);
    expect(handed).toEqual(['kept']);
  });

  it('concurrent sweeps never hand the same intent twice', async () => {
    const keys = Array.from({ length: 12 }, (_, i) => `stale-${String(i).padStart(2, '0')}`);
    for (const k of keys) await files.insertUploadIntent(k, randomUUID());
    await sql`update upload_intent set created_at = now() - interval '1 hour'`.execute(db);
    const handed: string[] = [];
    const slowDelete = async (batch: string[]) => {
      handed.push(...batch);
      await new Promise((resolve) => setTimeout(resolve, 100));
    };
    const counts = await Promise.all([
      wideFiles.sweepStaleUploadIntents(60, 5, slowDelete),
      wideFiles.sweepStaleUploadIntents(60, 5, slowDelete),
      wideFiles.sweepStaleUploadIntents(60, 5, slowDelete),
    ]);
    expect(counts.reduce((s, n) => s + n, 0)).toBe(12);
    expect([...handed].sort()).toEqual(keys);
    expect(await intents()).toEqual([]);
  });

  it('a create whose intent was swept fails with UploadIntentLost instead of keeping a file without its object', async () => {
    const r = pushRecord();
    const rec = fileRecord(r.id, 0);
    await files.insertUploadIntent(rec.objectKey, r.id);
    await age(rec.objectKey, 3600);
    const deleted: string[] = [];
    await files.sweepStaleUploadIntents(60, 10, collect(deleted));
    expect(deleted).toEqual([rec.objectKey]);
    await expect(pushes.insert(r, ctx, [rec])).rejects.toBeInstanceOf(UploadIntentLost);
    expect(await files.listFiles(r.id)).toEqual([]);
  });

  // No transaction spans the object store: the claim is a statement of its own, and a create
  // that comes after it fails at once (UploadIntentLost) rather than waiting on a lock or
  // committing a push whose objects are being deleted.
  it('holds no transaction or lock while deleting the objects; a create meanwhile fails at once with UploadIntentLost', async () => {
    const r = pushRecord();
    const rec = fileRecord(r.id, 0);
    await files.insertUploadIntent(rec.objectKey, r.id);
    await age(rec.objectKey, 3600);
    const widePushes = createPushRepository(wide);
    let during: { open: number; create: unknown; ms: number } | undefined;
    const n = await files.sweepStaleUploadIntents(60, 10, async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and state like 'idle in transaction%'`.execute(wide);
      const started = Date.now();
      const create = await widePushes.insert(r, ctx, [rec]).then(
        () => 'committed',
        (err: unknown) => err,
      );
      during = { open: rows[0]!.n, create, ms: Date.now() - started };
    });
    expect(n).toBe(1);
    expect(during!.open).toBe(0);
    expect(during!.create).toBeInstanceOf(UploadIntentLost);
    expect(during!.ms).toBeLessThan(1000);
    expect(await files.listFiles(r.id)).toEqual([]);
    expect(await intents()).toEqual([]);
  });

  it("never takes an intent that a create in progress holds; the create's consumption commits", async () => {
    const r = pushRecord();
    const rec = fileRecord(r.id, 0);
    await files.insertUploadIntent(rec.objectKey, r.id);
    await age(rec.objectKey, 3600);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let consumed!: () => void;
    const consuming = new Promise<void>((resolve) => (consumed = resolve));
    // A create's transaction, paused right after consuming its intent (row locked, not committed).
    const create = wide.transaction().execute(async (trx) => {
      await trx.deleteFrom('upload_intent').where('object_key', '=', rec.objectKey).execute();
      consumed();
      await held;
    });
    await consuming;
    const handed: string[] = [];
    expect(await files.sweepStaleUploadIntents(60, 10, collect(handed))).toBe(0);
    release();
    await create;
    expect(handed).toEqual([]);
    expect(await files.sweepStaleUploadIntents(60, 10, collect(handed))).toBe(0);
  });

  it('after a failed deletion the intents stay claimed: no create can consume them, the next sweep retries them', async () => {
    const r = pushRecord();
    const rec = fileRecord(r.id, 0);
    await files.insertUploadIntent(rec.objectKey, r.id);
    await age(rec.objectKey, 3600);
    await expect(
      files.sweepStaleUploadIntents(60, 10, () => Promise.reject(new Error('store down'))),
    ).rejects.toThrow('store down');
    await expect(pushes.insert(r, ctx, [rec])).rejects.toBeInstanceOf(UploadIntentLost);
    expect(await intents()).toEqual([rec.objectKey]);
    // Retried even if the stale limit was raised meanwhile: the claim stands.
    const handed: string[] = [];
    expect(await files.sweepStaleUploadIntents(86_400, 10, collect(handed))).toBe(1);
    expect(handed).toEqual([rec.objectKey]);
    expect(await intents()).toEqual([]);
  });

  it("leaves another sweep's claims alone until its lease ends, then takes them over", async () => {
    await files.insertUploadIntent('leased', randomUUID());
    await age('leased', 3600);
    await sql`update upload_intent set claimed_at = now(), lease_until = now() + interval '10 minutes'`.execute(
      db,
    );
    const handed: string[] = [];
    expect(await files.sweepStaleUploadIntents(60, 10, collect(handed))).toBe(0);
    // The sweeper holding it died: its lease ends.
    await sql`update upload_intent set lease_until = now() - interval '1 second'`.execute(db);
    expect(await files.sweepStaleUploadIntents(60, 10, collect(handed))).toBe(1);
    expect(handed).toEqual(['leased']);
    expect(await intents()).toEqual([]);
  });

  it('a claimed intent cannot be deleted by anyone but the sweep (deleteUploadIntents leaves it)', async () => {
    await files.insertUploadIntent('claimed', randomUUID());
    await files.insertUploadIntent('unclaimed', randomUUID());
    await sql`update upload_intent set claimed_at = now(), lease_until = now() + interval '10 minutes' where object_key = 'claimed'`.execute(
      db,
    );
    await files.deleteUploadIntents(['claimed', 'unclaimed']);
    expect(await intents()).toEqual(['claimed']);
  });
});
