import { randomBytes, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import { freshDatabase, type TestDatabase } from '@secret-push/testing';
import type { NewFileRecord } from '../domain/ports/file-store';
import type { NewPushRecord, PushStore, Visit, VisitRequest } from '../domain/ports/push-store';
import { type AuditContext, PAGE_SIZE, type PushKind } from '../domain/push';
import type { PushDatabase } from './database';
import { createFileRepository } from './file.repository';
import { pushMigrations } from './migrations';
import { createPushRepository } from './push.repository';
import { pastWindow } from './view-rule.sql';

// createPushRepository against a real PostgreSQL: every promise of its doc comments (and of the
// PushStore port in domain/ports/push-store.ts), with time moved by rewriting `expires_at` in the database.

let database: TestDatabase<PushDatabase>;
let db: Kysely<PushDatabase>;
let store: PushStore;
/** A second pool, wide enough that concurrent calls really run on separate connections. */
let wide: Kysely<PushDatabase>;
let wideStore: PushStore;

beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('pushrepo', pushMigrations);
  db = database.db;
  store = createPushRepository(db);
  wide = createKysely<PushDatabase>({ url: database.url, poolSize: 25 });
  wideStore = createPushRepository(wide);
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

const ctx: AuditContext = { ip: '192.0.2.7', userAgent: 'repo-test/1.0', referrer: 'https://example.test/' };
const PAYLOAD = Buffer.from('sealed-payload');
const NOTE = Buffer.from('sealed-note');

function record(over: Partial<NewPushRecord> = {}): NewPushRecord {
  return {
    id: randomUUID(),
    tokenHash: randomBytes(32),
    tokenSealed: Buffer.from('sealed-token'),
    keyId: 'k1',
    kind: 'text',
    owner: null,
    name: null,
    payloadSealed: PAYLOAD,
    noteSealed: NOTE,
    passphraseHash: null,
    expireAfterDays: 7,
    expireAfterViews: 5,
    ttlSeconds: 7 * 86_400,
    deletableByViewer: true,
    retrievalStep: false,
    outbox: false,
    ...over,
  };
}

async function create(over: Partial<NewPushRecord> = {}, files?: NewFileRecord[]) {
  const r = record(over);
  const snapshot = await store.insert(r, ctx, files);
  return { r, snapshot };
}

function visitOf(r: NewPushRecord, over: Partial<VisitRequest> = {}): VisitRequest {
  return {
    tokenHash: r.tokenHash,
    ctx,
    mode: 'view',
    passphraseVerified: false,
    likelyViewable: true,
    fileGraceSeconds: 600,
    maxAuditEntries: 2000,
    ...over,
  };
}

/** Moves the push's window so that it ends `seconds` from the database's now (negative: in the past). */
async function windowEndsIn(pushId: string, seconds: number): Promise<void> {
  await sql`update push set expires_at = now() + make_interval(secs => ${seconds}) where id = ${pushId}`.execute(
    db,
  );
}

async function row(pushId: string) {
  return db.selectFrom('push').selectAll().where('id', '=', pushId).executeTakeFirstOrThrow();
}

async function audit(pushId: string) {
  return db
    .selectFrom('audit_entry')
    .select(['id', 'kind', 'ip', 'user_agent', 'referrer', 'created_at'])
    .where('push_id', '=', pushId)
    .orderBy('id')
    .execute();
}

const kinds = async (pushId: string) => (await audit(pushId)).map((e) => e.kind);

async function dbNow(): Promise<Date> {
  return (await sql<{ now: Date }>`select now() as now`.execute(db)).rows[0]!.now;
}

function expectViewed(v: Visit | undefined): Extract<Visit, { outcome: 'viewed' }> {
  expect(v?.outcome).toBe('viewed');
  return v as Extract<Visit, { outcome: 'viewed' }>;
}
function expectRefused(v: Visit | undefined): Extract<Visit, { outcome: 'refused' }> {
  expect(v?.outcome).toBe('refused');
  return v as Extract<Visit, { outcome: 'refused' }>;
}
function expectOpened(v: Visit | undefined): Extract<Visit, { outcome: 'opened' }> {
  expect(v?.outcome).toBe('opened');
  return v as Extract<Visit, { outcome: 'opened' }>;
}

describe('insert', () => {
  it('starts the window at the database now, records `creation` and returns the snapshot', async () => {
    const before = await dbNow();
    const { r, snapshot } = await create({ ttlSeconds: 3600, owner: 'user:1', name: 'n' });
    const { push, now } = snapshot;
    expect(push).toMatchObject({
      id: r.id,
      kind: 'text',
      owner: 'user:1',
      name: 'n',
      views: 0,
      expired: false,
      deleted: false,
      expiredOn: null,
      expireAfterDays: 7,
      expireAfterViews: 5,
      deletableByViewer: true,
      retrievalStep: false,
      passphraseProtected: false,
      filesPurgeAfter: null,
    });
    // created_at, the window's start and the snapshot's clock are the same database now().
    expect(now.getTime()).toBe(push.createdAt.getTime());
    expect(push.expiresAt.getTime() - push.createdAt.getTime()).toBe(3600 * 1000);
    expect(now.getTime()).toBeGreaterThanOrEqual(before.getTime());

    const stored = await row(r.id);
    expect(stored.payload_sealed).toEqual(PAYLOAD);
    expect(stored.note_sealed).toEqual(NOTE);
    expect(stored.audit_entries).toBe(1);
    const entries = await audit(r.id);
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'creation',
        ip: ctx.ip,
        user_agent: ctx.userAgent,
        referrer: ctx.referrer,
      }),
    ]);
    expect(entries[0]!.created_at.getTime()).toBe(now.getTime());
  });

  it('marks a push with a passphrase hash as passphrase protected', async () => {
    const { snapshot } = await create({ passphraseHash: 'hash' });
    expect(snapshot.push.passphraseProtected).toBe(true);
  });

  it('findByTokenHash returns the push with its sealed secrets; unknown → undefined', async () => {
    const { r } = await create({ passphraseHash: 'hash' });
    const found = await store.findByTokenHash(r.tokenHash);
    expect(found?.push.id).toBe(r.id);
    expect(found?.secrets).toEqual({
      keyId: 'k1',
      tokenSealed: r.tokenSealed,
      noteSealed: NOTE,
      passphraseHash: 'hash',
    });
    expect(await store.findByTokenHash(randomBytes(32))).toBeUndefined();
  });
});

