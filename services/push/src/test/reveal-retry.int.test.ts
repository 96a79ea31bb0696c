import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { startPush, type TestPush } from '../testing';
import { type Harness, bearer, createdToken, harness } from './support/helpers';

// Retry-safe reveals against the real services (PostgreSQL, Redis, the auth service): a reveal id
// (the API's Idempotency-Key on POST …/reveal, the recipient page's hidden field) repeated within
// the window gets the same content without spending another view, audit entry or event.
let h: Harness;
let shortWindow: TestPush;
let lastView: TestPush;
beforeAll(async () => {
  h = await harness();
  shortWindow = await startPush(h.auth, { env: { PUSH_REVEAL_RETRY_SECONDS: '1' } });
  lastView = await startPush(h.auth, { env: { PUSH_REVEAL_RETRY_LAST_VIEW: 'true' } });
});
afterAll(async () => {
  await shortWindow?.stop();
  await lastView?.stop();
  await h?.stop();
});

const reveal = (url: string, t: string, id?: string, body: Record<string, string> = {}) => {
  const req = request(url).post(`/api/v2/pushes/${t}/reveal`);
  if (id !== undefined) void req.set('Idempotency-Key', id);
  return req.send(body);
};
const auditKinds = async (url: string, t: string) =>
  (await request(url).get(`/api/v2/pushes/${t}/audit`).set(bearer(h.token))).body.logs.map(
    (l: { kind: string }) => l.kind,
  );
/** pushes_viewed_total of a process, all kinds together (the events a view announces). */
const viewedEvents = async (push: TestPush) => {
  const text = await (await fetch(`${push.metricsUrl}/metrics`)).text();
  return [...text.matchAll(/^pushes_viewed_total\{[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
};

describe('POST /api/v2/pushes/:url_token/reveal with a reveal id', () => {
  it('spends one view for the same id, another for a different id; no audit entry or event for a repeat', async () => {
    const t = await createdToken(h.push.url, { payload: 'hunter2', expire_after_views: 3 }, h.token);
    const id = randomUUID();
    const events = await viewedEvents(h.push);
    const first = await reveal(h.push.url, t, id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ payload: 'hunter2', views_remaining: 2 });
    for (let i = 0; i < 2; i++) {
      const again = await reveal(h.push.url, t, id);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ payload: 'hunter2', views_remaining: 2, expired: false });
    }
    expect(await auditKinds(h.push.url, t)).toEqual(['creation', 'view']);
    expect(await viewedEvents(h.push)).toBe(events + 1);

    const other = await reveal(h.push.url, t, randomUUID());
    expect(other.body).toMatchObject({ payload: 'hunter2', views_remaining: 1 });
    expect(await auditKinds(h.push.url, t)).toEqual(['creation', 'view', 'view']);
  });

  it('GET counts every call, Idempotency-Key or not', async () => {
    const t = await createdToken(h.push.url, { payload: 'counted', expire_after_views: 3 }, h.token);
    const id = randomUUID();
    const get = () => request(h.push.url).get(`/api/v2/pushes/${t}`).set('Idempotency-Key', id);
    expect((await get()).body.views_remaining).toBe(2);
    expect((await get()).body.views_remaining).toBe(1);
  });

  it('makes one view out of concurrent reveals with one id', async () => {
    const t = await createdToken(h.push.url, { payload: 'race', expire_after_views: 5 }, h.token);
    const id = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => reveal(h.push.url, t, id)));
    for (const a of answers) expect(a.body).toMatchObject({ payload: 'race', views_remaining: 4 });
    expect(await auditKinds(h.push.url, t)).toEqual(['creation', 'view']);
  });

  it('a repeat needs the same passphrase; a wrong one is refused as usual', async () => {
    const t = await createdToken(
      h.push.url,
      { payload: 'locked', expire_after_views: 3, passphrase: 'sesame' },
      h.token,
    );
    const id = randomUUID();
    expect((await reveal(h.push.url, t, id, { passphrase: 'sesame' })).body.views_remaining).toBe(2);
    expect((await reveal(h.push.url, t, id)).status).toBe(401);
    expect((await reveal(h.push.url, t, id, { passphrase: 'wrong' })).status).toBe(401);
    const again = await reveal(h.push.url, t, id, { passphrase: 'sesame' });
    expect(again.body).toMatchObject({ payload: 'locked', views_remaining: 2 });
    expect(await auditKinds(h.push.url, t)).toEqual([
      'creation',
      'view',
      'failed_passphrase',
      'failed_passphrase',
    ]);
  });

  it('refuses an id too short to be unguessable (400) and spends nothing', async () => {
    const t = await createdToken(h.push.url, { payload: 'x', expire_after_views: 2 }, h.token);
    const res = await reveal(h.push.url, t, 'short');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'bad_request',
      error: expect.stringContaining('Idempotency-Key'),
    });
    expect(await auditKinds(h.push.url, t)).toEqual(['creation']);
  });

  it('forgets the id at the end of the window: a later repeat spends a view', async () => {
    const t = await createdToken(shortWindow.url, { payload: 'brief', expire_after_views: 3 }, h.token);
    const id = randomUUID();
    expect((await reveal(shortWindow.url, t, id)).body.views_remaining).toBe(2);
    expect((await reveal(shortWindow.url, t, id)).body.views_remaining).toBe(2);
    await new Promise((r) => setTimeout(r, 1300));
    expect((await reveal(shortWindow.url, t, id)).body.views_remaining).toBe(1);
  });

  it('the last view: by default a repeat is answered as expired; where the operator allows it, with the content', async () => {
    const id = randomUUID();
    const t = await createdToken(h.push.url, { payload: 'once', expire_after_views: 1 }, h.token);
    expect((await reveal(h.push.url, t, id)).body).toMatchObject({ payload: 'once', expired: true });
    expect((await reveal(h.push.url, t, id)).body).toMatchObject({ payload: null, expired: true });

    const kept = await createdToken(lastView.url, { payload: 'once more', expire_after_views: 1 }, h.token);
    const first = await reveal(lastView.url, kept, id);
    expect(first.body).toMatchObject({ payload: 'once more', expired: true, views_remaining: 0 });
    const again = await reveal(lastView.url, kept, id);
    expect(again.body).toMatchObject({ payload: 'once more', expired: true, views_remaining: 0 });
    expect(await auditKinds(lastView.url, kept)).toEqual(['creation', 'view', 'expire_by_views']);
    // Another id gets the expired answer: the copy serves only the reveal that spent the view.
    expect((await reveal(lastView.url, kept, randomUUID())).body.payload).toBeNull();
  });
});

