import request from 'supertest';
import { sql } from 'kysely';
import { BASE_KEYS, type Harness, bearer, createdToken, harness } from './support/helpers';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.stop());

const get = (t: string) => request(h.push.url).get(`/api/v2/pushes/${t}`);
const row = async (t: string) => {
  const { rows } = await sql<{
    views: number;
    expired: boolean;
    payload_sealed: Buffer | null;
    note_sealed: Buffer | null;
  }>`
    select views, expired, payload_sealed, note_sealed from push
    where token_hash = sha256(convert_to(${t}, 'UTF8'))`.execute(h.push.db);
  return rows[0]!;
};
const auditKinds = async (t: string) =>
  (await request(h.push.url).get(`/api/v2/pushes/${t}/audit`).set(bearer(h.token))).body.logs.map(
    (l: { kind: string }) => l.kind,
  );

describe('GET /api/v2/pushes/:url_token', () => {
  it('returns the payload, counts the view, and is never cached', async () => {
    const t = await createdToken(h.push.url, { payload: 'hunter2', expire_after_views: 3 }, h.token);
    const res = await get(t);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual([...BASE_KEYS, 'files', 'payload'].sort());
    expect(res.body).toMatchObject({ payload: 'hunter2', files: [], views_remaining: 2, expired: false });
    expect(res.body.name).toBeUndefined();
    expect((await get(`${t}.json`)).body.views_remaining).toBe(1);
    expect(await auditKinds(t)).toEqual(['creation', 'view', 'view']);
  });

  it('serves the last view with expired: true and wipes the secret in the same statement', async () => {
    const t = await createdToken(h.push.url, { payload: 'once', expire_after_views: 1, note: 'n' }, h.token);
    const last = await get(t);
    expect(last.body).toMatchObject({ payload: 'once', expired: true, views_remaining: 0 });
    expect(last.body.expired_on).toEqual(expect.any(String));
    expect(await row(t)).toMatchObject({ views: 1, expired: true, payload_sealed: null, note_sealed: null });

    const after = await get(t);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ payload: null, files: [], expired: true, views_remaining: 0 });
    expect(await auditKinds(t)).toEqual(['creation', 'view', 'expire_by_views', 'failed_view']);
    expect((await row(t)).views).toBe(1);
  });

  it('answers 404 for unknown or malformed tokens', async () => {
    for (const t of ['AAAAAAAAAAAAAAAAAAAAAA', 'x', 'a.b']) {
      const res = await get(t);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', error: 'Push not found.' });
    }
  });

  it('expires a push past its window on read, even before the worker ran', async () => {
    const t = await createdToken(h.push.url, { payload: 'old secret', note: 'n' }, h.token);
    await sql`update push set expires_at = now() - interval '1 second' where token_hash = sha256(convert_to(${t}, 'UTF8'))`.execute(
      h.push.db,
    );
    const listed = await request(h.push.url).get('/api/v2/pushes/expired').set(bearer(h.token));
    expect(listed.body.find((p: { url_token: string }) => p.url_token === t)).toMatchObject({
      expired: true,
    });

    const res = await get(t);
    expect(res.body).toMatchObject({ payload: null, expired: true, days_remaining: 0 });
    expect(await row(t)).toMatchObject({ expired: true, payload_sealed: null, note_sealed: null, views: 0 });
    expect(await auditKinds(t)).toEqual(['creation', 'expire_by_time', 'failed_view']);
  });

  it('gives 50 concurrent readers of a push with 3 views left exactly 3 payloads', async () => {
    const t = await createdToken(h.push.url, { payload: 'race', expire_after_views: 3 });
    const results = await Promise.all(Array.from({ length: 50 }, () => get(t)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const served = results.filter((r) => r.body.payload === 'race');
    expect(served).toHaveLength(3);
    expect(results.filter((r) => r.body.payload === null && r.body.expired === true)).toHaveLength(47);
    expect(served.map((r) => r.body.views_remaining).sort()).toEqual([0, 1, 2]);
    expect(await row(t)).toMatchObject({ views: 3, expired: true, payload_sealed: null });
  });

  it('counts the owner’s retrievals as views too', async () => {
    const t = await createdToken(h.push.url, { payload: 'x', expire_after_views: 2 }, h.token);
    expect((await get(t).set(bearer(h.token))).body.views_remaining).toBe(1);
  });

  it('refuses an invalid token even on this public endpoint', async () => {
    const t = await createdToken(h.push.url, { payload: 'x' });
    const res = await get(t).set(bearer('invalid'));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
    expect((await row(t)).views).toBe(0);
  });
});

describe('GET /api/v2/pushes/:url_token/preview', () => {
  it('returns the secret URL without using a view, also once expired', async () => {
    const t = await createdToken(h.push.url, { payload: 'x', expire_after_views: 1, retrieval_step: false });
    const res = await request(h.push.url).get(`/api/v2/pushes/${t}/preview.json`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: `${h.push.url}/p/${t}` });
    expect((await row(t)).views).toBe(0);
    await get(t);
    expect((await request(h.push.url).get(`/api/v2/pushes/${t}/preview`)).body).toEqual({
      url: `${h.push.url}/p/${t}`,
    });
    expect((await request(h.push.url).get('/api/v2/pushes/AAAAAAAAAAAAAAAAAAAAAA/preview')).status).toBe(404);
  });
});
