import { randomBytes, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import { freshDatabase, type TestDatabase } from '@secret-push/testing';
import type { OutboxEvent } from '../domain/outbox';
import type { NewPushRecord, PushStore, Visit } from '../domain/ports/push-store';
import type { PushDatabase } from './database';
import { pushMigrations } from './migrations';
import { createOutboxRepository } from './outbox.repository';
import { createPushRepository } from './push.repository';

// The outbox over the real statements: every audited change of a push that wants events yields
// its event in the same statement; a push that does not want them yields none; drained rounds hand
// every event over at least once, never skip one committed out of order, and lose nothing when a
// round dies.

let database: TestDatabase<PushDatabase>;
let db: Kysely<PushDatabase>;
let store: PushStore;
const outbox = () => createOutboxRepository(db);
const ctx = { ip: '192.0.2.9', userAgent: 'outbox-test', referrer: '' };

beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('outbox', pushMigrations);
  db = database.db;
  store = createPushRepository(db);
});
afterAll(() => database.drop());
beforeEach(async () => {
  await sql`truncate push, audit_entry, push_event, push_file, upload_intent, file_download, idempotency_key, push_email_batch, push_email, request, request_audit_entry, request_file, request_answer_code`.execute(
    db,
  );
});

async function create(over: Partial<NewPushRecord> = {}): Promise<{ id: string; tokenHash: Buffer }> {
  const id = randomUUID();
  const tokenHash = randomBytes(32);
  await store.insert(
    {
      id,
      tokenHash,
      tokenSealed: Buffer.from('t'),
      keyId: 'k',
      kind: 'text',
      owner: 'user:00000000-0000-0000-0000-000000000001',
      name: null,
      payloadSealed: Buffer.from('payload'),
      noteSealed: null,
      passphraseHash: null,
      expireAfterDays: 1,
      expireAfterViews: 2,
      ttlSeconds: 86_400,
      deletableByViewer: null,
      retrievalStep: false,
      outbox: true,
      ...over,
    },
    ctx,
  );
  return { id, tokenHash };
}

const visit = (tokenHash: Buffer, over: { passphraseVerified?: boolean; likelyViewable?: boolean } = {}) =>
  store.visit({
    tokenHash,
    ctx,
    mode: 'view',
    passphraseVerified: over.passphraseVerified ?? false,
    likelyViewable: over.likelyViewable ?? true,
    fileGraceSeconds: 60,
    maxAuditEntries: 2000,
  }) as Promise<Visit>;

/** The events written, oldest first, with the audit entry each points at. */
async function events(pushId?: string) {
  const rows = await db
    .selectFrom('push_event as e')
    .leftJoin('audit_entry as a', 'a.id', 'e.audit_id')
    .select(['e.id', 'e.push_id', 'e.kind', 'a.kind as audit_kind'])
    .$if(pushId !== undefined, (q) => q.where('e.push_id', '=', pushId!))
    .orderBy('e.seq')
    .execute();
  return rows;
}
const kinds = async (pushId?: string) => (await events(pushId)).map((e) => e.kind);

describe('each audited change of a push that wants events is an event, written with it', () => {
  test('creation, views and the last view', async () => {
    const p = await create();
    await visit(p.tokenHash);
    await visit(p.tokenHash);
    const written = await events(p.id);
    expect(written.map((e) => e.kind)).toEqual(['creation', 'view', 'view', 'expire_by_views']);
    for (const e of written) expect(e.audit_kind).toBe(e.kind); // each points at its own entry
    expect(new Set(written.map((e) => e.id)).size).toBe(4);
  });

  test('the full visit statement: a view refused for a passphrase and a push found past its window', async () => {
    const locked = await create({ passphraseHash: 'x' });
    await visit(locked.tokenHash, { likelyViewable: false });
    expect(await kinds(locked.id)).toEqual(['creation', 'failed_passphrase']);

    const late = await create();
    await sql`update push set expires_at = now() - interval '1 second' where id = ${late.id}`.execute(db);
    await visit(late.tokenHash, { likelyViewable: false });
    // failed_view (the refusal) is audited but is no event
    expect(await kinds(late.id)).toEqual(['creation', 'expire_by_time']);
  });

  test('the capped entries: failed_passphrase and file_download are events, link_opened is not', async () => {
    const p = await create();
    await store.recordCappedAudit(p.id, 'failed_passphrase', ctx, 2000);
    await store.recordCappedAudit(p.id, 'file_download', ctx, 2000);
    await store.recordCappedAudit(p.id, 'link_opened', ctx, 2000);
    expect(await kinds(p.id)).toEqual(['creation', 'failed_passphrase', 'file_download']);
  });

  test('expiries: by the owner, by the worker, by account deletion', async () => {
    const a = await create();
    await store.expireManually(a.id, ctx);
    const b = await create();
    await sql`update push set expires_at = now() - interval '1 second' where id = ${b.id}`.execute(db);
    await store.expireDueBatch(10);
    const c = await create({ owner: 'user:00000000-0000-0000-0000-000000000002' });
    await store.expireAllOwned('user:00000000-0000-0000-0000-000000000002', ctx);
    expect(await kinds(a.id)).toEqual(['creation', 'expire']);
    expect(await kinds(b.id)).toEqual(['creation', 'expire_by_time']);
    expect(await kinds(c.id)).toEqual(['creation', 'expire']);
  });

  test('a refunded view is a view_refunded event pointing at the refunded entry', async () => {
    const p = await create({ expireAfterViews: 1 });
    const v = await visit(p.tokenHash);
    if (v.outcome !== 'viewed') throw new Error('not viewed');
    expect(await store.refundView({ pushId: p.id, viewId: v.viewId, before: v.before })).toBe(true);
    const written = await events(p.id);
    // expire_by_views stays an event that happened (the refund undoes it: consumers see both)
    expect(written.map((e) => e.kind)).toEqual(['creation', 'view', 'expire_by_views', 'view_refunded']);
    expect(written[3]!.audit_kind).toBe('view_refunded');
  });

  test('a push that wants no events yields none, whatever happens to it', async () => {
    const p = await create({ outbox: false, expireAfterViews: 1, passphraseHash: null });
    await visit(p.tokenHash);
    await visit(p.tokenHash, { likelyViewable: false });
    await store.recordCappedAudit(p.id, 'file_download', ctx, 2000);
    const q = await create({ outbox: false });
    await store.expireManually(q.id, ctx);
    expect(await events()).toEqual([]);
  });
});

