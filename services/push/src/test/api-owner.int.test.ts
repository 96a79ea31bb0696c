import request from 'supertest';
import { sql } from 'kysely';
import { startPush } from '../testing';
import { BASE_KEYS, type Harness, bearer, createdToken, harness } from './support/helpers';

let h: Harness;
let otherToken: string;
let readOnlyToken: string;
beforeAll(async () => {
  h = await harness();
  otherToken = await h.auth.token(await h.auth.createClient('pushes:read pushes:write'));
  readOnlyToken = await h.auth.token(await h.auth.createClient('pushes:read'));
});
afterAll(() => h.stop());

const api = () => request(h.push.url);

describe('GET /api/v2/pushes/:url_token/audit', () => {
  it('shows the owner every entry, oldest first, with client details', async () => {
    const t = await createdToken(h.push.url, { payload: 'x' }, h.token);
    await api()
      .get(`/api/v2/pushes/${t}`)
      .set('User-Agent', 'u'.repeat(300))
      .set('Referer', `https://ref.example/${'r'.repeat(300)}`);
    const res = await api().get(`/api/v2/pushes/${t}/audit`).set(bearer(h.token));
    expect(res.status).toBe(200);
    expect(res.body.logs).toHaveLength(2);
    const [creation, view] = res.body.logs;
    expect(creation).toEqual({
      kind: 'creation',
      ip: '127.0.0.1',
      user_agent: expect.any(String),
      referrer: '',
      created_at: expect.any(String),
    });
    expect(view.kind).toBe('view');
    expect(view.user_agent).toHaveLength(255);
    expect(view.referrer).toHaveLength(255);
  });

  it.each<[string, () => Promise<request.Response>, number, string]>([
    [
      'no token',
      async () =>
        api().get(`/api/v2/pushes/${await createdToken(h.push.url, { payload: 'x' }, h.token)}/audit`),
      401,
      'unauthorized',
    ],
    [
      'another client',
      async () =>
        api()
          .get(`/api/v2/pushes/${await createdToken(h.push.url, { payload: 'x' }, h.token)}/audit`)
          .set(bearer(otherToken)),
      403,
      'forbidden',
    ],
    [
      'an anonymous push',
      async () =>
        api()
          .get(`/api/v2/pushes/${await createdToken(h.push.url, { payload: 'x' })}/audit`)
          .set(bearer(h.token)),
      403,
      'forbidden',
    ],
    [
      'an unknown push',
      () => api().get('/api/v2/pushes/AAAAAAAAAAAAAAAAAAAAAA/audit').set(bearer(h.token)),
      404,
      'not_found',
    ],
    [
      'page 0',
      async () =>
        api()
          .get(`/api/v2/pushes/${await createdToken(h.push.url, { payload: 'x' }, h.token)}/audit?page=0`)
          .set(bearer(h.token)),
      400,
      'invalid_page',
    ],
  ])('refuses %s', async (_case, send, status, code) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    if (status === 401) expect(res.headers['www-authenticate']).toBe('Bearer realm="secret-push"');
  });

  it('keeps at most the configured number of noise entries, counting the rest', async () => {
    const t = await createdToken(h.push.url, { payload: 'x', expire_after_views: 1 }, h.token);
    await api().get(`/api/v2/pushes/${t}`);
    await Promise.all(Array.from({ length: 20 }, () => api().get(`/api/v2/pushes/${t}`)));
    // 2000 is the default cap; the repository enforces it on the locked row (see api-degraded for a small cap).
    const { rows } = await sql<{ audit_entries: number; n: string }>`
      select p.audit_entries, (select count(*) from audit_entry a where a.push_id = p.id) as n
      from push p where token_hash = sha256(convert_to(${t}, 'UTF8'))`.execute(h.push.db);
    expect(rows[0]!.audit_entries).toBe(Number(rows[0]!.n));
    expect(Number(rows[0]!.n)).toBe(23);
  });
});

