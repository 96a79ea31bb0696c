import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { type TestAuth, startAuth } from '@secret-push/auth/testing';
import { type LocalS3, startS3 } from '@secret-push/testing';
import { createUserTokenService } from '../domain/user-tokens';
import { createUserRepository } from '../storage/user.repository';
import { type TestPush, startPush } from '../testing';

// The Password Pusher CLI (PyPI `pwpush` 0.16.6) configured with a personal API token and its
// user's email, replayed request by request as reference/pwpush-behaviour.md §7 records them:
// `Authorization: Bearer T` plus `X-User-Email` and `X-User-Token` on every call; `login` is
// validated by GET /pushes/active; `push` expects 201, then calls preview and prints `url`;
// `push-file` is multipart with `push[payload]=""`; `list`, `audit`, `expire`. File pushes run
// against a private s3rver.
jest.setTimeout(60_000);

let auth: TestAuth;
let s3: LocalS3;
let push: TestPush;
let email: string;
let token: string;

beforeAll(async () => {
  auth = await startAuth();
  s3 = await startS3();
  push = await startPush(auth, { env: s3.env });
  const users = createUserTokenService({ store: createUserRepository(push.db) });
  const user = await users.upsertUser({
    issuer: 'https://idp.example',
    subject: `pwpush-${randomBytes(4).toString('hex')}`,
    email: 'Operator@Example.org',
    emailVerified: true,
  });
  email = 'operator@example.org'; // as typed into `pwpush config set email`
  token = (await users.createToken(user.id, { name: 'pwpush cli', scopes: ['pushes:read', 'pushes:write'] }))
    .value;
});
afterAll(async () => {
  await push.stop();
  await s3.close();
  await auth.stop();
});

const USER_AGENT = 'python-requests/2.32.3';

/** The headers the CLI sends on every call once a token and an email are configured. */
const cliHeaders = (as: { email: string; token: string } = { email, token }) => ({
  Authorization: `Bearer ${as.token}`,
  'X-User-Email': as.email,
  'X-User-Token': as.token,
  'User-Agent': USER_AGENT,
  Accept: 'application/json',
});

const get = (path: string, as?: { email: string; token: string }) =>
  request(push.url).get(path).set(cliHeaders(as));

/** `pwpush push`: the create (201 expected), then the preview, whose `url` it prints. */
async function pwpushPush(fields: Record<string, unknown>): Promise<{ urlToken: string; url: string }> {
  const created = await request(push.url).post('/api/v2/pushes').set(cliHeaders()).send({ push: fields });
  expect(created.status).toBe(201);
  const urlToken = created.body.url_token as string;
  const preview = await get(`/api/v2/pushes/${urlToken}/preview`);
  expect(preview.status).toBe(200);
  return { urlToken, url: preview.body.url as string };
}

describe('the pwpush CLI with a personal token and its user’s email', () => {
  let text: { urlToken: string; url: string };
  let file: { urlToken: string; url: string };

  it('detects API v2 with its token (GET /api/v2/version)', async () => {
    const res = await get('/api/v2/version');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      api_version: '2.1',
      edition: 'commercial',
      features: { api_token_authentication: true },
    });
    expect(res.body.features.pushes.email_auto_dispatch).toBe(false);
  });

  it('logs in: GET /api/v2/pushes/active answers an array', async () => {
    const res = await get('/api/v2/pushes/active');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('refuses a login with another email (the CLI shows `error`)', async () => {
    const res = await get('/api/v2/pushes/active', { email: 'someone.else@example.org', token });
    expect(res.status).toBe(401);
    expect(typeof res.body.error).toBe('string');
  });

  it('pushes text: 201, then the preview URL', async () => {
    // `pwpush push --days 3 --views 2 --note … --deletable`: 3 days goes as the Pro enum index 8.
    text = await pwpushPush({
      payload: 'the secret from the CLI',
      kind: 'text',
      expire_after_views: 2,
      expire_after_duration: 8,
      note: 'for the ops team',
      name: 'db password',
      deletable_by_viewer: true,
      retrieval_step: false,
    });
    expect(text.url).toBe(`${push.url}/p/${text.urlToken}`);
    // A recipient (anonymous) opens it.
    const viewed = await request(push.url).get(`/api/v2/pushes/${text.urlToken}`);
    expect(viewed.body).toMatchObject({ payload: 'the secret from the CLI', expire_after_days: 3 });
  });

  it('pushes a file: multipart with push[payload]="", push[kind]=file and push[files][]', async () => {
    const created = await request(push.url)
      .post('/api/v2/pushes')
      .set(cliHeaders())
      .field('push[payload]', '')
      .field('push[kind]', 'file')
      .field('push[expire_after_views]', '1')
      .attach('push[files][]', Buffer.from('file contents\n'), {
        filename: 'notes.txt',
        contentType: 'text/plain',
      });
    expect(created.status).toBe(201);
    expect(created.body.kind).toBe('file');
    const preview = await get(`/api/v2/pushes/${created.body.url_token as string}/preview`);
    expect(preview.status).toBe(200);
    file = { urlToken: created.body.url_token as string, url: preview.body.url as string };
  });

  it('lists the user’s active pushes with the fields it reads', async () => {
    const res = await get('/api/v2/pushes/active');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { url_token: string }) => p.url_token)).toEqual([file.urlToken, text.urlToken]);
    for (const p of res.body) {
      for (const key of [
        'url_token',
        'note',
        'expire_after_views',
        'views_remaining',
        'expire_after_days',
        'days_remaining',
        'deletable_by_viewer',
        'retrieval_step',
        'created_at',
      ]) {
        expect(p).toHaveProperty(key);
      }
    }
    expect(res.body[1]).toMatchObject({
      note: 'for the ops team',
      views_remaining: 1,
      deletable_by_viewer: true,
    });
  });

  it('reads the audit log: logs[] with ip, user_agent, referrer, created_at and kind', async () => {
    const res = await get(`/api/v2/pushes/${text.urlToken}/audit`);
    expect(res.status).toBe(200);
    expect(res.body.logs.map((l: { kind: string }) => l.kind)).toEqual(['creation', 'view']);
    for (const log of res.body.logs) {
      expect(Object.keys(log).sort()).toEqual(['created_at', 'ip', 'kind', 'referrer', 'user_agent']);
      expect(Number.isNaN(Date.parse(log.created_at as string))).toBe(false);
    }
    expect(res.body.logs[0].user_agent).toBe(USER_AGENT);
  });

  it('expires a push (200), which then shows in the expired list', async () => {
    const res = await request(push.url).delete(`/api/v2/pushes/${text.urlToken}`).set(cliHeaders());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url_token: text.urlToken, expired: true });
    const expired = await get('/api/v2/pushes/expired');
    expect(expired.status).toBe(200);
    expect(expired.body.map((p: { url_token: string }) => p.url_token)).toContain(text.urlToken);
    const active = await get('/api/v2/pushes/active');
    expect(active.body.map((p: { url_token: string }) => p.url_token)).toEqual([file.urlToken]);
  });
});
