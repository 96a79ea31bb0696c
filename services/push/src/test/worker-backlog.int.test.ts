import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import { createLogger } from '@secret-push/logger';
import {
  REDIS_URL,
  deleteRedisKeys,
  freshDatabase,
  type TestDatabase,
  uniquePrefix,
} from '@secret-push/testing';
import { createPushService } from '../domain/push-service';
import type { NewPush } from '../domain/push';
import { KeyRing } from '@secret-push/key-ring';
import type { PushDatabase } from '../storage/database';
import { pushMigrations } from '../storage/migrations';
import { testEncryptionKey } from '../testing';
import { createPushRepository } from '../storage/push.repository';
import { startWorker } from '../worker-server';
import { loadWorkerConfig } from '../config';

// A backlog as after an outage: 50,000 pushes past their window when the worker starts. It is
// drained in batches (PUSH_SWEEP_BATCH_SIZE statements, SKIP LOCKED) while retrieves run on
// sessions with lock_timeout = 100ms: a retrieve that had to wait longer for a lock would fail.

jest.setTimeout(180_000);

const BACKLOG = 50_000;
const BATCH = 500; // the default PUSH_SWEEP_BATCH_SIZE
const ctx = { ip: null, userAgent: 'backlog-test', referrer: '' };

let database: TestDatabase<PushDatabase>;
let impatient: Kysely<PushDatabase>;
const prefix = uniquePrefix('backlog');

beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('backlog', pushMigrations);
  const url = new URL(database.url);
  url.searchParams.set('options', '-c lock_timeout=100ms');
  impatient = createKysely<PushDatabase>({ url: url.toString(), poolSize: 8 });
});
afterAll(async () => {
  await impatient.destroy();
  await database.drop();
  await deleteRedisKeys(REDIS_URL, prefix);
});

const input = (expireAfterViews: number): NewPush => ({
  kind: 'text',
  payload: 'a secret',
  ttlSeconds: 86_400,
  expireAfterDays: 1,
  expireAfterViews,
  deletableByViewer: null,
  retrievalStep: false,
  passphrase: null,
  name: null,
  note: null,
});

it('drains 50,000 due pushes in short batches; retrieves meanwhile never wait 100 ms for a lock', async () => {
  const { rows: setting } = await sql<{ lock_timeout: string }>`show lock_timeout`.execute(impatient);
  expect(setting[0]!.lock_timeout).toBe('100ms');

  const keyRing = new KeyRing([{ id: 'k', key: randomBytes(32) }]);
  const service = (db: Kysely<PushDatabase>) =>
    createPushService({
      store: createPushRepository(db),
      keyRing,
      passphraseLimiter: { consume: () => Promise.resolve() },
      events: { created() {}, viewed() {}, expired() {} },
      maxAuditEntries: 2000,
      fileGraceSeconds: 600,
    });
  const creator = service(database.db);
  const reader = service(impatient);

  // Pushes the retrieves read: 200 within their window, 100 in the backlog (past their window).
  const active: string[] = [];
  for (let i = 0; i < 200; i++) {
    active.push((await creator.create(input(100), { owner: null, audit: ctx })).urlToken);
  }
  const dueTokens: string[] = [];
  const dueIds: string[] = [];
  for (let i = 0; i < 100; i++) {
    const created = await creator.create(input(5), { owner: null, audit: ctx });
    dueTokens.push(created.urlToken);
    dueIds.push(created.snapshot.push.id);
  }
  await sql`update push set expires_at = now() - interval '1 hour' where id = any(${dueIds})`.execute(
    database.db,
  );
  // The rest of the backlog, due over the last hour.
  await sql`
    insert into push (id, token_hash, token_sealed, key_id, kind, payload_sealed, expire_after_days,
                      expire_after_views, expires_at, retrieval_step, audit_entries)
    select gen_random_uuid(), sha256(convert_to('backlog-' || i, 'UTF8')), '\\x00', 'k', 'text', '\\x01', 1, 5,
           now() - make_interval(secs => random() * 3600), false, 0
    from generate_series(1, ${BACKLOG - dueIds.length}) as i`.execute(database.db);
  await sql`analyze push`.execute(database.db);

  // Retrieves during the drain: 4 loops, each a random active push or a random backlog push.
  let draining = true;
  const outcomes = { viewed: 0, expired: 0 };
  const failures: string[] = [];
  const loop = async () => {
    while (draining) {
      const fromBacklog = Math.random() < 0.3;
      const pool = fromBacklog ? dueTokens : active;
      const token = pool[Math.floor(Math.random() * pool.length)]!;
      try {
        const r = await reader.retrieve(token, undefined, ctx);
        outcomes[r.outcome]++;
        if (fromBacklog !== (r.outcome === 'expired')) {
          failures.push(`${r.outcome} (a push ${fromBacklog ? 'past' : 'within'} its window)`);
        }
      } catch (err) {
        failures.push((err as Error).message);
      }
    }
  };

  const worker = await startWorker(
    loadWorkerConfig({
      LOG_LEVEL: 'silent',
      PUSH_DATABASE_URL: database.url,
      PUSH_REDIS_URL: REDIS_URL,
      PUSH_REDIS_PREFIX: prefix,
      PUSH_WORKER_PORT: '0',
      PUSH_ENCRYPTION_KEYS: testEncryptionKey(),
    }),
    createLogger({ name: 'worker', level: 'silent' }),
  );
  const started = Date.now();
  const loops = Array.from({ length: 4 }, loop);
  let drainedMs: number | undefined;
  try {
    const store = createPushRepository(database.db);
    while (Date.now() - started < 120_000) {
      if ((await store.countDue(1)) === 0) {
        drainedMs = Date.now() - started;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    draining = false;
    await Promise.all(loops);
    await worker.close();
  }
  console.log(
    `backlog of ${BACKLOG} drained in ${drainedMs} ms; retrieves meanwhile: ${outcomes.viewed} viewed, ${outcomes.expired} refused as expired, ${failures.length} failed`,
  );
  expect(drainedMs).toBeDefined();
  expect(failures).toEqual([]);
  expect(outcomes.viewed + outcomes.expired).toBeGreaterThan(100);

  // Exactly once: every push of the backlog expired, one expire_by_time entry each.
  const { rows: counts } = await sql<{ expired: number; audited: number; twice: number; active: number }>`
    select (select count(*)::int from push where expired) as expired,
           (select count(*)::int from audit_entry where kind = 'expire_by_time') as audited,
           (select count(*)::int from (select push_id from audit_entry where kind = 'expire_by_time'
                                       group by push_id having count(*) > 1) t) as twice,
           (select count(*)::int from push where not expired) as active`.execute(database.db);
  expect(counts[0]).toEqual({ expired: BACKLOG, audited: BACKLOG, twice: 0, active: active.length });

  // In batches: the worker's statements expire at most BATCH pushes each (one now() per statement).
  const { rows: batches } = await sql<{ statements: number; largest: number }>`
    select count(*)::int as statements, max(n)::int as largest
    from (select expired_on, count(*) as n from push where expired group by expired_on) b`.execute(
    database.db,
  );
  expect(batches[0]!.largest).toBeLessThanOrEqual(BATCH);
  expect(batches[0]!.statements).toBeGreaterThanOrEqual(BACKLOG / BATCH);
});
