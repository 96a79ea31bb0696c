import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createUserTokenService } from '../domain/user-tokens';
import { createUserRepository } from '../storage/user.repository';
import { startPush } from '../testing';
import { type Harness, bearer, harness } from './support/helpers';

// The requests API (docs/api.md, Requests) against a real auth service, PostgreSQL and Redis.
jest.setTimeout(60_000);

let h: Harness;
let otherToken: string;
let readOnlyToken: string;
let userToken: string;
beforeAll(async () => {
  h = await harness({ env: { PUSH_PASSPHRASE_ATTEMPTS_PER_PUSH: '3' } });
  otherToken = await h.auth.token(await h.auth.createClient('pushes:read pushes:write'));
  readOnlyToken = await h.auth.token(await h.auth.createClient('pushes:read'));
  const users = createUserTokenService({ store: createUserRepository(h.push.db) });
  const user = await users.upsertUser({
    issuer: 'https://idp.example',
    subject: `rq-${randomBytes(4).toString('hex')}`,
    email: 'requester@example.org',
    emailVerified: true,
  });
  userToken = (await users.createToken(user.id, { name: 'rq', scopes: ['pushes:read', 'pushes:write'] }))
    .value;
});
afterAll(() => h.stop());

const api = () => request(h.push.url);
type Body = Record<string, unknown>;