describe('visit', () => {
  it('claims a view: counts it, audits `view` with the context and returns the view id', async () => {
    const { r } = await create({ expireAfterViews: 3 });
    const v = expectViewed(await store.visit(visitOf(r)));
    expect(v.snapshot.push.views).toBe(1);
    expect(v.snapshot.push.expired).toBe(false);
    expect(v.payloadSealed).toEqual(PAYLOAD);
    expect(v.keyId).toBe('k1');

    const entries = await audit(r.id);
    expect(entries.map((e) => e.kind)).toEqual(['creation', 'view']);
    expect(entries[1]).toMatchObject({ ip: ctx.ip, user_agent: ctx.userAgent, referrer: ctx.referrer });
    expect(String(entries[1]!.id)).toBe(String(v.viewId));
    const stored = await row(r.id);
    expect(stored.views).toBe(1);
    expect(stored.payload_sealed).toEqual(PAYLOAD);
    expect(stored.audit_entries).toBe(2);
  });

  it('the last view expires the push, wipes its secrets, audits view then expire_by_views, returns the old payload', async () => {
    const { r } = await create({ expireAfterViews: 2, passphraseHash: 'hash' });
    expectViewed(await store.visit(visitOf(r, { passphraseVerified: true })));
    const last = expectViewed(await store.visit(visitOf(r, { passphraseVerified: true })));
    expect(last.payloadSealed).toEqual(PAYLOAD);
    expect(last.snapshot.push).toMatchObject({ views: 2, expired: true, deleted: false });
    expect(last.snapshot.push.expiredOn?.getTime()).toBe(last.snapshot.now.getTime());
    // not a file push: nothing to purge
    expect(last.snapshot.push.filesPurgeAfter).toBeNull();

    const stored = await row(r.id);
    expect(stored.payload_sealed).toBeNull();
    expect(stored.note_sealed).toBeNull();
    expect(stored.passphrase_hash).toBeNull();
    expect(stored.expired).toBe(true);
    expect(stored.audit_entries).toBe(4);

    const entries = await audit(r.id);
    expect(entries.map((e) => e.kind)).toEqual(['creation', 'view', 'view', 'expire_by_views']);
    // ids strictly increase in that order
    const ids = entries.map((e) => BigInt(e.id));
    expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);
    expect(String(entries[2]!.id)).toBe(String(last.viewId));

    // and it is over
    const after = expectRefused(await store.visit(visitOf(r, { passphraseVerified: true })));
    expect(after.reason).toBe('expired');
    expect(after.expiredByTime).toBe(false);
    expect((await row(r.id)).views).toBe(2);
  });

  it('refuses a push past its window and expires it by time in the same statement', async () => {
    const { r } = await create({ expireAfterViews: 3 });
    await windowEndsIn(r.id, -1);
    const v = expectRefused(await store.visit(visitOf(r)));
    expect(v.reason).toBe('expired');
    expect(v.expiredByTime).toBe(true);
    expect(v.snapshot.push).toMatchObject({ views: 0, expired: true, deleted: false });
    expect(v.snapshot.push.expiredOn?.getTime()).toBe(v.snapshot.now.getTime());

    const stored = await row(r.id);
    expect(stored.payload_sealed).toBeNull();
    expect(stored.note_sealed).toBeNull();
    const entries = await audit(r.id);
    expect(entries.map((e) => e.kind)).toEqual(['creation', 'expire_by_time', 'failed_view']);
    // one statement: both entries carry the same transaction time
    expect(entries[1]!.created_at.getTime()).toBe(entries[2]!.created_at.getTime());
    expect(entries[1]).toMatchObject({ ip: null, user_agent: '', referrer: '' });
    expect(entries[2]).toMatchObject({ ip: ctx.ip, user_agent: ctx.userAgent });

    // only the first visit expires it
    const again = expectRefused(await store.visit(visitOf(r)));
    expect(again.expiredByTime).toBe(false);
    expect(again.snapshot.push.expiredOn?.getTime()).toBe(v.snapshot.push.expiredOn?.getTime());
    expect(await kinds(r.id)).toEqual(['creation', 'expire_by_time', 'failed_view', 'failed_view']);
  });

  it('refuses a passphrase-protected push without a verified passphrase, counting no view', async () => {
    const { r } = await create({ passphraseHash: 'hash', expireAfterViews: 1 });
    const v = expectRefused(await store.visit(visitOf(r, { passphraseVerified: false })));
    expect(v.reason).toBe('passphrase');
    expect(v.expiredByTime).toBe(false);
    expect(v.snapshot.push.views).toBe(0);
    expect(v.snapshot.push.expired).toBe(false);
    expect(await kinds(r.id)).toEqual(['creation', 'failed_passphrase']);
    expect((await row(r.id)).passphrase_hash).toBe('hash');

    const ok = expectViewed(await store.visit(visitOf(r, { passphraseVerified: true })));
    expect(ok.payloadSealed).toEqual(PAYLOAD);
    expect(ok.snapshot.push.views).toBe(1);
    expect(await kinds(r.id)).toEqual(['creation', 'failed_passphrase', 'view', 'expire_by_views']);
  });

  it('refuses an expired passphrase push as expired, not as a passphrase problem', async () => {
    const { r } = await create({ passphraseHash: 'hash' });
    await windowEndsIn(r.id, -5);
    const v = expectRefused(await store.visit(visitOf(r)));
    expect(v.reason).toBe('expired');
    expect(v.expiredByTime).toBe(true);
  });

  it('`open` mode never counts a view and audits `link_opened`', async () => {
    const { r } = await create({ expireAfterViews: 1 });
    for (let i = 0; i < 3; i++) {
      const v = expectOpened(await store.visit(visitOf(r, { mode: 'open', passphraseVerified: true })));
      expect(v.expiredByTime).toBe(false);
      expect(v.snapshot.push.views).toBe(0);
      expect(v.snapshot.push.expired).toBe(false);
    }
    expect(await kinds(r.id)).toEqual(['creation', 'link_opened', 'link_opened', 'link_opened']);
    const stored = await row(r.id);
    expect(stored.views).toBe(0);
    expect(stored.payload_sealed).toEqual(PAYLOAD);
  });

  it('`open` mode on a push past its window expires it by time (once)', async () => {
    const { r } = await create();
    await windowEndsIn(r.id, -1);
    const v = expectOpened(await store.visit(visitOf(r, { mode: 'open' })));
    expect(v.expiredByTime).toBe(true);
    expect(v.snapshot.push.expired).toBe(true);
    expect(expectOpened(await store.visit(visitOf(r, { mode: 'open' }))).expiredByTime).toBe(false);
    expect(await kinds(r.id)).toEqual(['creation', 'expire_by_time', 'link_opened', 'link_opened']);
  });

  it('records noise only within maxAuditEntries, counting the rest in audit_dropped; claims are always recorded', async () => {
    const { r } = await create({ expireAfterViews: 2 });
    const max = 3; // `creation` is the first
    for (let i = 0; i < 5; i++) {
      expectOpened(await store.visit(visitOf(r, { mode: 'open', maxAuditEntries: max })));
    }
    let stored = await row(r.id);
    expect(stored.audit_entries).toBe(3);
    expect(stored.audit_dropped).toBe(3);
    expect(await kinds(r.id)).toEqual(['creation', 'link_opened', 'link_opened']);

    // a claim past the cap: recorded anyway, including the expiry it causes
    expectViewed(await store.visit(visitOf(r, { maxAuditEntries: max })));
    expectViewed(await store.visit(visitOf(r, { maxAuditEntries: max })));
    // a refusal past the cap: only counted
    expectRefused(await store.visit(visitOf(r, { maxAuditEntries: max })));
    stored = await row(r.id);
    expect(await kinds(r.id)).toEqual([
      'creation',
      'link_opened',
      'link_opened',
      'view',
      'view',
      'expire_by_views',
    ]);
    expect(stored.audit_entries).toBe(6);
    expect(stored.audit_dropped).toBe(4);
  });

  it('records an expiry by time even past the cap', async () => {
    const { r } = await create();
    await windowEndsIn(r.id, -1);
    expectRefused(await store.visit(visitOf(r, { maxAuditEntries: 1 })));
    expect(await kinds(r.id)).toEqual(['creation', 'expire_by_time']);
    expect((await row(r.id)).audit_dropped).toBe(1);
  });

  it('returns undefined for an unknown token, in both modes', async () => {
    await create();
    expect(await store.visit(visitOf(record()))).toBeUndefined();
    expect(await store.visit(visitOf(record(), { mode: 'open' }))).toBeUndefined();
  });

  it('20 concurrent visits of a 3-view push: exactly 3 are viewed', async () => {
    const { r } = await create({ expireAfterViews: 3 });
    const visits = await Promise.all(Array.from({ length: 20 }, () => wideStore.visit(visitOf(r))));
    const viewed = visits.filter((v) => v?.outcome === 'viewed');
    expect(viewed).toHaveLength(3);
    expect(visits.filter((v) => v?.outcome === 'refused')).toHaveLength(17);
    for (const v of viewed) expect(v.payloadSealed).toEqual(PAYLOAD);
    expect(viewed.map((v) => v.snapshot.push.views).sort()).toEqual([1, 2, 3]);
    const stored = await row(r.id);
    expect(stored.views).toBe(3);
    expect(stored.expired).toBe(true);
    const all = await kinds(r.id);
    expect(all.filter((k) => k === 'view')).toHaveLength(3);
    expect(all.filter((k) => k === 'expire_by_views')).toHaveLength(1);
    expect(all.filter((k) => k === 'failed_view')).toHaveLength(17);
  });

  it("a file push's last view sets files_purge_after to its expiry + the grace period", async () => {
    const { r } = await create({ kind: 'file', payloadSealed: null, expireAfterViews: 1 });
    const v = expectViewed(await store.visit(visitOf(r, { fileGraceSeconds: 90 })));
    const { push } = v.snapshot;
    expect(push.expired).toBe(true);
    expect(push.filesPurgeAfter).not.toBeNull();
    expect(push.filesPurgeAfter!.getTime() - push.expiredOn!.getTime()).toBe(90_000);
    expect(push.expiredOn!.getTime()).toBe(v.snapshot.now.getTime());
    expect((await row(r.id)).files_purge_after?.getTime()).toBe(push.filesPurgeAfter!.getTime());
  });

  it("a file push's view that is not the last leaves files_purge_after unset", async () => {
    const { r } = await create({ kind: 'file', payloadSealed: null, expireAfterViews: 2 });
    const v = expectViewed(await store.visit(visitOf(r)));
    expect(v.snapshot.push.filesPurgeAfter).toBeNull();
  });

  it('a file push expired by time on a visit has its files due at once (no grace)', async () => {
    const { r } = await create({ kind: 'file', payloadSealed: null });
    await windowEndsIn(r.id, -1);
    const v = expectRefused(await store.visit(visitOf(r, { fileGraceSeconds: 600 })));
    expect(v.snapshot.push.filesPurgeAfter?.getTime()).toBe(v.snapshot.push.expiredOn?.getTime());
  });
});