describe('GET /api/v2/pushes/active and /expired', () => {
  it('lists the caller’s own pushes, newest first, with name and note but never the payload', async () => {
    const mine = [
      await createdToken(
        h.push.url,
        { payload: 'PAYLOAD-ONE-never-listed', name: 'first', note: 'n1' },
        h.token,
      ),
      await createdToken(
        h.push.url,
        { payload: 'PAYLOAD-TWO-never-listed', name: 'second', note: 'n2' },
        h.token,
      ),
    ];
    await createdToken(h.push.url, { payload: 'theirs' }, otherToken);
    const res = await api().get('/api/v2/pushes/active.json').set(bearer(readOnlyToken));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);

    const own = await api().get('/api/v2/pushes/active').set(bearer(h.token));
    const tokens = own.body.map((p: { url_token: string }) => p.url_token);
    expect(tokens.indexOf(mine[1])).toBeLessThan(tokens.indexOf(mine[0]));
    const second = own.body.find((p: { url_token: string }) => p.url_token === mine[1]);
    expect(Object.keys(second).sort()).toEqual([...BASE_KEYS, 'name', 'note'].sort());
    expect(second).toMatchObject({ name: 'second', note: 'n2', expired: false });
    expect(JSON.stringify(own.body)).not.toContain('never-listed');
  });

  it('moves a push to expired once used up, and pages 50 at a time with Link headers', async () => {
    const t = await createdToken(h.push.url, { payload: 'x', expire_after_views: 1, note: 'gone' }, h.token);
    await api().get(`/api/v2/pushes/${t}`);
    const expired = await api().get('/api/v2/pushes/expired').set(bearer(h.token));
    expect(expired.body[0]).toMatchObject({ url_token: t, expired: true, note: '' });
    const active = await api().get('/api/v2/pushes/active').set(bearer(h.token));
    expect(active.body.map((p: { url_token: string }) => p.url_token)).not.toContain(t);

    const pager = await h.auth.token(await h.auth.createClient('pushes:read pushes:write'));
    for (let i = 0; i < 51; i++) await createdToken(h.push.url, { payload: `p${i}` }, pager);
    const page1 = await api().get('/api/v2/pushes/active').set(bearer(pager));
    expect(page1.body).toHaveLength(50);
    expect(page1.headers.link).toBe(`<${h.push.url}/api/v2/pushes/active?page=2>; rel="next"`);
    const page2 = await api().get('/api/v2/pushes/active?page=2').set(bearer(pager));
    expect(page2.body).toHaveLength(1);
    expect(page2.headers.link).toBe(`<${h.push.url}/api/v2/pushes/active?page=1>; rel="prev"`);
    expect((await api().get('/api/v2/pushes/active?page=3').set(bearer(pager))).body).toEqual([]);
  });

  it.each(['0', '201', 'x', '1.5', '-1'])('answers 400 for page=%s', async (page) => {
    const res = await api().get(`/api/v2/pushes/active?page=${page}`).set(bearer(h.token));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_page', error: 'Invalid page parameter' });
  });

  it('needs a token with pushes:read', async () => {
    expect((await api().get('/api/v2/pushes/active')).status).toBe(401);
    const writer = await h.auth.token(await h.auth.createClient('pushes:write'));
    const res = await api().get('/api/v2/pushes/expired').set(bearer(writer));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
  });
});