async function createRequest(fields: Body, token = h.token): Promise<Body> {
  const res = await api().post('/api/v2/requests').set(bearer(token)).send({ request: fields });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Body;
}
const respond = (t: unknown, response: Body, token?: string) => {
  const req = api().post(`/api/v2/requests/${String(t)}/respond`);
  if (token) void req.set(bearer(token));
  return req.send({ response });
};
const count = async (table: 'request' | 'push' | 'request_audit_entry') =>
  Number(
    (
      await h.push.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('create', () => {
  test('JSON: 201 RequestView with defaults; the token, html_url and json_url', async () => {
    const body = await createRequest({ request: 'Send me the VPN key', name: 'vpn', note: 'n' });
    expect(body).toMatchObject({
      state: 'open',
      request: 'Send me the VPN key',
      name: 'vpn',
      note: 'n',
      passphrase: false,
      response_file_attachments: false,
      include_requestor: false,
      answerable_by: 'anyone',
      answerable_emails: [],
      expire_after_days: 7,
      close_after_duration: null,
      days_remaining: 7,
      expire_after_views: 1,
      answer_expire_after_days: 7,
      notify_owner_on_answer: false,
      files: [],
      answer: null,
      closed_reason: null,
    });
    expect(body.html_url).toBe(
      `${h.push.env.PUSH_PUBLIC_URL ?? h.push.url}/respond/${String(body.url_token)}`,
    );
    expect(body.json_url).toBe(
      `${h.push.env.PUSH_PUBLIC_URL ?? h.push.url}/api/v2/requests/${String(body.url_token)}.json`,
    );
  });

  test('urlencoded and multipart fields (no file part) are read like JSON', async () => {
    const form = await api()
      .post('/api/v2/requests')
      .set(bearer(h.token))
      .type('form')
      .send('request[request]=form+text&request[close_after_duration]=3&request[retrieval_step]=true');
    expect(form.status).toBe(201);
    expect(form.body).toMatchObject({ request: 'form text', close_after_duration: 3, retrieval_step: true });
    expect(form.body.answer_expire_after_days).toBe(1);
    const multi = await api()
      .post('/api/v2/requests')
      .set(bearer(h.token))
      .field('request[request]', 'multipart text')
      .field('request[expire_after_views]', '2');
    expect(multi.status).toBe(201);
    expect(multi.body).toMatchObject({ request: 'multipart text', expire_after_views: 2 });
    const withFile = await api()
      .post('/api/v2/requests')
      .set(bearer(h.token))
      .field('request[request]', 'x')
      .attach('request[files][]', Buffer.from('data'), 'a.txt');
    expect(withFile.status).toBe(422);
  });

  test.each<[string, Body, string]>([
    ['missing message', {}, 'request'],
    ['blank message', { request: '   ' }, 'request'],
    ['message too long', { request: 'x'.repeat(10_001) }, 'request'],
    ['two windows', { request: 'x', expire_after_days: 2, close_after_duration: 3 }, 'close_after_duration'],
    ['duration out of range', { request: 'x', close_after_duration: 18 }, 'close_after_duration'],
    ['days out of range', { request: 'x', expire_after_days: 0 }, 'expire_after_days'],
    ['views out of range', { request: 'x', expire_after_views: 0 }, 'expire_after_views'],
    [
      'answer days out of range',
      { request: 'x', answer_expire_after_days: 9999 },
      'answer_expire_after_days',
    ],
    ['bad boolean', { request: 'x', retrieval_step: 'maybe' }, 'retrieval_step'],
    ['bad answerable_by', { request: 'x', answerable_by: 'friends' }, 'answerable_by'],
    [
      'emails without SMTP',
      { request: 'x', answerable_by: 'emails', answerable_emails: 'a@b.example' },
      'answerable_by',
    ],
    ['emails without a list', { request: 'x', answerable_by: 'emails' }, 'answerable_emails'],
    ['a list without emails', { request: 'x', answerable_emails: ['a@b.example'] }, 'answerable_emails'],
    ['attachment_downloads 11', { request: 'x', attachment_downloads: 11 }, 'attachment_downloads'],
    ['notify_emails_to without SMTP', { request: 'x', notify_emails_to: 'a@b.example' }, 'notify_emails_to'],
    ['bad locale', { request: 'x', notify_emails_to_locale: 'xx' }, 'notify_emails_to_locale'],
    ['name with NUL', { request: 'x', name: 'a\u0000b' }, 'name'],
  ])('%s → 422 naming the field, nothing stored', async (_label, fields, field) => {
    const before = await count('request');
    const res = await api().post('/api/v2/requests').set(bearer(h.token)).send({ request: fields });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(Object.keys(res.body.fields as object)).toContain(field);
    expect(await count('request')).toBe(before);
  });

  test('anonymous → 401, a read-only token → 403; no request object → 400', async () => {
    expect(
      (
        await api()
          .post('/api/v2/requests')
          .send({ request: { request: 'x' } })
      ).status,
    ).toBe(401);
    const ro = await api()
      .post('/api/v2/requests')
      .set(bearer(readOnlyToken))
      .send({ request: { request: 'x' } });
    expect(ro.status).toBe(403);
    expect((await api().post('/api/v2/requests').set(bearer(h.token)).send({ request: 'x' })).status).toBe(
      400,
    );
  });
});

describe('the owner', () => {
  test('preview, read (also .json), audit; another owner 403, unknown 404', async () => {
    const r = await createRequest({ request: 'q' });
    const t = String(r.url_token);
    expect((await api().get(`/api/v2/requests/${t}/preview`).set(bearer(h.token))).body).toEqual({
      url: r.html_url,
    });
    const read = await api().get(`/api/v2/requests/${t}.json`).set(bearer(h.token));
    expect(read.status).toBe(200);
    expect(read.body.url_token).toBe(t);
    const audit = await api().get(`/api/v2/requests/${t}/audit`).set(bearer(h.token));
    expect(audit.body).toMatchObject({ dropped: 0, logs: [{ kind: 'creation', ip: '127.0.0.1' }] });
    const other = await api().get(`/api/v2/requests/${t}`).set(bearer(otherToken));
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('forbidden');
    expect((await api().get('/api/v2/requests/unknownToken123').set(bearer(h.token))).status).toBe(404);
    expect((await api().get(`/api/v2/requests/${t}`)).status).toBe(401);
  });

  test('close: 200 closed by owner, twice the same; read-only token 403; closed is 404 for responders', async () => {
    const r = await createRequest({ request: 'q' });
    const t = String(r.url_token);
    expect((await api().delete(`/api/v2/requests/${t}`).set(bearer(readOnlyToken))).status).toBe(403);
    const closed = await api().delete(`/api/v2/requests/${t}`).set(bearer(h.token));
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ state: 'closed', closed_reason: 'owner' });
    const again = await api().delete(`/api/v2/requests/${t}.json`).set(bearer(h.token));
    expect(again.body.closed_at).toBe(closed.body.closed_at);
    const closedAnswer = await respond(t, { payload: 'x' });
    const unknownAnswer = await respond('unknownToken123', { payload: 'x' });
    expect(closedAnswer.status).toBe(404);
    expect(unknownAnswer.status).toBe(404);
    const strip = (b: Body) => ({ ...b, request_id: undefined });
    expect(strip(closedAnswer.body as Body)).toEqual(strip(unknownAnswer.body as Body));
    expect((await api().get(`/api/v2/requests/${t}/respond`)).status).toBe(404);
  });

  test('lists by state, newest first, paged with Link; bare /requests needs a token', async () => {
    const owner = await h.auth.token(await h.auth.createClient('pushes:read pushes:write'));
    const made: string[] = [];
    for (let i = 0; i < 52; i++) {
      made.push(String((await createRequest({ request: `r${i}` }, owner)).url_token));
    }
    await api().delete(`/api/v2/requests/${made[0]}`).set(bearer(owner));
    await respond(made[1], { payload: 'answer' });
    const active = await api().get('/api/v2/requests/active').set(bearer(owner));
    expect(active.body).toHaveLength(50);
    expect(active.body[0].url_token).toBe(made[51]);
    expect(active.headers.link).toContain('page=2>; rel="next"');
    const page2 = await api().get('/api/v2/requests/active.json?page=2').set(bearer(owner));
    expect(page2.body.map((b: Body) => b.url_token)).toEqual([made[1]]);
    const bare = await api().get('/api/v2/requests').set(bearer(owner));
    expect(bare.body).toHaveLength(50);
    expect((await api().get('/api/v2/requests')).status).toBe(401);
    const ready = await api().get('/api/v2/requests/ready').set(bearer(owner));
    expect(ready.body.map((b: Body) => b.url_token)).toEqual([made[1]]);
    const answered = await api().get('/api/v2/requests/answered').set(bearer(owner));
    expect(answered.body.map((b: Body) => b.state)).toEqual(['answered']);
    const closed = await api().get('/api/v2/requests/closed').set(bearer(owner));
    expect(closed.body.map((b: Body) => b.url_token)).toEqual([made[0]]);
    expect((await api().get('/api/v2/requests/open').set(bearer(owner))).body).toHaveLength(50);
  });
});

