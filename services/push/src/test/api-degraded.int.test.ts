import request from 'supertest';
import { sql } from 'kysely';
import { freePort, startPrivateRedis } from '@secret-push/testing';
import { startPush } from '../testing';
import { type Harness, bearer, createPush, createdToken, harness } from './support/helpers';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.stop());

describe('with the auth service down', () => {
  it('answers 503 where a token must be checked, and keeps anonymous use working', async () => {
    const t = await createdToken(h.push.url, { payload: 'still here' });
    const fresh = await h.auth.token(h.client); // never seen by the push service, so not cached
    await h.auth.stopServer();
    try {
      const create = await createPush(h.push.url, { payload: 'x' }, fresh);
      expect(create.status).toBe(503);
      expect(create.body.code).toBe('dependency_unavailable');
      expect(create.headers['retry-after']).toBe('5');
      expect((await request(h.push.url).get('/api/v2/pushes/active').set(bearer(fresh))).status).toBe(503);
      expect((await request(h.push.url).get(`/api/v2/pushes/${t}`)).body.payload).toBe('still here');
      expect((await createPush(h.push.url, { payload: 'anonymous' })).status).toBe(201);
    } finally {
      await h.auth.startServer();
    }
    expect((await createPush(h.push.url, { payload: 'x' }, fresh)).status).toBe(201);
  });
});

describe('with Redis down (a private redis-server)', () => {
  it('still creates and retrieves; passphrase retrievals fail closed with 503', async () => {
    const redis = await startPrivateRedis();
    const push = await startPush(h.auth, {
      env: { PUSH_REDIS_URL: redis.url, PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '5' },
    });
    try {
      const plain = await createdToken(push.url, { payload: 'plain' });
      const guarded = await createdToken(push.url, { payload: 'guarded', passphrase: 'pw' });
      await redis.stop();

      expect((await createPush(push.url, { payload: 'during outage' })).status).toBe(201);
      expect((await request(push.url).get(`/api/v2/pushes/${plain}`)).body.payload).toBe('plain');
      const pass = await request(push.url).get(`/api/v2/pushes/${guarded}`).set('X-Passphrase', 'pw');
      expect(pass.status).toBe(503);
      expect(pass.body.code).toBe('dependency_unavailable');
      const ready = await request(push.url).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.checks).toEqual({ database: 'ok', redis: 'unavailable' });

      await redis.start();
      await new Promise((r) => setTimeout(r, 1500)); // ioredis reconnects on its own
      expect(
        (await request(push.url).get(`/api/v2/pushes/${guarded}`).set('X-Passphrase', 'pw')).body.payload,
      ).toBe('guarded');
    } finally {
      await push.stop();
      await redis.stop();
    }
  });
});

