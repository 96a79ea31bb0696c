import request from 'supertest';
import { sql } from 'kysely';
import { type TestAuth, startAuth } from '@secret-push/auth/testing';
import { type LocalS3, startS3 } from '@secret-push/testing';
import { type TestPush, startPush, testEncryptionKey } from '../testing';
import { bearer } from './support/helpers';

// Nothing is spent that was not delivered: HEAD never consumes, a view whose payload cannot be
// delivered is refunded, a download whose read cannot start is given back. Real auth service,
// PostgreSQL, Redis and a private s3rver.
jest.setTimeout(60_000);

let auth: TestAuth;
let s3: LocalS3;
let push: TestPush;
let token: string;

beforeAll(async () => {
  auth = await startAuth();
  s3 = await startS3();
  push = await startPush(auth, { env: { ...s3.env } });
  token = await auth.token(await auth.createClient('pushes:read pushes:write'));
});
afterAll(async () => {
  await push.stop();
  await s3.close();
  await auth.stop();
});

async function textPush(fields: Record<string, unknown> = {}): Promise<string> {
  const res = await request(push.url)
    .post('/api/v2/pushes')
    .send({ push: { payload: 'the secret', expire_after_views: 1, ...fields } });
  expect(res.status).toBe(201);
  return res.body.url_token as string;
}

async function filePush(): Promise<{ urlToken: string }> {
  const res = await request(push.url)
    .post('/api/v2/pushes')
    .set(bearer(token))
    .field('push[expire_after_views]', '2')
    .attach('push[files][]', Buffer.from('file body'), { filename: 'a.txt', contentType: 'text/plain' });
  expect(res.status).toBe(201);
  return { urlToken: res.body.url_token as string };
}

const auditKinds = async (urlToken: string) =>
  (
    await sql<{ kind: string }>`
      select a.kind from audit_entry a join push p on p.id = a.push_id
      where p.token_hash = sha256(convert_to(${urlToken}, 'UTF8')) order by a.id`.execute(push.db)
  ).rows.map((r) => r.kind);

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe('HEAD never consumes', () => {
  it.each([
    ['the JSON retrieval', (t: string) => `/api/v2/pushes/${t}`, 'GET, DELETE'],
    ['the JSON retrieval with .json', (t: string) => `/api/v2/pushes/${t}.json`, 'GET, DELETE'],
    ['the JSON retrieval with a trailing slash', (t: string) => `/api/v2/pushes/${t}/`, 'GET, DELETE'],
    ['the recipient page', (t: string) => `/p/${t}`, 'GET, POST'],
    ['the recipient page with its retrieval step', (t: string) => `/p/${t}/r`, 'GET, POST'],
    ['the recipient page with a trailing slash', (t: string) => `/p/${t}/`, 'GET, POST'],
  ])(
    '%s: 405 with Allow, no view and no audit entry; the one view is still there',
    async (_n, path, allow) => {
      const t = await textPush();
      const head = await request(push.url).head(path(t));
      expect(head.status).toBe(405);
      expect(head.headers.allow).toBe(allow);
      expect(await auditKinds(t)).toEqual(['creation']);
      const res = await request(push.url).get(`/api/v2/pushes/${t}`);
      expect(res.status).toBe(200);
      expect(res.body.payload).toBe('the secret');
    },
  );

  it('a download link: 405 with Allow, and all three downloads remain', async () => {
    const { urlToken } = await filePush();
    const link = (await request(push.url).get(`/api/v2/pushes/${urlToken}`)).body.files[0].url as string;
    for (let i = 0; i < 3; i++) {
      const head = await request(push.url).head(pathOf(link));
      expect(head.status).toBe(405);
      expect(head.headers.allow).toBe('GET');
    }
    for (let i = 0; i < 3; i++) expect((await request(push.url).get(pathOf(link))).status).toBe(200);
    expect((await request(push.url).get(pathOf(link))).status).toBe(404);
  });

  it('leaves HEAD alone where GET consumes nothing (preview, version, lists)', async () => {
    const t = await textPush();
    expect((await request(push.url).head(`/api/v2/pushes/${t}/preview`)).status).toBe(200);
    expect((await request(push.url).head('/api/v2/version')).status).toBe(200);
    expect((await request(push.url).head('/api/v2/pushes/active').set(bearer(token))).status).toBe(200);
    expect(await auditKinds(t)).toEqual(['creation']);
  });
});

describe('a view that cannot be delivered is refunded', () => {
  it('answers 503 and gives the view back (even the last one) when the payload cannot be decrypted', async () => {
    // A replica on the same database whose key ring lacks the key the push was sealed with (a
    // botched key rotation): the claim succeeds, decryption fails after it.
    const other = await startPush(auth, {
      database: { url: push.env.PUSH_DATABASE_URL! },
      env: { PUSH_ENCRYPTION_KEYS: testEncryptionKey() },
    });
    try {
      const t = await textPush({ note: 'a note' });
      const refused = await request(other.url).get(`/api/v2/pushes/${t}`);
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('dependency_unavailable');
      expect(refused.headers['retry-after']).toBe('1');
      expect(JSON.stringify(refused.body)).not.toContain('the secret');
      expect(await auditKinds(t)).toEqual(['creation', 'view_refunded']);

      const served = await request(push.url).get(`/api/v2/pushes/${t}`);
      expect(served.status).toBe(200);
      expect(served.body).toMatchObject({ payload: 'the secret', expired: true, views_remaining: 0 });
      expect(await auditKinds(t)).toEqual(['creation', 'view_refunded', 'view', 'expire_by_views']);
    } finally {
      await other.stop();
    }
  });
});

describe('a download whose read cannot start is not spent', () => {
  it('answers 503 while the object store is down and keeps all three downloads for after', async () => {
    const { urlToken } = await filePush();
    const link = (await request(push.url).get(`/api/v2/pushes/${urlToken}`)).body.files[0].url as string;
    await s3.stop();
    try {
      for (let i = 0; i < 3; i++) {
        const res = await request(push.url).get(pathOf(link));
        expect(res.status).toBe(503);
        expect(res.body.code).toBe('dependency_unavailable');
      }
    } finally {
      await s3.start();
    }
    for (let i = 0; i < 3; i++) {
      const res = await request(push.url).get(pathOf(link)).buffer(true);
      expect(res.status).toBe(200);
    }
    expect((await request(push.url).get(pathOf(link))).status).toBe(404);
  });
});