describe('the responder', () => {
  test('anonymous text answer: the owner sees the answer and retrieves the answer push (its view spent)', async () => {
    const r = await createRequest({ request: 'Your password please', name: 'pw' });
    const t = String(r.url_token);
    const view = await api().get(`/api/v2/requests/${t}/respond`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      request: 'Your password please',
      requestor: null,
      passphrase_required: false,
      answerable_by: 'anyone',
      files: [],
    });
    expect(view.body.limits.max_files).toBeGreaterThan(0);
    const answered = await respond(t, { payload: 's3cret' });
    expect(answered.status).toBe(201);
    expect(answered.body).toEqual({ state: 'answered', answered_at: expect.any(String) });
    expect(JSON.stringify(answered.body)).not.toContain('url_token');
    expect((await respond(t, { payload: 'again' })).status).toBe(409);
    expect((await api().get(`/api/v2/requests/${t}/respond`)).body.code).toBe('already_answered');
    const owned = await api().get(`/api/v2/requests/${t}`).set(bearer(h.token));
    expect(owned.body.state).toBe('answered');
    const answer = owned.body.answer as Body;
    expect(answer).toMatchObject({ answered_at: answered.body.answered_at, files: 0 });
    const pushed = await api().get(`/api/v2/pushes/${String(answer.url_token)}`);
    expect(pushed.body).toMatchObject({
      payload: 's3cret',
      views_remaining: 0,
      expired: true,
    });
    expect((await api().get(`/api/v2/pushes/${String(answer.url_token)}`)).body.payload).toBeNull();
    const kinds = (await api().get(`/api/v2/requests/${t}/audit`).set(bearer(h.token))).body.logs.map(
      (l: Body) => l.kind,
    );
    expect(kinds).toEqual(['creation', 'link_opened', 'answer']);
  });

  test('parallel answers: exactly one 201, the others 409', async () => {
    const t = String((await createRequest({ request: 'race' })).url_token);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => respond(t, { payload: `p${i}` })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  test('bad answers change nothing: blank payload, bad kind, files → 422; no response → 400', async () => {
    const t = String((await createRequest({ request: 'q' })).url_token);
    const pushes = await count('push');
    expect((await respond(t, { payload: ' ' })).status).toBe(422);
    expect((await respond(t, { payload: 'x', kind: 'file' })).status).toBe(422);
    expect((await respond(t, { payload: 'not a url', kind: 'url' })).status).toBe(422);
    expect((await respond(t, { payload: 'x', files: ['a'] })).status).toBe(422);
    expect((await api().post(`/api/v2/requests/${t}/respond`).send({ payload: 'x' })).status).toBe(400);
    expect(await count('push')).toBe(pushes);
    const res = await api()
      .patch(`/api/v2/requests/${t}/respond`)
      .type('form')
      .send('response[payload]=via+patch');
    expect(res.status).toBe(201);
  });

  test('passphrase: missing or wrong → 401 passphrase_required, past the limit 429, nothing answered', async () => {
    const t = String((await createRequest({ request: 'q', passphrase: 'letmein' })).url_token);
    expect((await api().get(`/api/v2/requests/${t}/respond`)).body.passphrase_required).toBe(true);
    const missing = await respond(t, { payload: 'x' });
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('passphrase_required');
    for (let i = 0; i < 3; i++) {
      expect((await respond(t, { payload: 'x', passphrase: 'nope' })).status).toBe(401);
    }
    const limited = await respond(t, { payload: 'x', passphrase: 'letmein' });
    expect(limited.status).toBe(429);
    const owned = await api().get(`/api/v2/requests/${t}`).set(bearer(h.token));
    expect(owned.body.state).toBe('open');
  });

  test('users only: nobody → 401, a client token → 403, a person → 201', async () => {
    const t = String((await createRequest({ request: 'q', answerable_by: 'users' })).url_token);
    expect((await respond(t, { payload: 'x' })).body.code).toBe('unauthorized');
    const client = await respond(t, { payload: 'x' }, otherToken);
    expect(client.status).toBe(403);
    expect(client.body.code).toBe('forbidden');
    expect((await respond(t, { payload: 'x' }, userToken)).status).toBe(201);
  });

  test('include_requestor shows the verified address of the requester to the responder', async () => {
    const t = String((await createRequest({ request: 'q', include_requestor: true }, userToken)).url_token);
    expect((await api().get(`/api/v2/requests/${t}/respond`)).body.requestor).toBe('requester@example.org');
  });
});

describe('the instance', () => {
  test('/version: edition commercial, requests enabled', async () => {
    const v = await api().get('/api/v2/version');
    expect(v.body.edition).toBe('commercial');
    expect(v.body.features.requests).toEqual({ enabled: true, email_auto_dispatch: false });
  });

  test('anonymous access off: the responder needs a token', async () => {
    const off = await startPush(h.auth, { env: { PUSH_ANONYMOUS_ACCESS: 'false' } });
    try {
      const made = await request(off.url)
        .post('/api/v2/requests')
        .set(bearer(h.token))
        .send({ request: { request: 'q' } });
      const t = String(made.body.url_token);
      expect((await request(off.url).get(`/api/v2/requests/${t}/respond`)).status).toBe(401);
      expect(
        (
          await request(off.url)
            .post(`/api/v2/requests/${t}/respond`)
            .send({ response: { payload: 'x' } })
        ).status,
      ).toBe(401);
      expect(
        (await request(off.url).get(`/api/v2/requests/${t}/respond`).set(bearer(otherToken))).status,
      ).toBe(200);
    } finally {
      await off.stop();
    }
  });

  test('requests disabled: every /requests route 404, /version says so', async () => {
    const off = await startPush(h.auth, { env: { PUSH_REQUESTS_ENABLED: 'false' } });
    try {
      const v = await request(off.url).get('/api/v2/version');
      expect(v.body.edition).toBe('oss');
      expect(v.body.features.requests).toEqual({ enabled: false, email_auto_dispatch: false });
      expect((await request(off.url).get('/api/v2/requests')).status).toBe(404);
      const create = await request(off.url)
        .post('/api/v2/requests')
        .set(bearer(h.token))
        .send({ request: { request: 'x' } });
      expect(create.status).toBe(404);
      expect((await request(off.url).get('/api/v2/requests/active').set(bearer(h.token))).status).toBe(404);
    } finally {
      await off.stop();
    }
  });
});
