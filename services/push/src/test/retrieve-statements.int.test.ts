import { randomBytes, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import { closeRedis, createRedis } from '@secret-push/redis-kit';
import {
  REDIS_URL,
  deleteRedisKeys,
  freshDatabase,
  type LocalS3,
  startS3,
  uniquePrefix,
} from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { loadPushConfig } from '../config';
import { PassphraseRejected, PushNotFound } from '../domain/errors';
import { createFileService } from '../domain/file-service';
import type { NewPush } from '../domain/push';
import { type PushService, createPushService } from '../domain/push-service';
import { createS3ObjectStore } from '../files/object-store';
import { createPassphraseLimiter } from '../http/rate-limits';
import { DownloadLinkSigner } from '../security/download-link';
import { KeyRing } from '@secret-push/key-ring';
import { generateUrlToken } from '../security/url-token';
import type { PushDatabase } from '../storage/database';
import { createFileRepository } from '../storage/file.repository';
import { pushMigrations } from '../storage/migrations';
import { createPushRepository } from '../storage/push.repository';
import { createEmailRepository } from '../storage/email.repository';
import { testEncryptionKey } from '../testing';

// How many SQL statements a retrieve runs, counted by Kysely's query log on a real database: at
// most two on the happy path and on every refusal (one for the common case without a passphrase).

const ctx = { ip: '192.0.2.7', userAgent: 'statements-test', referrer: '' };

let database: Awaited<ReturnType<typeof freshDatabase<PushDatabase>>>;
let db: Kysely<PushDatabase>;
let s3: LocalS3;
let service: PushService;
let statements: string[] = [];
const prefix = uniquePrefix('stmts');
const prepared = new Set<string>();
const redis = createRedis(REDIS_URL, createLogger({ name: 't', level: 'silent' }));

beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('stmts', pushMigrations);
  s3 = await startS3();
  db = createKysely<PushDatabase>({
    url: database.url,
    poolSize: 2,
    // The first words of each statement, after the marker of a named prepared statement if any
    // (recorded apart: the hot statements must stay prepared).
    onQuery: (text) => {
      const marker = /^\/\*prepared:(\w+)\*\/\s*/.exec(text.trim());
      if (marker) prepared.add(marker[1]!);
      statements.push(
        text
          .trim()
          .slice(marker?.[0].length ?? 0)
          .split(/\s+/)
          .slice(0, 3)
          .join(' '),
      );
    },
  });
  const config = loadPushConfig({
    PUSH_DATABASE_URL: database.url,
    PUSH_REDIS_URL: REDIS_URL,
    PUSH_AUTH_URL: 'http://127.0.0.1:1',
    PUSH_INTROSPECTION_CLIENT_ID: 'unused',
    PUSH_INTROSPECTION_CLIENT_SECRET: 'unused',
    PUSH_ENCRYPTION_KEYS: testEncryptionKey(),
    ...s3.env,
  });
  const keyRing = new KeyRing(config.encryptionKeys);
  const store = createPushRepository(db);
  const files = createFileService({
    files: createFileRepository(db),
    pushes: store,
    keyRing,
    store: createS3ObjectStore(config.s3!),
    signer: new DownloadLinkSigner(config.encryptionKeys),
    publicUrl: 'http://127.0.0.1:3000',
    graceSeconds: 600,
    downloadsPerView: 3,
    maxAuditEntries: 2000,
  });
  service = createPushService({
    store,
    keyRing,
    files,
    fileGraceSeconds: 600,
    passphraseLimiter: createPassphraseLimiter(redis, { prefix, perPush: 100, perIp: 100 }),
    events: { created() {}, viewed() {}, expired() {} },
    maxAuditEntries: 2000,
  });
});

afterAll(async () => {
  await db.destroy();
  await database.drop();
  await s3.close();
  await deleteRedisKeys(REDIS_URL, prefix);
  await closeRedis(redis);
});

const input = (over: Partial<NewPush> = {}): NewPush => ({
  kind: 'text',
  payload: 'the secret',
  ttlSeconds: 3600,
  expireAfterDays: 1,
  expireAfterViews: 1,
  deletableByViewer: null,
  retrievalStep: false,
  passphrase: null,
  name: null,
  note: null,
  ...over,
});

async function created(over: Partial<NewPush> = {}): Promise<string> {
  return (await service.create(input(over), { owner: null, audit: ctx })).urlToken;
}

/** The statements a retrieve ran (after any set-up), and its outcome or error name. */
async function counted(
  token: string,
  passphrase?: string,
): Promise<{ statements: string[]; outcome: string }> {
  statements = [];
  const outcome = await service.retrieve(token, passphrase, ctx).then(
    (r) => r.outcome,
    (err: Error) => err.name,
  );
  return { statements, outcome };
}

