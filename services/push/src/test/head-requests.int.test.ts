import request from 'supertest';
import { sql } from 'kysely';
import { type TestAuth, startAuth } from '@secret-push/auth/testing';
import { type LocalS3, startS3 } from '@secret-push/testing';
import { hashUrlToken } from '../security/url-token';
import { type TestPush, startPush } from '../testing';
import { bearer } from './support/helpers';

// HEAD never consumes, for the requests of issue 28 too (found by the hostile-input suite): the
// responder's view (API and page) is an audited opening, a requester's file (API and page) is one
// of its downloads. HEAD answers 405 with Allow there, audits nothing and spends nothing; GET still
// works. Real auth service, PostgreSQL, Redis and a private s3rver.
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

/** A request with one attachment, downloadable twice. */
async function requestWithFile(): Promise<{ urlToken: string; fileId: string }> {
  const res = await request(push.url)
    .post('/api/v2/requests')
    .set(bearer(token))
    .field('request[request]', 'send me the key')
    .field('request[attachment_downloads]', '2')
    .attach('request[files][]', Buffer.from('attachment body'), { filename: 'a.txt' });
  expect(res.status).toBe(201);
  return { urlToken: res.body.url_token as string, fileId: res.body.files[0].id as string };
}

const state = async (urlToken: string) =>
  (
    await sql<{ audits: number; downloads: number }>`
      select (select count(*) from request_audit_entry a where a.request_id = r.id)::int as audits,
             (select coalesce(sum(downloads), 0) from request_file f where f.request_id = r.id)::int as downloads
        from request r where r.token_hash = ${hashUrlToken(urlToken)}`.execute(push.db)
  ).rows[0]!;

describe('HEAD never consumes a request', () => {
  it.each([
    ['the API responder view', (t: string) => `/api/v2/requests/${t}/respond`, 'GET, POST, PATCH'],
    [
      'the API responder view with .json',
      (t: string) => `/api/v2/requests/${t}/respond.json`,
      'GET, POST, PATCH',
    ],
    ['the responder page', (t: string) => `/respond/${t}`, 'GET, POST'],
    ['the responder page with a trailing slash', (t: string) => `/respond/${t}/`, 'GET, POST'],
  ])('%s: 405 with Allow and no audit entry; GET still opens it', async (_n, path, allow) => {
    const { urlToken } = await requestWithFile();
    const before = await state(urlToken);
    const head = await request(push.url).head(path(urlToken));
    expect(head.status).toBe(405);
    expect(head.headers.allow).toBe(allow);
    expect(await state(urlToken)).toEqual(before);
    expect((await request(push.url).get(path(urlToken))).status).toBe(200);
    expect((await state(urlToken)).audits).toBe(before.audits + 1);
  });

  it.each([
    ['the API', (t: string, id: string) => `/api/v2/requests/${t}/files/${id}`],
    ['the responder page', (t: string, id: string) => `/respond/${t}/files/${id}`],
  ])('a requester file from %s: 405 with Allow, and both downloads remain', async (_n, path) => {
    const { urlToken, fileId } = await requestWithFile();
    for (let i = 0; i < 3; i++) {
      const head = await request(push.url).head(path(urlToken, fileId));
      expect(head.status).toBe(405);
      expect(head.headers.allow).toBe('GET');
    }
    expect(await state(urlToken)).toMatchObject({ downloads: 0 });
    for (let i = 0; i < 2; i++) {
      expect((await request(push.url).get(path(urlToken, fileId))).status).toBe(200);
    }
    expect((await request(push.url).get(path(urlToken, fileId))).status).toBe(410);
  });

  it('leaves HEAD alone where GET spends nothing (the answered page)', async () => {
    const { urlToken } = await requestWithFile();
    expect((await request(push.url).head(`/respond/${urlToken}/done`)).status).toBe(200);
  });
});