describe('with the database down', () => {
  it('answers 503, never 500', async () => {
    const push = await startPush(h.auth, {
      database: { url: `postgres://postgres@127.0.0.1:${await freePort()}/gone` },
    });
    try {
      const create = await createPush(push.url, { payload: 'x' });
      expect(create.status).toBe(503);
      expect(create.body).toMatchObject({
        code: 'dependency_unavailable',
        error: 'The database is unavailable. Please retry shortly.',
      });
      expect((await request(push.url).get('/api/v2/pushes/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(503);
      expect((await request(push.url).get('/readyz')).status).toBe(503);
      expect((await request(push.url).get('/healthz')).status).toBe(200);
    } finally {
      await push.stop();
    }
  });
});

describe('instance settings', () => {
  it('without anonymous access, requires a token everywhere but /version', async () => {
    const push = await startPush(h.auth, { env: { PUSH_ANONYMOUS_ACCESS: 'false' } });
    try {
      const version = await request(push.url).get('/api/v2/version');
      expect(version.body.features.anonymous_access).toBe(false);
      const create = await createPush(push.url, { payload: 'x' });
      expect(create.status).toBe(401);
      expect(create.body.code).toBe('unauthorized');
      const t = await createdToken(push.url, { payload: 'x' }, h.token);
      expect((await request(push.url).get(`/api/v2/pushes/${t}`)).status).toBe(401);
      expect((await request(push.url).get(`/api/v2/pushes/${t}/preview`)).status).toBe(401);
      expect((await request(push.url).get(`/api/v2/pushes/${t}`).set(bearer(h.token))).body.payload).toBe(
        'x',
      );
    } finally {
      await push.stop();
    }
  });

  it('reports and enforces disabled kinds and bounds from the environment', async () => {
    const push = await startPush(h.auth, {
      env: {
        PUSH_URL_PUSHES_ENABLED: 'false',
        PUSH_EXPIRE_AFTER_VIEWS_MAX: '3',
        // The web form's presets must fit the bounds too (checked at start): 5 would not.
        PUSH_WEB_VIEW_PRESETS: '1,2,3',
        PUSH_EXPIRE_AFTER_VIEWS_DEFAULT: '2',
        PUSH_EXPIRE_AFTER_DAYS_DEFAULT: '2',
        PUSH_RETRIEVAL_STEP_DEFAULT: 'false',
      },
    });
    try {
      expect((await request(push.url).get('/api/v2/version')).body.features.pushes.url_pushes).toEqual({
        enabled: false,
      });
      const url = await createPush(push.url, { kind: 'url', payload: 'https://example.com' });
      expect(url.status).toBe(422);
      expect(url.body.fields.kind).toEqual(['URL pushes are disabled.']);
      expect(
        (await createPush(push.url, { payload: 'x', expire_after_views: 4 })).body.fields.expire_after_views,
      ).toEqual(['must be an integer from 1 to 3']);
      expect((await createPush(push.url, { payload: 'x' })).body).toMatchObject({
        expire_after_days: 2,
        retrieval_step: false,
      });
    } finally {
      await push.stop();
    }
  });

  it('rate-limits creation per IP for anonymous callers and per client for authenticated ones', async () => {
    const push = await startPush(h.auth, { env: { PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '3' } });
    try {
      for (let i = 0; i < 3; i++) expect((await createPush(push.url, { payload: 'x' })).status).toBe(201);
      const limited = await createPush(push.url, { payload: 'x' });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await createPush(push.url, { payload: 'x' }, h.token)).status).toBe(201);
    } finally {
      await push.stop();
    }
  });

  it('takes the audited IP from X-Forwarded-For only behind a configured trusted proxy', async () => {
    const trusting = await startPush(h.auth, { env: { PUSH_TRUSTED_PROXIES: '127.0.0.1/32' } });
    try {
      for (const [url, expected] of [
        [trusting.url, '203.0.113.9'],
        [h.push.url, '127.0.0.1'],
      ] as const) {
        const t = await createdToken(url, { payload: 'x' }, h.token);
        await request(url).get(`/api/v2/pushes/${t}`).set('X-Forwarded-For', '203.0.113.9');
        const logs = (await request(url).get(`/api/v2/pushes/${t}/audit`).set(bearer(h.token))).body.logs;
        expect(logs[1]).toMatchObject({ kind: 'view', ip: expected });
      }
    } finally {
      await trusting.stop();
    }
  });

  it('stores at most PUSH_MAX_AUDIT_ENTRIES entries per push and counts the rest', async () => {
    const push = await startPush(h.auth, { env: { PUSH_MAX_AUDIT_ENTRIES: '10' } });
    try {
      const t = await createdToken(push.url, { payload: 'x', expire_after_views: 1 }, h.token);
      await request(push.url).get(`/api/v2/pushes/${t}`);
      await Promise.all(Array.from({ length: 20 }, () => request(push.url).get(`/api/v2/pushes/${t}`)));
      const { rows } = await sql<{ stored: string; dropped: number }>`
        select (select count(*) from audit_entry a where a.push_id = p.id) as stored, p.audit_dropped as dropped
        from push p where token_hash = sha256(convert_to(${t}, 'UTF8'))`.execute(push.db);
      expect(Number(rows[0]!.stored)).toBe(10);
      expect(rows[0]!.dropped).toBe(13);
      const audit = await request(push.url).get(`/api/v2/pushes/${t}/audit`).set(bearer(h.token));
      expect(audit.status).toBe(200);
      expect(audit.body.dropped).toBe(13);
      expect(audit.body.logs).toHaveLength(10);
    } finally {
      await push.stop();
    }
  });

  it('never drops failed_passphrase entries, however full the audit log is', async () => {
    const push = await startPush(h.auth, {
      env: { PUSH_MAX_AUDIT_ENTRIES: '10', PUSH_PASSPHRASE_ATTEMPTS_PER_PUSH: '100' },
    });
    try {
      const t = await createdToken(
        push.url,
        { payload: 'x', passphrase: 'right', expire_after_views: 5 },
        h.token,
      );
      // Fill the log: creation, then page openings up to the cap (and two dropped).
      for (let i = 0; i < 11; i++) await request(push.url).get(`/p/${t}`);
      for (let i = 0; i < 6; i++) {
        const wrong = await request(push.url).get(`/api/v2/pushes/${t}`).set('X-Passphrase', `wrong-${i}`);
        expect(wrong.status).toBe(401);
      }
      await request(push.url).get(`/api/v2/pushes/${t}`); // missing passphrase: also a failed_passphrase
      const { rows } = await sql<{ kind: string; n: string }>`
        select a.kind, count(*) as n from audit_entry a join push p on p.id = a.push_id
        where p.token_hash = sha256(convert_to(${t}, 'UTF8')) group by a.kind`.execute(push.db);
      const count = Object.fromEntries(rows.map((r) => [r.kind, Number(r.n)]));
      expect(count.failed_passphrase).toBe(7);
      expect(count.link_opened).toBe(9);
      const audit = await request(push.url).get(`/api/v2/pushes/${t}/audit`).set(bearer(h.token));
      expect(audit.body.dropped).toBe(2);
    } finally {
      await push.stop();
    }
  });

  it('answers 429 to an IP that keeps sending invalid tokens, before asking the auth service again', async () => {
    const push = await startPush(h.auth, { env: { PUSH_RATE_LIMIT_INVALID_TOKENS_PER_MINUTE: '3' } });
    try {
      // A valid token already known (cached) before the flood.
      expect((await request(push.url).get('/api/v2/pushes/active').set(bearer(h.token))).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await request(push.url)
          .get('/api/v2/pushes/active')
          .set('Authorization', `Bearer not-a-real-token-${i}-${'x'.repeat(20)}`);
        statuses.push(res.status);
        if (res.status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      // A known valid token keeps working from that IP (an unknown one waits for Retry-After).
      const ok = await request(push.url).get('/api/v2/pushes/active').set(bearer(h.token));
      expect(ok.status).toBe(200);
    } finally {
      await push.stop();
    }
  });
});