const counts: [string, number][] = [];
afterAll(() => {
  // The figures for the record (the closing note and docs/architecture.md cite them).
  console.log(counts.map(([name, n]) => `${n} statement(s): ${name}`).join('\n'));
});

describe('a retrieve runs at most two SQL statements', () => {
  it.each([
    [
      'happy path, no passphrase',
      async () => ({ token: await created({ expireAfterViews: 3 }) }),
      'viewed',
      1,
    ],
    [
      'the last view of a 2-view push',
      async () => {
        const token = await created({ expireAfterViews: 2 });
        await service.retrieve(token, undefined, ctx);
        return { token };
      },
      'viewed',
      1,
    ],
    ['unknown token', () => Promise.resolve({ token: generateUrlToken() }), PushNotFound.name, 2],
    [
      'already used up',
      async () => {
        const token = await created();
        await service.retrieve(token, undefined, ctx);
        return { token };
      },
      'expired',
      2,
    ],
    [
      'past its window (expired by this read)',
      async () => {
        const made = await service.create(input(), { owner: null, audit: ctx });
        await sql`update push set expires_at = now() - interval '1 second' where id = ${made.snapshot.push.id}`.execute(
          db,
        );
        return { token: made.urlToken };
      },
      'expired',
      2,
    ],
    [
      'passphrase missing',
      async () => ({ token: await created({ passphrase: 'right' }) }),
      PassphraseRejected.name,
      2,
    ],
    [
      'passphrase wrong',
      async () => ({ token: await created({ passphrase: 'right' }), passphrase: 'wrong' }),
      PassphraseRejected.name,
      2,
    ],
    [
      'passphrase right',
      async () => ({ token: await created({ passphrase: 'right' }), passphrase: 'right' }),
      'viewed',
      2,
    ],
    [
      'passphrase given for an expired push',
      async () => {
        const token = await created({ passphrase: 'right' });
        await service.retrieve(token, 'right', ctx);
        return { token, passphrase: 'right' };
      },
      'expired',
      2,
    ],
    [
      'file push, happy path (its file rows come with the claim)',
      async () => {
        const pushId = randomUUID();
        const fileId = randomUUID();
        const objectKey = `files/${pushId}/${fileId}`;
        await createFileRepository(db).insertUploadIntent(objectKey, pushId);
        const upload = {
          fileId,
          objectKey,
          filename: 'a.txt',
          contentType: 'text/plain',
          size: 3,
          key: randomBytes(32),
        };
        const made = await service.create(input({ kind: 'file', payload: null }), {
          owner: 'client:x',
          audit: ctx,
          files: { pushId, uploads: [upload] },
        });
        return { token: made.urlToken };
      },
      'viewed',
      1,
    ],
  ] as const)('%s', async (name, setUp, outcome, expected) => {
    const { token, passphrase } = (await setUp()) as { token: string; passphrase?: string };
    const run = await counted(token, passphrase);
    expect(run.outcome).toBe(outcome);
    expect(run.statements).toHaveLength(expected);
    expect(run.statements.length).toBeLessThanOrEqual(2);
    counts.push([name, run.statements.length]);
  });
});

describe('the statements of a create', () => {
  const createCounted = async (key?: string, over: Partial<NewPush> = {}) => {
    statements = [];
    const result = await service.create(input(over), {
      owner: null,
      audit: ctx,
      ...(key === undefined ? {} : { idempotency: { scope: 'ip:192.0.2.7', key } }),
    });
    return { statements, replayed: result.replayed };
  };

  it('by an owner without webhooks, one statement; with an enabled one, still one (its push wants events)', async () => {
    const owned = async (owner: string) => {
      statements = [];
      const made = await service.create(input(), { owner, audit: ctx });
      return { statements, id: made.snapshot.push.id };
    };
    const without = await owned('user:no-webhooks');
    expect(without.statements).toHaveLength(1);
    await sql`insert into webhook_endpoint (owner, url, event_types, key_id, secret_sealed)
      values ('user:with-webhooks', 'https://hooks.example/x', '{push.viewed}', 'k', '\\x00')`.execute(db);
    const withHook = await owned('user:with-webhooks');
    expect(withHook.statements).toHaveLength(1);
    const flags = await db
      .selectFrom('push')
      .select(['id', 'outbox'])
      .where('id', 'in', [without.id, withHook.id])
      .execute();
    expect(Object.fromEntries(flags.map((f) => [f.id, f.outbox]))).toEqual({
      [without.id]: false,
      [withHook.id]: true,
    });
    // Leaves nothing for the outbox checks below (they count every event written).
    await sql`delete from push_event where push_id = ${withHook.id}`.execute(db);
    await sql`delete from webhook_endpoint`.execute(db);
  });

  it('runs one statement without an Idempotency-Key', async () => {
    const run = await createCounted();
    expect(run.statements).toHaveLength(1);
    counts.push(['create without a key', 1]);
  });

  it('takes the key and inserts the push in one transaction; a replay reads instead of inserting', async () => {
    const key = randomUUID();
    const first = await createCounted(key);
    expect(first.replayed).toBe(false);
    expect(first.statements).toEqual([
      'begin',
      expect.stringMatching(/^with "purge" as/),
      'with p as',
      'commit',
    ]);
    const again = await createCounted(key);
    expect(again.replayed).toBe(true);
    expect(again.statements).toEqual([
      'begin',
      expect.stringMatching(/^with "purge" as/),
      'select "p".*, "k"."request_hash"',
      'commit',
    ]);
  });
});

