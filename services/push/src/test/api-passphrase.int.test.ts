import request from 'supertest';
import { sql } from 'kysely';
import { type TestPush, startPush } from '../testing';
import { type Harness, bearer, createdToken, harness } from './support/helpers';

let h: Harness;
let second: TestPush;
beforeAll(async () => {
  h = await harness();
  // A second replica: same database, same Redis prefix, same keys.
  second = await startPush(h.auth, {
    database: { url: h.push.env.PUSH_DATABASE_URL! },
    env: {
      PUSH_REDIS_PREFIX: h.push.env.PUSH_REDIS_PREFIX!,
      PUSH_ENCRYPTION_KEYS: h.push.env.PUSH_ENCRYPTION_KEYS!,
    },
  });
});
afterAll(async () => {
  await second.stop();
  await h.stop();
});

const views = async (t: string) =>
  (
    await sql<{
      views: number;
    }>`select views from push where token_hash = sha256(convert_to(${t}, 'UTF8'))`.execute(h.push.db)
  ).rows[0]!.views;
const audit = async (t: string) =>
  (
    (await request(h.push.url).get(`/api/v2/pushes/${t}/audit`).set(bearer(h.token))).body.logs as {
      kind: string;
    }[]
  ).map((l) => l.kind);
const protectedPush = (views = 5) =>
  createdToken(
    h.push.url,
    { payload: 'behind a passphrase', passphrase: 'open sesame', expire_after_views: views },
    h.token,
  );

describe('passphrase-protected pushes', () => {
  it('never returns the passphrase, only that one is set', async () => {
    const res = await request(h.push.url)
      .post('/api/v2/pushes')
      .send({ push: { payload: 'x', passphrase: 'open sesame' } });
    expect(res.body.passphrase_protected).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('open sesame');
  });

  it('answers 401 for a missing or wrong passphrase, audits it and uses no view', async () => {
    const t = await protectedPush();
    const missing = await request(h.push.url).get(`/api/v2/pushes/${t}`);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({
      error: 'That passphrase is incorrect.',
      code: 'passphrase_required',
    });
    expect(missing.body.message).toMatch(/requires a passphrase/);
    const wrong = await request(h.push.url).get(`/api/v2/pushes/${t}?passphrase=guess`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.payload).toBeUndefined();
    expect(await views(t)).toBe(0);
    expect(await audit(t)).toEqual(['creation', 'failed_passphrase', 'failed_passphrase']);
  });

  it('accepts the passphrase in the query, the X-Passphrase header, or POST …/reveal', async () => {
    const t = await protectedPush();
    const viaQuery = await request(h.push.url).get(`/api/v2/pushes/${t}?passphrase=open%20sesame`);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.body.payload).toBe('behind a passphrase');
    const viaHeader = await request(h.push.url).get(`/api/v2/pushes/${t}`).set('X-Passphrase', 'open sesame');
    expect(viaHeader.body.views_remaining).toBe(3);
    const viaReveal = await request(h.push.url)
      .post(`/api/v2/pushes/${t}/reveal`)
      .send({ passphrase: 'open sesame' });
    expect(viaReveal.status).toBe(200);
    expect(viaReveal.body).toMatchObject({ payload: 'behind a passphrase', views_remaining: 2 });
    const badReveal = await request(h.push.url).post(`/api/v2/pushes/${t}/reveal`).send({ passphrase: 12 });
    expect(badReveal.status).toBe(422);
  });

  it('answers 429 from the 6th attempt within a minute, right passphrase included, across replicas', async () => {
    const t = await protectedPush();
    const urls = [h.push.url, second.url, h.push.url, second.url, h.push.url];
    for (const url of urls) {
      expect((await request(url).get(`/api/v2/pushes/${t}?passphrase=wrong`)).status).toBe(401);
    }
    const sixth = await request(second.url).get(`/api/v2/pushes/${t}?passphrase=open%20sesame`);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toMatchObject({
      code: 'rate_limited',
      error: 'Too many passphrase attempts. Please try again in a minute.',
    });
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(await views(t)).toBe(0);
  });

  it('lets at most 5 of 50 parallel wrong guesses reach verification', async () => {
    const t = await protectedPush();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request(i % 2 ? second.url : h.push.url)
          .get(`/api/v2/pushes/${t}`)
          .set('X-Passphrase', `guess-${i}`),
      ),
    );
    expect(results.filter((r) => r.status === 401)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(45);
    expect((await audit(t)).filter((k) => k === 'failed_passphrase')).toHaveLength(5);
  });

  it('lets the passphrase through after expiry only to an expired answer', async () => {
    const t = await protectedPush(1);
    expect(
      (await request(h.push.url).get(`/api/v2/pushes/${t}`).set('X-Passphrase', 'open sesame')).body.expired,
    ).toBe(true);
    const after = await request(h.push.url).get(`/api/v2/pushes/${t}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ expired: true, payload: null });
    const { rows } = await sql<{ passphrase_hash: string | null }>`
      select passphrase_hash from push where token_hash = sha256(convert_to(${t}, 'UTF8'))`.execute(
      h.push.db,
    );
    expect(rows[0]!.passphrase_hash).toBeNull();
  });
});