describe('draining', () => {
  test('hands every event over once, oldest first, then deletes it', async () => {
    const p = await create();
    await visit(p.tokenHash);
    const seen: OutboxEvent[] = [];
    expect(await outbox().drain(10, (e) => Promise.resolve(void seen.push(...e)))).toBe(2);
    expect(seen.map((e) => e.kind)).toEqual(['creation', 'view']);
    expect(seen[0]).toMatchObject({ pushId: p.id, id: expect.any(String), auditId: expect.any(String) });
    expect(await outbox().drain(10, () => Promise.resolve())).toBe(0);
    expect(await outbox().oldestAgeSeconds()).toBe(0);
  });

  test('a round whose consumer fails deletes nothing: the same events (same ids) come again', async () => {
    await create();
    await create();
    const first: string[] = [];
    await expect(
      outbox().drain(10, (e) => {
        first.push(...e.map((x) => x.id));
        return Promise.reject(new Error('consumer down'));
      }),
    ).rejects.toThrow('consumer down');
    const again: string[] = [];
    await outbox().drain(10, (e) => Promise.resolve(void again.push(...e.map((x) => x.id))));
    expect(again).toEqual(first);
    expect(again).toHaveLength(2);
  });

  test('a round whose process dies (its connection killed mid-round) loses nothing', async () => {
    await create();
    const doomed = createKysely<PushDatabase>({ url: database.url, poolSize: 1 });
    const pid = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(doomed);
    const round = createOutboxRepository(doomed).drain(10, async () => {
      await sql`select pg_terminate_backend(${pid.rows[0]!.pid})`.execute(db);
      await new Promise((r) => setTimeout(r, 200));
    });
    await expect(round).rejects.toThrow();
    await doomed.destroy().catch(() => undefined);
    const after: string[] = [];
    await outbox().drain(10, (e) => Promise.resolve(void after.push(...e.map((x) => x.kind))));
    expect(after).toEqual(['creation']);
  });

  test('an event committed after a later one (its seq taken first) is not skipped', async () => {
    // T1 takes a seq and holds its commit; T2 takes the next seq and commits; a round runs; T1 commits.
    const slow = createKysely<PushDatabase>({ url: database.url, poolSize: 1 });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let taken!: () => void;
    const seqTaken = new Promise<void>((r) => (taken = r));
    const t1 = slow.transaction().execute(async (trx) => {
      await createPushRepository(trx).insert(
        {
          id: randomUUID(),
          tokenHash: randomBytes(32),
          tokenSealed: Buffer.from('t'),
          keyId: 'k',
          kind: 'text',
          owner: null,
          name: 'first',
          payloadSealed: Buffer.from('p'),
          noteSealed: null,
          passphraseHash: null,
          expireAfterDays: 1,
          expireAfterViews: 1,
          ttlSeconds: 3600,
          deletableByViewer: null,
          retrievalStep: false,
          outbox: true,
        },
        ctx,
      );
      taken();
      await held;
    });
    await seqTaken;
    const second = await create({ name: 'second' });
    const seen: (string | null)[] = [];
    const handle = (e: readonly OutboxEvent[]) => Promise.resolve(void seen.push(...e.map((x) => x.pushId)));
    await outbox().drain(10, handle);
    expect(seen).toEqual([second.id]);
    release();
    await t1;
    await slow.destroy();
    await outbox().drain(10, handle);
    expect(seen).toHaveLength(2);
    expect(await events()).toEqual([]);
  });

  test('concurrent writers and concurrent rounds: every event is handed over, none twice', async () => {
    const written = Array.from({ length: 12 }, () => create({ expireAfterViews: 3 }));
    const pushes = await Promise.all(written);
    const seen: string[] = [];
    const handle = async (e: readonly OutboxEvent[]) => {
      await new Promise((r) => setTimeout(r, 5));
      seen.push(...e.map((x) => x.id));
    };
    let writing = true;
    const rounds = Promise.all(
      [0, 1, 2].map(async () => {
        while (writing) await outbox().drain(7, handle);
      }),
    );
    await Promise.all(pushes.flatMap((p) => [visit(p.tokenHash), visit(p.tokenHash), visit(p.tokenHash)]));
    writing = false;
    await rounds;
    while ((await outbox().drain(50, handle)) > 0);
    // 12 × (creation + 3 views + expire_by_views)
    expect(seen).toHaveLength(12 * 5);
    expect(new Set(seen).size).toBe(seen.length);
    const audited = await db
      .selectFrom('audit_entry')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(audited.n)).toBe(12 * 5);
  });
});