describe('the outbox (domain/outbox.ts): a push nobody listens to costs no statement and no row', () => {
  const eventRows = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from push_event`.execute(db)).rows[0]!.n);

  it('wrote no event for any create or retrieve above (nobody listens to them)', async () => {
    expect(await eventRows()).toBe(0);
  });

  it('a push that is listened to: the same single statements, each also writing its events', async () => {
    statements = [];
    const made = await service.create(input({ expireAfterViews: 1 }), {
      owner: 'user:00000000-0000-0000-0000-000000000001',
      audit: ctx,
      listeners: { ownerNotices: true },
    });
    expect(statements).toHaveLength(1);
    const run = await counted(made.urlToken);
    expect(run.outcome).toBe('viewed');
    expect(run.statements).toHaveLength(1);
    // creation, view, expire_by_views
    expect(await eventRows()).toBe(3);
    await sql`delete from push_event`.execute(db);
  });
});

describe('email (issue 26): a create without email is still one statement, with email on', () => {
  const emailRows = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from push_email`.execute(db)).rows[0]!.n);
  const withEmail = () =>
    createPushService({
      store: createPushRepository(db),
      keyRing: new KeyRing([{ id: 'k1', key: Buffer.alloc(32, 7) }]),
      fileGraceSeconds: 600,
      passphraseLimiter: createPassphraseLimiter(redis, { prefix, perPush: 100, perIp: 100 }),
      events: { created() {}, viewed() {}, expired() {} },
      maxAuditEntries: 2000,
      emailStore: createEmailRepository(db),
      email: { enabled: true, dailyLimit: 500 },
    });
  // A person with a verified address and no notice defaults: nobody listens, nothing is emailed.
  const person = { userId: randomUUID(), verifiedEmail: 'p@example.org', noticeDefaults: [] };

  it('a person’s create and its retrieve: one statement each, no email row, no event', async () => {
    const emailing = withEmail();
    statements = [];
    const made = await emailing.create(input(), {
      owner: `user:${person.userId}`,
      audit: ctx,
      sender: person,
    });
    expect(statements).toHaveLength(1);
    statements = [];
    expect((await emailing.retrieve(made.urlToken, undefined, ctx)).outcome).toBe('viewed');
    expect(statements).toHaveLength(1);
    expect(await emailRows()).toBe(0);
    expect((await sql<{ n: string }>`select count(*) as n from push_event`.execute(db)).rows[0]!.n).toBe('0');
    counts.push(['create by a person, email on, nobody listening', 1]);
  });

  it('a create with recipients: one transaction (push, its email settings, cap, entry + batch + emails)', async () => {
    statements = [];
    await withEmail().create(
      input({
        email: {
          send: { recipients: ['a@example.org', 'b@example.org'], locale: null, includeSender: false },
          noticeOn: null,
        },
      }),
      { owner: `user:${person.userId}`, audit: ctx, sender: person },
    );
    expect(statements).toEqual([
      'begin',
      'with p as',
      'update "push" set',
      'select pg_advisory_xact_lock(hashtextextended($1, 0))',
      'select count(*)::int as',
      'with counted as',
      'commit',
    ]);
    expect(await emailRows()).toBe(2);
    await sql`delete from push_email`.execute(db);
  });
});

it('sends the hot statements (create, claim, visit) as named prepared statements', () => {
  // Set by the runs above: planning them once per connection instead of on every request is
  // most of what the database spends less per request (docs/operations.md, "Prepared statements").
  expect([...prepared].sort()).toEqual(['push_claim', 'push_insert', 'push_visit']);
});