describe('expireIfPastWindow', () => {
  it('leaves a push within its window alone', async () => {
    const { r } = await create();
    expect(await store.expireIfPastWindow(r.id)).toBeUndefined();
    const stored = await row(r.id);
    expect(stored.expired).toBe(false);
    expect(stored.payload_sealed).toEqual(PAYLOAD);
    expect(await kinds(r.id)).toEqual(['creation']);
  });

  it('expires a push past its window once: wiped, expired_on, `expire_by_time`', async () => {
    const { r } = await create({ passphraseHash: 'h' });
    await windowEndsIn(r.id, 0); // half-open window: at expires_at it is past
    const s = await store.expireIfPastWindow(r.id);
    expect(s?.push).toMatchObject({ id: r.id, expired: true, deleted: false });
    expect(s!.push.expiredOn?.getTime()).toBe(s!.now.getTime());
    const stored = await row(r.id);
    expect(stored.payload_sealed).toBeNull();
    expect(stored.note_sealed).toBeNull();
    expect(stored.passphrase_hash).toBeNull();
    expect(stored.audit_entries).toBe(2);
    expect(await audit(r.id)).toEqual([
      expect.objectContaining({ kind: 'creation' }),
      expect.objectContaining({ kind: 'expire_by_time', ip: null, user_agent: '', referrer: '' }),
    ]);
    expect(await store.expireIfPastWindow(r.id)).toBeUndefined();
    expect(await kinds(r.id)).toEqual(['creation', 'expire_by_time']);
  });

  it('does not touch a push already expired by views, even past its window', async () => {
    const { r } = await create({ expireAfterViews: 1 });
    expectViewed(await store.visit(visitOf(r)));
    await windowEndsIn(r.id, -10);
    expect(await store.expireIfPastWindow(r.id)).toBeUndefined();
    expect(await kinds(r.id)).toEqual(['creation', 'view', 'expire_by_views']);
  });

  it('sets a file push due for purging at once', async () => {
    const { r } = await create({ kind: 'file', payloadSealed: null });
    await windowEndsIn(r.id, -1);
    const s = await store.expireIfPastWindow(r.id);
    expect(s!.push.filesPurgeAfter?.getTime()).toBe(s!.now.getTime());
  });

  it('returns undefined for an unknown id', async () => {
    expect(await store.expireIfPastWindow(randomUUID())).toBeUndefined();
  });
});