describe('the recipient page with its reveal id', () => {
  it('a resubmitted reveal (a reload of the revealed page) spends no other view; a new page does', async () => {
    const t = await createdToken(h.push.url, { payload: 'page secret', expire_after_views: 3 }, h.token);
    const page = await request(h.push.url).get(`/p/${t}/r`);
    const id = /name="reveal_id" value="([\w-]{43})"/.exec(page.text)![1]!;
    const post = (revealId: string) =>
      request(h.push.url)
        .post(`/p/${t}/r`)
        .set('Sec-Fetch-Site', 'same-origin')
        .type('form')
        .send({ reveal_id: revealId });
    for (let i = 0; i < 2; i++) {
      const res = await post(id);
      expect(res.status).toBe(200);
      expect(res.text).toContain('page secret');
    }
    expect(await auditKinds(h.push.url, t)).toEqual(['creation', 'link_opened', 'view']);
    const next = /name="reveal_id" value="([\w-]{43})"/.exec(
      (await request(h.push.url).get(`/p/${t}/r`)).text,
    )![1]!;
    expect(next).not.toBe(id);
    expect((await post(next)).text).toContain('page secret');
    expect((await request(h.push.url).get(`/api/v2/pushes/${t}/preview`)).status).toBe(200);
    const views = (await request(h.push.url).get(`/api/v2/pushes/${t}`)).body.views_remaining;
    expect(views).toBe(0); // 3 views: the page's two reveals and this one
  });
});
