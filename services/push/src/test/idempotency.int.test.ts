import { createHash, randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { sql } from 'kysely';
import { type LocalS3, startS3 } from '@secret-push/testing';
import { type TestPush, startPush } from '../testing';
import { type Harness, bearer, harness } from './support/helpers';

// Idempotent creates (Idempotency-Key) against the real services: PostgreSQL, Redis, the auth
// service and, for file pushes, a private s3rver.
jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await harness({
    env: {
      // Anonymous scopes are per client IP: X-Forwarded-For sets it behind this trusted proxy.
      PUSH_TRUSTED_PROXIES: '127.0.0.1/32',
      PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '100000',
    },
  });
});
afterAll(() => h.stop());

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

function create(
  target: { url: string },
  fields: Record<string, unknown>,
  key: string | undefined,
  opts: { token?: string; ip?: string } = {},
) {
  const req = request(target.url).post('/api/v2/pushes.json');
  if (key !== undefined) void req.set('Idempotency-Key', key);
  if (opts.token) void req.set(bearer(opts.token));
  if (opts.ip) void req.set('X-Forwarded-For', opts.ip);
  return req.send({ push: fields });
}

const countPushes = async (push: TestPush = h.push, name?: string) =>
  Number(
    (
      await sql<{
        n: string;
      }>`select count(*) as n from push where ${name === undefined} or name = ${name ?? ''}`.execute(push.db)
    ).rows[0]!.n,
  );