describe('expireDueBatch', () => {
  it('expires only active pushes past their window, each once, oldest window first', async () => {
    const due: string[] = [];
    for (const seconds of [-30, -10, -20]) {
      const { r } = await create();
      await windowEndsIn(r.id, seconds);
      due.push(r.id);
    }
    const { r: live } = await create();
    const { r: viewedOut } = await create({ expireAfterViews: 1 });
    expectViewed(await store.visit(visitOf(viewedOut)));
    await windowEndsIn(viewedOut.id, -60);
    const { r: deleted } = await create();
    await store.expireManually(deleted.id, ctx);
    await windowEndsIn(deleted.id, -60);

    const first = await store.expireDueBatch(2);
    expect(first.map((s) => s.push.id)).toEqual([due[0], due[2]]);
    for (const s of first) {
      expect(s.push.expired).toBe(true);
      expect(s.push.expiredOn?.getTime()).toBe(s.now.getTime());
    }
    const second = await store.expireDueBatch(10);
    expect(second.map((s) => s.push.id)).toEqual([due[1]]);
    expect(await store.expireDueBatch(10)).toEqual([]);

    for (const id of due) {
      expect(await kinds(id)).toEqual(['creation', 'expire_by_time']);
      expect((await row(id)).payload_sealed).toBeNull();
    }
    expect((await row(live.id)).expired).toBe(false);
    expect(await kinds(viewedOut.id)).toEqual(['creation', 'view', 'expire_by_views']);
    expect(await kinds(deleted.id)).toEqual(['creation', 'expire']);
  });

  it('sets due file pushes for purging at once', async () => {
    const { r } = await create({ kind: 'file', payloadSealed: null });
    await windowEndsIn(r.id, -1);
    const [s] = await store.expireDueBatch(10);
    expect(s!.push.filesPurgeAfter?.getTime()).toBe(s!.now.getTime());
  });

  it('two concurrent batches never expire the same push twice (SKIP LOCKED)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const { r } = await create();
      ids.push(r.id);
    }
    await sql`update push set expires_at = now() - interval '1 minute'`.execute(db);

    const seen: string[] = [];
    for (let round = 0; round < 20 && seen.length < ids.length; round++) {
      const [a, b] = await Promise.all([wideStore.expireDueBatch(7), wideStore.expireDueBatch(7)]);
      seen.push(...a.map((s) => s.push.id), ...b.map((s) => s.push.id));
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...ids].sort());
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from audit_entry where kind = 'expire_by_time'`.execute(db);
    expect(Number(rows[0]!.n)).toBe(40);
  });

  it('skips a row another transaction holds instead of waiting for it', async () => {
    const { r: held } = await create();
    const { r: free } = await create();
    await sql`update push set expires_at = now() - interval '1 minute'`.execute(db);
    await db.transaction().execute(async (trx) => {
      await sql`select id from push where id = ${held.id} for update`.execute(trx);
      // Were it to wait, this fails (and the rollback releases the row) instead of hanging the file.
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('expireDueBatch waited for a locked row')), 3000);
      });
      try {
        const batch = await Promise.race([wideStore.expireDueBatch(10), waited]);
        expect(batch.map((s) => s.push.id)).toEqual([free.id]);
      } finally {
        clearTimeout(timer);
      }
    });
    expect((await store.expireDueBatch(10)).map((s) => s.push.id)).toEqual([held.id]);
  });
});

describe('expireManually', () => {
  it('expires and deletes an active push, wipes it and audits `expire` with the context', async () => {
    const { r } = await create({ passphraseHash: 'h' });
    const s = await store.expireManually(r.id, ctx);
    expect(s?.push).toMatchObject({ id: r.id, expired: true, deleted: true });
    expect(s!.push.expiredOn?.getTime()).toBe(s!.now.getTime());
    const stored = await row(r.id);
    expect(stored.payload_sealed).toBeNull();
    expect(stored.note_sealed).toBeNull();
    expect(stored.passphrase_hash).toBeNull();
    expect(await audit(r.id)).toEqual([
      expect.objectContaining({ kind: 'creation' }),
      expect.objectContaining({
        kind: 'expire',
        ip: ctx.ip,
        user_agent: ctx.userAgent,
        referrer: ctx.referrer,
      }),
    ]);
  });

  it('returns undefined when already expired (by a DELETE or by views), changing nothing', async () => {
    const { r } = await create();
    await store.expireManually(r.id, ctx);
    expect(await store.expireManually(r.id, ctx)).toBeUndefined();
    expect(await kinds(r.id)).toEqual(['creation', 'expire']);

    const { r: viewed } = await create({ expireAfterViews: 1 });
    expectViewed(await store.visit(visitOf(viewed)));
    expect(await store.expireManually(viewed.id, ctx)).toBeUndefined();
    expect((await row(viewed.id)).deleted).toBe(false);
    expect(await store.expireManually(randomUUID(), ctx)).toBeUndefined();
  });

  it('makes a file push due for purging at once', async () => {
    const { r } = await create({ kind: 'file', payloadSealed: null });
    const s = await store.expireManually(r.id, ctx);
    expect(s!.push.filesPurgeAfter?.getTime()).toBe(s!.now.getTime());
  });
});

describe('countDue', () => {
  it('counts the active pushes past their window, up to the limit', async () => {
    const due = [];
    for (let i = 0; i < 3; i++) due.push((await create()).r.id);
    for (const id of due) await windowEndsIn(id, -5);
    await create(); // within its window
    const deleted = (await create()).r.id;
    await windowEndsIn(deleted, -5);
    await store.expireManually(deleted, ctx);
    expect(await store.countDue(100)).toBe(3);
    expect(await store.countDue(2)).toBe(2);
    await store.expireDueBatch(10);
    expect(await store.countDue(100)).toBe(0);
  });

  it('walks the partial indexes: the due pushes and the due purges are found without a table scan', async () => {
    // With sequential scans off, the plan shows whether an index can serve each statement's filter.
    const plans = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const explain = async (q: ReturnType<typeof sql>) =>
        (await sql<{ 'QUERY PLAN': string }>`explain ${q}`.execute(trx)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      return {
        due: await explain(
          sql`select id from push where ${pastWindow()} order by expires_at limit 500 for update skip locked`,
        ),
        purges: await explain(sql`select id from push where not files_purged and files_purge_after <= now()
                                  order by files_purge_after limit 500 for update skip locked`),
      };
    });
    expect(plans.due).toContain('push_active_expires_at_idx');
    expect(plans.purges).toContain('push_files_purge_idx');
  });
});

describe('recordCappedAudit', () => {
  it('records within the cap, then only counts', async () => {
    const { r } = await create();
    await store.recordCappedAudit(r.id, 'file_download', ctx, 3);
    await store.recordCappedAudit(r.id, 'failed_view', ctx, 3);
    await store.recordCappedAudit(r.id, 'file_download', ctx, 3);
    await store.recordCappedAudit(r.id, 'link_opened', ctx, 3);
    const entries = await audit(r.id);
    expect(entries.map((e) => e.kind)).toEqual(['creation', 'file_download', 'failed_view']);
    expect(entries[1]).toMatchObject({ ip: ctx.ip, user_agent: ctx.userAgent, referrer: ctx.referrer });
    const stored = await row(r.id);
    expect(stored.audit_entries).toBe(3);
    expect(stored.audit_dropped).toBe(2);
  });

  it('keeps the cap exact under concurrency', async () => {
    const { r } = await create();
    await Promise.all(
      Array.from({ length: 20 }, () => wideStore.recordCappedAudit(r.id, 'file_download', ctx, 6)),
    );
    const stored = await row(r.id);
    expect(await kinds(r.id)).toHaveLength(6);
    expect(stored.audit_entries).toBe(6);
    expect(stored.audit_dropped).toBe(15);
  });
});

describe('listOwned', () => {
  it('splits active from expired, newest first, only the owner’s', async () => {
    const make = async (over: Partial<NewPushRecord> = {}) => (await create({ owner: 'user:a', ...over })).r;
    const a1 = (await make()).id;
    const gone = (await make()).id;
    const a2 = (await make()).id;
    const late = (await make()).id;
    const burnedRecord = await make({ expireAfterViews: 1 });
    const burned = burnedRecord.id;
    await create({ owner: 'user:b' });
    await create();
    await store.expireManually(gone, ctx);
    await windowEndsIn(late, -1); // past its window, not yet flagged: not active any more
    expectViewed(await store.visit(visitOf(burnedRecord)));

    const active = await store.listOwned('user:a', 'active', 1);
    expect(active.pushes.map((p) => p.push.id)).toEqual([a2, a1]);
    expect(active.pushes[0]!.secrets).toMatchObject({ keyId: 'k1', noteSealed: NOTE });
    expect(active.now).toBeInstanceOf(Date);
    const expired = await store.listOwned('user:a', 'expired', 1);
    expect(expired.pushes.map((p) => p.push.id)).toEqual([burned, late, gone]);
    expect(expired.pushes.every((p) => p.now.getTime() === expired.now.getTime())).toBe(true);

    const none = await store.listOwned('user:nobody', 'active', 1);
    expect(none.pushes).toEqual([]);
    expect(none.now).toBeInstanceOf(Date);
  });

  it(`pages by ${PAGE_SIZE}`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < PAGE_SIZE + 1; i++) ids.push((await create({ owner: 'user:many' })).r.id);
    const page1 = await store.listOwned('user:many', 'active', 1);
    const page2 = await store.listOwned('user:many', 'active', 2);
    const page3 = await store.listOwned('user:many', 'active', 3);
    expect(page1.pushes).toHaveLength(PAGE_SIZE);
    expect(page1.pushes[0]!.push.id).toBe(ids[PAGE_SIZE]);
    expect(page2.pushes.map((p) => p.push.id)).toEqual([ids[0]]);
    expect(page3.pushes).toEqual([]);
    const all = [...page1.pushes, ...page2.pushes].map((p) => p.push.id);
    expect(all).toEqual([...ids].reverse());
  });
});

describe('listAuditEntries', () => {
  it(`lists a push's entries oldest first, ${PAGE_SIZE} per page`, async () => {
    const { r } = await create();
    const other = await create();
    await store.recordCappedAudit(other.r.id, 'link_opened', ctx, 2000);
    for (let i = 0; i < PAGE_SIZE + 10; i++) {
      await store.recordCappedAudit(r.id, i % 2 === 0 ? 'link_opened' : 'file_download', ctx, 2000);
    }
    const page1 = await store.listAuditEntries(r.id, 1);
    const page2 = await store.listAuditEntries(r.id, 2);
    const page3 = await store.listAuditEntries(r.id, 3);
    expect(page1).toHaveLength(PAGE_SIZE);
    expect(page2).toHaveLength(11);
    expect(page3).toEqual([]);
    expect(page1[0]).toMatchObject({
      kind: 'creation',
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      referrer: ctx.referrer,
    });
    expect(page1[0]!.createdAt).toBeInstanceOf(Date);
    const all = [...page1, ...page2].map((e) => e.kind);
    expect(all).toEqual([
      'creation',
      ...Array.from({ length: PAGE_SIZE + 10 }, (_, i) => (i % 2 === 0 ? 'link_opened' : 'file_download')),
    ]);
    expect(await store.listAuditEntries(randomUUID(), 1)).toEqual([]);
  });
});