describe('DELETE /api/v2/pushes/:url_token', () => {
  const del = (t: string, token?: string) => {
    const req = api().delete(`/api/v2/pushes/${t}`);
    return token ? req.set(bearer(token)) : req;
  };

  it('lets the owner expire a push; a second DELETE changes nothing', async () => {
    const t = await createdToken(h.push.url, { payload: 'x', deletable_by_viewer: false }, h.token);
    const res = await del(t, h.token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(BASE_KEYS);
    expect(res.body).toMatchObject({ expired: true, deleted: true });
    expect((await api().get(`/api/v2/pushes/${t}`)).body).toMatchObject({ expired: true, payload: null });
    expect((await del(t, h.token)).status).toBe(200);
    const logs = (await api().get(`/api/v2/pushes/${t}/audit`).set(bearer(h.token))).body.logs.map(
      (l: { kind: string }) => l.kind,
    );
    expect(logs).toEqual(['creation', 'expire', 'failed_view']);
  });

  it('lets any viewer expire a push created with deletable_by_viewer', async () => {
    const t = await createdToken(h.push.url, { payload: 'x', deletable_by_viewer: true }, h.token);
    expect((await del(t)).body).toMatchObject({ expired: true, deleted: true });
    const t2 = await createdToken(h.push.url, { payload: 'x', deletable_by_viewer: true }, h.token);
    expect((await del(t2, readOnlyToken)).status).toBe(200);
  });

  it('tells the owner whose token lacks pushes:write which scope is missing', async () => {
    const t = await createdToken(h.push.url, { payload: 'x', deletable_by_viewer: false }, h.token);
    const res = await del(t, await h.auth.token(h.client, 'pushes:read'));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect(res.headers['www-authenticate']).toContain('scope="pushes:write"');
    expect((await api().get(`/api/v2/pushes/${t}`)).body.payload).toBe('x');
  });

  it('refuses other viewers: anonymous 401, another principal 403, URL pushes included', async () => {
    const t = await createdToken(h.push.url, { payload: 'x', deletable_by_viewer: false }, h.token);
    const anonymous = await del(t);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({
      code: 'unauthorized',
      error: 'That push is not deletable by viewers.',
    });
    const other = await del(t, otherToken);
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('forbidden');
    const url = await createdToken(h.push.url, { kind: 'url', payload: 'https://example.com' }, h.token);
    expect((await del(url)).status).toBe(401);
    expect((await api().get(`/api/v2/pushes/${t}`)).body.payload).toBe('x');
    expect((await del('AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
  });
});

describe('the preview, audit and DELETE limit (per client, user or IP)', () => {
  it('limits a client that previews each push it creates on its creates first, then lookups with 429 JSON', async () => {
    // Creates 3 a minute: lookups 6 (twice, whichever way the two one-minute windows fall).
    const push = await startPush(h.auth, { env: { PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '3' } });
    try {
      const at = () => request(push.url);
      const created: string[] = [];
      for (;;) {
        const res = await at()
          .post('/api/v2/pushes')
          .send({ push: { payload: 'x' } });
        if (res.status === 429) break;
        expect(res.status).toBe(201);
        const t = (res.body as { url_token: string }).url_token;
        created.push(t);
        expect((await at().get(`/api/v2/pushes/${t}/preview`)).status).toBe(200);
      }
      expect(created).toHaveLength(3);
      // Three lookups left for this IP: a DELETE (anonymous pushes are deletable by viewers) and previews.
      expect((await at().delete(`/api/v2/pushes/${created[0]}`)).status).toBe(200);
      expect((await at().get(`/api/v2/pushes/${created[0]}/preview`)).status).toBe(200);
      expect((await at().get(`/api/v2/pushes/${created[1]}/preview`)).status).toBe(200);
      for (const limited of [
        await at().get(`/api/v2/pushes/${created[2]}/preview`),
        await at().delete(`/api/v2/pushes/${created[2]}`),
      ]) {
        expect(limited.status).toBe(429);
        expect(limited.body).toMatchObject({
          code: 'rate_limited',
          error: expect.stringMatching(/retry in \d+ seconds/),
        });
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      }
      // Nothing was expired by the refused DELETE.
      expect((await at().get(`/api/v2/pushes/${created[2]}`)).body.expired).toBe(false);

      // A client with a token has its own count; audit pages count with its previews and DELETEs.
      const owned = await createdToken(push.url, { payload: 'y' }, h.token);
      for (let i = 0; i < 5; i++) {
        expect((await at().get(`/api/v2/pushes/${owned}/audit`).set(bearer(h.token))).status).toBe(200);
      }
      expect((await at().delete(`/api/v2/pushes/${owned}`).set(bearer(h.token))).status).toBe(200);
      const audit = await at().get(`/api/v2/pushes/${owned}/audit`).set(bearer(h.token));
      expect(audit.status).toBe(429);
      expect(audit.body.code).toBe('rate_limited');
    } finally {
      await push.stop();
    }
  });
});
