import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { type TestPush, startPush } from '../testing';
import { type Harness, bearer, harness } from './support/helpers';

// The invalid-token limiter under a burst, against the real auth service, PostgreSQL and Redis: each
// lookup is taken from the caller's count before the token is looked up (and given back when it was
// valid), so parallel invalid tokens reach the auth service (introspection) or the database
// (personal tokens) at most the limit's number of times.

const LIMIT = 5;
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.stop());

async function metric(push: TestPush, name: string): Promise<number> {
  const text = (await request(push.metricsUrl).get('/metrics')).text;
  const match = new RegExp(`^${name}\\{outcome="miss"\\} (\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** `n` requests at once, each with its own never-seen token. */
function burst(push: TestPush, n: number, token: () => string) {
  return Promise.all(
    Array.from({ length: n }, () => request(push.url).get('/api/v2/pushes/active').set(bearer(token()))),
  );
}

const statusCount = (answers: request.Response[], status: number) =>
  answers.filter((r) => r.status === status).length;

describe.each([
  [
    'access tokens (introspection)',
    'push_introspection_cache_lookups_total',
    () => randomBytes(32).toString('base64url'),
  ],
  [
    'personal tokens (database)',
    'push_personal_token_lookups_total',
    () => `spu_${randomBytes(32).toString('base64url')}`,
  ],
])('20 invalid %s at once from one IP', (_kind, lookups, token) => {
  it(`look up at most ${LIMIT}; the rest are refused (429) unlooked-up, and a valid token still works`, async () => {
    const push = await startPush(h.auth, {
      env: { PUSH_RATE_LIMIT_INVALID_TOKENS_PER_MINUTE: String(LIMIT) },
    });
    try {
      // A valid token, known (cached) before the burst.
      expect((await request(push.url).get('/api/v2/pushes/active').set(bearer(h.token))).status).toBe(200);
      const before = await metric(push, lookups);
      const answers = await burst(push, 20, token);
      const refused = statusCount(answers, 401);
      expect(refused).toBeGreaterThan(0);
      expect(refused).toBeLessThanOrEqual(LIMIT);
      expect(statusCount(answers, 429)).toBe(20 - refused);
      for (const r of answers.filter((a) => a.status === 429)) {
        expect(r.body.code).toBe('rate_limited');
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect((await metric(push, lookups)) - before).toBeLessThanOrEqual(LIMIT);
      expect((await request(push.url).get('/api/v2/pushes/active').set(bearer(h.token))).status).toBe(200);
    } finally {
      await push.stop();
    }
  });
});

describe('valid tokens looked up', () => {
  it('are given back: more valid lookups than the limit, one after the other, are never refused', async () => {
    const push = await startPush(h.auth, { env: { PUSH_RATE_LIMIT_INVALID_TOKENS_PER_MINUTE: '2' } });
    try {
      for (let i = 0; i < 4; i++) {
        const fresh = await h.auth.token(h.client); // not cached: introspected
        expect((await request(push.url).get('/api/v2/pushes/active').set(bearer(fresh))).status).toBe(200);
      }
      const invalid = await burst(push, 3, () => randomBytes(32).toString('base64url'));
      expect(invalid.map((r) => r.status).sort()).toEqual([401, 401, 429]);
    } finally {
      await push.stop();
    }
  });
});