describe('insert with files', () => {
  const fileRecord = (pushId: string, position: number): NewFileRecord => {
    const id = randomUUID();
    return {
      id,
      position,
      objectKey: `files/${pushId}/${id}`,
      filenameSealed: Buffer.from(`name-${position}`),
      contentType: 'text/plain',
      size: 10 + position,
      keySealed: Buffer.from('key'),
    };
  };

  it('stores the files and consumes their upload intents in the same transaction', async () => {
    const files = createFileRepository(db);
    const r = record({ kind: 'file' as PushKind, payloadSealed: null });
    const recs = [fileRecord(r.id, 0), fileRecord(r.id, 1)];
    for (const f of recs) await files.insertUploadIntent(f.objectKey, r.id);
    const s = await store.insert(r, ctx, recs);
    expect(s.push.kind).toBe('file');
    expect((await files.listFiles(r.id)).map((f) => f.id)).toEqual(recs.map((f) => f.id));
    expect(await db.selectFrom('upload_intent').selectAll().execute()).toEqual([]);
  });
});

describe('insertOnce (Idempotency-Key)', () => {
  const key = (over: Partial<{ scope: string; requestHash: Buffer; ttlSeconds: number }> = {}) => ({
    scope: 'client:a',
    keyHash: Buffer.alloc(32, 7),
    requestHash: Buffer.alloc(32, 1),
    ttlSeconds: 86_400,
    ...over,
  });
  const pushCount = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from push`.execute(db)).rows[0]!.n);

  it('inserts the push and its key together; the same key then returns that push, as it is now', async () => {
    const first = record();
    const created = await store.insertOnce(first, ctx, key());
    expect(created.outcome).toBe('created');
    const again = await store.insertOnce(record(), ctx, key({ requestHash: Buffer.alloc(32, 2) }));
    expect(again.outcome).toBe('existing');
    if (again.outcome !== 'existing') return;
    expect(again.requestHash.equals(Buffer.alloc(32, 1))).toBe(true);
    expect(again.push?.push.id).toBe(first.id);
    expect(again.push?.secrets.tokenSealed.equals(first.tokenSealed)).toBe(true);
    expect(await pushCount()).toBe(1);
    // Another scope, same key hash: a push of its own.
    expect((await store.insertOnce(record(), ctx, key({ scope: 'ip:192.0.2.1' }))).outcome).toBe('created');
  });

  it('waits for a create in flight with the same key: its rollback lets this one create', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const keyInserted = new Promise<void>((r) => (inserted = r));
    const other = record();
    const inFlight = wide
      .transaction()
      .execute(async (trx) => {
        await sql`insert into idempotency_key (scope, key_hash, request_hash, push_id)
                  values ('client:a', ${Buffer.alloc(32, 7)}, ${Buffer.alloc(32, 9)}, ${other.id})`.execute(
          trx,
        );
        inserted();
        await held;
        throw new Error('the first create failed');
      })
      .catch(() => 'rolled back');
    await keyInserted;
    let settled = false;
    const mine = record();
    const waiting = wideStore.insertOnce(mine, ctx, key()).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(settled).toBe(false);
    release();
    expect(await inFlight).toBe('rolled back');
    const outcome = await waiting;
    expect(outcome.outcome).toBe('created');
    expect(await pushCount()).toBe(1);
  });

  it('takes over a key older than its lifetime', async () => {
    await store.insertOnce(record(), ctx, key());
    await sql`update idempotency_key set created_at = now() - interval '2 days'`.execute(db);
    const mine = record();
    expect((await store.insertOnce(mine, ctx, key({ requestHash: Buffer.alloc(32, 3) }))).outcome).toBe(
      'created',
    );
    const { rows } = await sql<{ push_id: string }>`select push_id from idempotency_key`.execute(db);
    expect(rows).toEqual([{ push_id: mine.id }]);
  });

  it('purges a few expired keys of other scopes with each keyed create', async () => {
    for (let i = 0; i < 12; i++) await store.insertOnce(record(), ctx, key({ scope: `client:${i}` }));
    await sql`update idempotency_key set created_at = now() - interval '2 days'`.execute(db);
    await store.insertOnce(record(), ctx, key({ scope: 'client:new' }));
    const { rows } = await sql<{ n: string }>`select count(*) as n from idempotency_key`.execute(db);
    expect(Number(rows[0]!.n)).toBe(12 - 10 + 1);
  });

  it('keeps no key when the push cannot be inserted', async () => {
    const taken = record();
    await store.insert(taken, ctx);
    // The same push id again: the insert fails, and the key's row goes with it.
    await expect(store.insertOnce(record({ id: taken.id }), ctx, key())).rejects.toThrow();
    const { rows } = await sql<{ n: string }>`select count(*) as n from idempotency_key`.execute(db);
    expect(Number(rows[0]!.n)).toBe(0);
  });
});