describe('POST /api/v2/pushes with an Idempotency-Key', () => {
  it('replays the same push for the same request, whatever the order of the fields, and creates nothing', async () => {
    const key = randomUUID();
    const name = `replay-${key}`;
    const fields = { payload: 'hunter2', expire_after_views: 3, name, note: 'for ops', passphrase: 'pw' };
    const first = await create(h.push, fields, key, { token: h.token });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    // Same input, keys in another order and values spelled differently.
    const again = await create(
      h.push,
      { passphrase: 'pw', note: 'for ops', name, expire_after_views: '3', payload: 'hunter2' },
      key,
      { token: h.token },
    );
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countPushes(h.push, name)).toBe(1);

    // Expired since: the replay shows the push as it is now, still 201.
    await request(h.push.url).delete(`/api/v2/pushes/${first.body.url_token}`).set(bearer(h.token));
    const later = await create(h.push, fields, key, { token: h.token });
    expect(later.status).toBe(201);
    expect(later.body).toMatchObject({ url_token: first.body.url_token, expired: true, deleted: true, name });
    expect(await countPushes(h.push, name)).toBe(1);
  });

  it('refuses the same key with another request (422 idempotency_key_reused) and creates nothing', async () => {
    const key = randomUUID();
    const name = `reuse-${key}`;
    expect((await create(h.push, { payload: 'a', name }, key, { token: h.token })).status).toBe(201);
    const other = await create(h.push, { payload: 'b', name }, key, { token: h.token });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      error: expect.stringContaining('Idempotency-Key') as string,
      code: 'idempotency_key_reused',
      request_id: expect.any(String) as string,
    });
    expect(await countPushes(h.push, name)).toBe(1);
  });

  it('makes exactly one push out of 20 concurrent creates with one key', async () => {
    const key = randomUUID();
    const name = `race-${key}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => create(h.push, { payload: 'race', name }, key, { token: h.token })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.body.url_token as string)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await countPushes(h.push, name)).toBe(1);
  });

  it('scopes keys per client, and per IP for anonymous creates', async () => {
    const key = randomUUID();
    const name = `scope-${key}`;
    const otherToken = await h.auth.token(await h.auth.createClient('pushes:read pushes:write'));
    const fields = { payload: 'same', name };
    const mine = await create(h.push, fields, key, { token: h.token });
    const theirs = await create(h.push, fields, key, { token: otherToken });
    const anonA = await create(h.push, fields, key, { ip: '203.0.113.1' });
    const anonB = await create(h.push, fields, key, { ip: '203.0.113.2' });
    const anonAAgain = await create(h.push, fields, key, { ip: '203.0.113.1' });
    for (const r of [mine, theirs, anonA, anonB, anonAAgain]) expect(r.status).toBe(201);
    const tokens = [mine, theirs, anonA, anonB].map((r) => r.body.url_token as string);
    expect(new Set(tokens).size).toBe(4);
    expect(anonAAgain.body.url_token).toBe(anonA.body.url_token);
    expect(await countPushes(h.push, name)).toBe(4);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with a space', 'a b'],
    ['not ASCII', 'clé'],
  ])('refuses a key that is %s (400 naming the header)', async (_what, key) => {
    const name = `bad-${randomUUID()}`;
    const res = await request(h.push.url)
      .post('/api/v2/pushes')
      .set(bearer(h.token))
      .set('Idempotency-Key', Buffer.from(key, 'utf8').toString('latin1'))
      .send({ push: { payload: 'x', name } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'bad_request',
      error: expect.stringContaining('Idempotency-Key'),
    });
    expect(await countPushes(h.push, name)).toBe(0);
  });

  it('refuses an anonymous key shorter than 32 characters (400), which a token may use', async () => {
    const name = `short-${randomUUID()}`;
    const anonymous = await create(h.push, { payload: 'x', name }, 'k'.repeat(31), { ip: '203.0.113.9' });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body).toMatchObject({
      code: 'bad_request',
      error: expect.stringContaining('at least 32'),
    });
    expect(await countPushes(h.push, name)).toBe(0);
    expect((await create(h.push, { payload: 'x', name }, 'k'.repeat(32), { ip: '203.0.113.9' })).status).toBe(
      201,
    );
    expect((await create(h.push, { payload: 'x', name }, 'short', { token: h.token })).status).toBe(201);
  });

  it('accepts a key of 255 visible ASCII characters', async () => {
    const key = '!~'.repeat(127) + 'x';
    const res = await create(h.push, { payload: 'x' }, key, { token: h.token });
    expect(res.status).toBe(201);
  });

  it('keeps no key for a create that failed: the corrected retry succeeds', async () => {
    const key = randomUUID();
    const name = `retry-${key}`;
    const bad = await create(h.push, { payload: 'x', name, expire_after_views: 1000 }, key, {
      token: h.token,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
    const good = await create(h.push, { payload: 'x', name, expire_after_views: 10 }, key, {
      token: h.token,
    });
    expect(good.status).toBe(201);
    expect(await countPushes(h.push, name)).toBe(1);
  });

  it('stores the key only as its SHA-256, and the request only as a keyed hash', async () => {
    const key = `key-${randomUUID()}`;
    const res = await create(h.push, { payload: 'stored-only-hashed' }, key, { token: h.token });
    expect(res.status).toBe(201);
    const { rows } = await sql<{ scope: string; key_hash: Buffer; request_hash: Buffer; push_id: string }>`
      select k.scope, k.key_hash, k.request_hash, k.push_id from idempotency_key k
      join push p on p.id = k.push_id
      where p.token_hash = ${sha256(res.body.url_token as string)}`.execute(h.push.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.scope).toBe(`client:${h.client.client_id}`);
    expect(rows[0]!.key_hash.equals(sha256(key))).toBe(true);
    expect(rows[0]!.request_hash).toHaveLength(32);
    const dump = JSON.stringify(
      (await sql`select * from idempotency_key`.execute(h.push.db)).rows.map((r) =>
        Object.values(r as object).map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v))),
      ),
    );
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(res.body.url_token as string);
  });

  it('forgets a key after PUSH_IDEMPOTENCY_TTL_SECONDS: the next create makes a new push', async () => {
    const key = randomUUID();
    const name = `ttl-${key}`;
    const first = await create(h.push, { payload: 'x', name }, key, { token: h.token });
    expect(first.status).toBe(201);
    // As if a day had passed.
    await sql`update idempotency_key set created_at = now() - interval '86401 seconds'
              where key_hash = ${sha256(key)}`.execute(h.push.db);
    const second = await create(h.push, { payload: 'y', name }, key, { token: h.token });
    expect(second.status).toBe(201);
    expect(second.body.url_token).not.toBe(first.body.url_token);
    expect(await countPushes(h.push, name)).toBe(2);
  });
});

describe('file pushes with an Idempotency-Key', () => {
  let s3: LocalS3;
  let push: TestPush;
  beforeAll(async () => {
    s3 = await startS3();
    push = await startPush(h.auth, { env: { ...s3.env, PUSH_FILES_MAX_FILE_BYTES: String(1024 * 1024) } });
  });
  afterAll(async () => {
    await push.stop();
    await s3.close();
  });

  function upload(key: string, files: { name: string; data: Buffer }[], name: string) {
    const req = request(push.url)
      .post('/api/v2/pushes')
      .set(bearer(h.token))
      .set('Idempotency-Key', key)
      .field('push[name]', name);
    for (const f of files) void req.attach('push[files][]', f.data, { filename: f.name });
    return req;
  }

  it('replays the push, stores no extra object, and matches on the bytes of the files', async () => {
    const key = randomUUID();
    const name = `files-${key}`;
    const data = randomBytes(200_000);
    const first = await upload(key, [{ name: 'a.bin', data }], name);
    expect(first.status).toBe(201);
    const keysAfterFirst = await s3.listKeys();

    const again = await upload(key, [{ name: 'a.bin', data }], name);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await s3.listKeys()).sort()).toEqual(keysAfterFirst.sort());

    // Same name and size, other bytes: another request.
    const changed = Buffer.from(data);
    changed[0] = changed[0]! ^ 0xff;
    const other = await upload(key, [{ name: 'a.bin', data: changed }], name);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect((await s3.listKeys()).sort()).toEqual(keysAfterFirst.sort());
    expect(await countPushes(push, name)).toBe(1);
    expect(
      Number((await sql<{ n: string }>`select count(*) as n from upload_intent`.execute(push.db)).rows[0]!.n),
    ).toBe(0);
  });

  it('makes one push out of concurrent file creates with one key, and keeps only its objects', async () => {
    const key = randomUUID();
    const name = `files-race-${key}`;
    const data = randomBytes(50_000);
    const before = (await s3.listKeys()).length;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => upload(key, [{ name: 'r.bin', data }], name)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(201));
    expect(new Set(answers.map((a) => a.body.url_token as string)).size).toBe(1);
    expect(await countPushes(push, name)).toBe(1);
    expect((await s3.listKeys()).length).toBe(before + 1);
  });
});
