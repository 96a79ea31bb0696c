import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import request from 'supertest';
import { freePort } from '@secret-push/testing';
import type { User, UserIdentity } from '../domain/user';
import { type UserTokenService, createUserTokenService } from '../domain/user-tokens';
import { createUserRepository } from '../storage/user.repository';
import { type TestPush, startPush } from '../testing';
import { type Harness, bearer, createPush, createdToken, harness, waitFor } from './support/helpers';

// Personal API tokens on the API: a real auth service (for the OAuth clients alongside), a real push
// service, its own PostgreSQL and Redis. Users are made through the domain service, as sign-in will.

let h: Harness;
let users: UserTokenService;
beforeAll(async () => {
  h = await harness();
  users = createUserTokenService({ store: createUserRepository(h.push.db) });
});
afterAll(() => h.stop());

const api = (push: TestPush = h.push) => request(push.url);
const READ_WRITE = ['pushes:read', 'pushes:write'];

let people = 0;
async function person(over: Partial<UserIdentity> = {}): Promise<User> {
  people++;
  return users.upsertUser({
    issuer: 'https://idp.example',
    subject: `person-${people}-${randomBytes(3).toString('hex')}`,
    email: `Person${people}@Example.org`,
    emailVerified: true,
    ...over,
  });
}

async function tokenOf(user: User, scopes = READ_WRITE, name = `token ${randomBytes(3).toString('hex')}`) {
  return (await users.createToken(user.id, { name, scopes })).value;
}

const randomSpu = () => `spu_${randomBytes(32).toString('base64url')}`;
const legacy = (email: string, token: string) => ({ 'X-User-Email': email, 'X-User-Token': token });
const urlTokensOf = (res: request.Response) => (res.body as { url_token: string }[]).map((p) => p.url_token);

async function metric(push: TestPush, name: string, outcome: string): Promise<number> {
  const text = (await request(push.metricsUrl).get('/metrics')).text;
  const match = new RegExp(`^${name}\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

describe('a personal token (Authorization: Bearer spu_…)', () => {
  it('creates and lists its user’s pushes, owned by user:<id>, without asking the auth service', async () => {
    const ada = await person();
    const token = await tokenOf(ada);
    const introspections = await metric(h.push, 'push_introspection_cache_lookups_total', 'miss');
    const created = await createPush(h.push.url, { payload: 'from a person', note: 'n' }, token);
    expect(created.status).toBe(201);
    const { rows } = await sql<{ owner: string }>`
      select owner from push where token_hash = sha256(convert_to(${created.body.url_token as string}, 'UTF8'))`.execute(
      h.push.db,
    );
    expect(rows[0]!.owner).toBe(`user:${ada.id}`);
    const listed = await api().get('/api/v2/pushes/active').set(bearer(token));
    expect(listed.status).toBe(200);
    expect(urlTokensOf(listed)).toEqual([created.body.url_token]);
    // Every token of the same user owns the same pushes.
    const second = await tokenOf(ada, ['pushes:read']);
    expect(urlTokensOf(await api().get('/api/v2/pushes/active').set(bearer(second)))).toEqual([
      created.body.url_token,
    ]);
    expect(await metric(h.push, 'push_introspection_cache_lookups_total', 'miss')).toBe(introspections);
    expect(await metric(h.push, 'push_personal_token_lookups_total', 'miss')).toBeGreaterThanOrEqual(2);
  });

  it('with pushes:read only, cannot create (403 insufficient_scope)', async () => {
    const reader = await tokenOf(await person(), ['pushes:read']);
    const res = await createPush(h.push.url, { payload: 'x' }, reader);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect(res.headers['www-authenticate']).toContain('scope="pushes:write"');
    expect((await api().get('/api/v2/pushes/expired').set(bearer(reader))).status).toBe(200);
  });

  it.each<[string, () => string | Promise<string>]>([
    [
      'revoked',
      async () => {
        const user = await person();
        const { token, value } = await users.createToken(user.id, { name: 'gone', scopes: READ_WRITE });
        await users.revokeToken(user.id, token.id);
        return value;
      },
    ],
    [
      'expired',
      async () => {
        const user = await person();
        const { token, value } = await users.createToken(user.id, {
          name: 'old',
          scopes: READ_WRITE,
          expiresAt: new Date(Date.now() + 3_600_000),
        });
        await sql`update personal_token set created_at = now() - interval '2 hours',
                  expires_at = now() - interval '1 second' where id = ${token.id}`.execute(h.push.db);
        return value;
      },
    ],
    [
      'regenerated (its old value)',
      async () => {
        const user = await person();
        const { token, value } = await users.createToken(user.id, { name: 'rotated', scopes: READ_WRITE });
        await users.regenerateToken(user.id, token.id);
        return value;
      },
    ],
    [
      'of a disabled user',
      async () => {
        const user = await person();
        const value = await tokenOf(user);
        await users.disableUser(user.id);
        return value;
      },
    ],
    ['unknown', () => randomSpu()],
    ['malformed', () => 'spu_short'],
  ])('is refused when %s: 401 invalid_token, even on an open endpoint', async (_case, make) => {
    const token = await make();
    const t = await createdToken(h.push.url, { payload: 'x' });
    for (const res of [
      await createPush(h.push.url, { payload: 'x' }, token),
      await api().get('/api/v2/pushes/active').set(bearer(token)),
      await api().get(`/api/v2/pushes/${t}/preview`).set(bearer(token)),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_token');
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    }
  });

  it('records its last use at most once a minute, without failing or slowing requests', async () => {
    const user = await person();
    const { token, value } = await users.createToken(user.id, { name: 'used', scopes: READ_WRITE });
    const lastUsed = async () => (await users.listTokens(user.id)).find((t) => t.id === token.id)!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    expect((await api().get('/api/v2/pushes/active').set(bearer(value))).status).toBe(200);
    await waitFor(async () => (await lastUsed()) !== null, 5000);
    const first = await lastUsed();
    for (let i = 0; i < 3; i++) {
      expect((await api().get('/api/v2/pushes/active').set(bearer(value))).status).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(await lastUsed()).toEqual(first);
  });
});

describe('ownership between users and clients', () => {
  it('keeps each principal to its own pushes: lists, audit and owner DELETE', async () => {
    const [ada, bob] = [await person(), await person()];
    const [adaToken, bobToken] = [await tokenOf(ada), await tokenOf(bob)];
    const adas = await createdToken(h.push.url, { payload: 'ada', deletable_by_viewer: false }, adaToken);
    const clients = await createdToken(
      h.push.url,
      { payload: 'client', deletable_by_viewer: false },
      h.token,
    );

    expect(urlTokensOf(await api().get('/api/v2/pushes/active').set(bearer(bobToken)))).not.toContain(adas);
    expect(urlTokensOf(await api().get('/api/v2/pushes/active').set(bearer(adaToken)))).not.toContain(
      clients,
    );
    expect(urlTokensOf(await api().get('/api/v2/pushes/active').set(bearer(h.token)))).not.toContain(adas);

    for (const [t, token] of [
      [adas, bobToken],
      [adas, h.token],
      [clients, adaToken],
    ] as const) {
      const audit = await api().get(`/api/v2/pushes/${t}/audit`).set(bearer(token));
      expect(audit.status).toBe(403);
      expect(audit.body.code).toBe('forbidden');
      const del = await api().delete(`/api/v2/pushes/${t}`).set(bearer(token));
      expect(del.status).toBe(403);
      expect(del.body.code).toBe('forbidden');
    }
    expect((await api().get(`/api/v2/pushes/${adas}/audit`).set(bearer(adaToken))).status).toBe(200);
    expect((await api().delete(`/api/v2/pushes/${adas}`).set(bearer(adaToken))).body).toMatchObject({
      expired: true,
    });
  });
});

describe('the legacy pair (X-User-Email + X-User-Token)', () => {
  let ada: User;
  let token: string;
  beforeAll(async () => {
    ada = await person({ email: 'Ada.Lovelace@Example.org' });
    token = await tokenOf(ada);
  });

  it('authenticates alone, without an Authorization header', async () => {
    const created = await api()
      .post('/api/v2/pushes')
      .set(legacy('ada.lovelace@example.org', token))
      .send({ push: { payload: 'legacy' } });
    expect(created.status).toBe(201);
    const listed = await api().get('/api/v2/pushes/active').set(legacy('Ada.Lovelace@Example.org', token));
    expect(listed.status).toBe(200);
    expect(urlTokensOf(listed)).toContain(created.body.url_token);
  });

  it('is accepted with a Bearer of the same token and the user’s email, whatever its case', async () => {
    const res = await api()
      .get('/api/v2/pushes/active')
      .set(bearer(token))
      .set(legacy('ADA.LOVELACE@example.ORG', token));
    expect(res.status).toBe(200);
  });

  it.each<[string, () => Record<string, string> | Promise<Record<string, string>>]>([
    ['another email', () => ({ ...bearer(token), ...legacy('eve@example.org', token) })],
    ['another email, without Bearer', () => legacy('eve@example.org', token)],
    [
      'an unverified email, even the user’s own',
      async () => {
        const unverified = await person({ email: 'unverified@example.org', emailVerified: false });
        const own = await tokenOf(unverified);
        return { ...bearer(own), ...legacy('unverified@example.org', own) };
      },
    ],
    [
      'a user without an email',
      async () => {
        const own = await tokenOf(await person({ email: null, emailVerified: false }));
        return legacy('someone@example.org', own);
      },
    ],
    [
      'an X-User-Token other than the Bearer token',
      () => ({ ...bearer(token), ...legacy(ada.email!, randomSpu()) }),
    ],
    [
      'another valid token of the same user in X-User-Token',
      async () => ({ ...bearer(token), ...legacy(ada.email!, await tokenOf(ada)) }),
    ],
    ['X-User-Token without X-User-Email', () => ({ 'X-User-Token': token })],
    ['X-User-Email without X-User-Token', () => ({ ...bearer(token), 'X-User-Email': ada.email! })],
    ['an unknown token', () => legacy(ada.email!, randomSpu())],
    ['an access token in X-User-Token, without Bearer', () => legacy('ci@example.org', h.token)],
  ])('refuses %s: 401 invalid_token', async (_case, headers) => {
    const res = await api()
      .get('/api/v2/pushes/active')
      .set(await headers());
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
  });

  it('with an access token: X-User-Token must be the same token; X-User-Email is not checked (clients have none)', async () => {
    const ok = await api()
      .get('/api/v2/pushes/active')
      .set(bearer(h.token))
      .set(legacy('any@example.org', h.token));
    expect(ok.status).toBe(200);
    const other = await h.auth.token(h.client);
    const mismatch = await api()
      .get('/api/v2/pushes/active')
      .set(bearer(h.token))
      .set(legacy('any@example.org', other));
    expect(mismatch.status).toBe(401);
    expect(mismatch.body.code).toBe('invalid_token');
  });

  it('is refused for a disabled user', async () => {
    const user = await person();
    const own = await tokenOf(user);
    await users.disableUser(user.id);
    const res = await api().get('/api/v2/pushes/active').set(legacy(user.email!, own));
    expect(res.status).toBe(401);
  });
});

describe('caching', () => {
  it('keeps accepting a revoked token for up to 10 s (documented), and refuses it at once with the cache off', async () => {
    const user = await person();
    const { token, value } = await users.createToken(user.id, { name: 'cached', scopes: READ_WRITE });
    expect((await api().get('/api/v2/pushes/active').set(bearer(value))).status).toBe(200);
    await users.revokeToken(user.id, token.id);
    expect((await api().get('/api/v2/pushes/active').set(bearer(value))).status).toBe(200);

    const uncached = await startPush(h.auth, {
      env: { PUSH_PERSONAL_TOKEN_CACHE_SECONDS: '0' },
      database: { url: h.push.env.PUSH_DATABASE_URL! },
    });
    try {
      const other = await person();
      const created = await users.createToken(other.id, { name: 'uncached', scopes: READ_WRITE });
      expect((await api(uncached).get('/api/v2/pushes/active').set(bearer(created.value))).status).toBe(200);
      await users.disableUser(other.id);
      const res = await api(uncached).get('/api/v2/pushes/active').set(bearer(created.value));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_token');
    } finally {
      await uncached.stop();
    }
  });
});

describe('abuse and failures', () => {
  it('counts random spu_ guesses against the per-IP invalid token limit (429), like random bearer tokens', async () => {
    const push = await startPush(h.auth, {
      env: { PUSH_RATE_LIMIT_INVALID_TOKENS_PER_MINUTE: '3' },
      database: { url: h.push.env.PUSH_DATABASE_URL! },
    });
    try {
      const valid = await tokenOf(await person());
      // Known (cached) before the flood.
      expect((await api(push).get('/api/v2/pushes/active').set(bearer(valid))).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await api(push).get('/api/v2/pushes/active').set(bearer(randomSpu()))).status);
      }
      const limited = await api(push).get('/api/v2/pushes/active').set(legacy('x@example.org', randomSpu()));
      statuses.push(limited.status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      expect(limited.body.code).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // A known valid token keeps working from that IP.
      expect((await api(push).get('/api/v2/pushes/active').set(bearer(valid))).status).toBe(200);
    } finally {
      await push.stop();
    }
  });

  it('answers 503 dependency_unavailable (never 401 or 500) when the database does not answer a lookup', async () => {
    const push = await startPush(h.auth, {
      env: { PUSH_DATABASE_STATEMENT_TIMEOUT_MS: '300', PUSH_DATABASE_QUERY_TIMEOUT_MS: '3000' },
      database: { url: h.push.env.PUSH_DATABASE_URL! },
    });
    try {
      const value = await tokenOf(await person());
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // Another session holds the token table for 2 s: the lookup passes its statement deadline.
      const holder = h.push.db.transaction().execute(async (trx) => {
        await sql`lock table personal_token in access exclusive mode`.execute(trx);
        locked();
        await sql`select pg_sleep(2)`.execute(trx);
      });
      await isLocked;
      for (const headers of [bearer(value), legacy('x@example.org', value)]) {
        const res = await api(push).get('/api/v2/pushes/active').set(headers);
        expect(res.status).toBe(503);
        expect(res.body.code).toBe('dependency_unavailable');
        expect(res.headers['retry-after']).toBe('5');
      }
      await holder;
      expect((await api(push).get('/api/v2/pushes/active').set(bearer(value))).status).toBe(200);
    } finally {
      await push.stop();
    }

    const gone = await startPush(h.auth, {
      database: { url: `postgres://postgres@127.0.0.1:${await freePort()}/gone` },
    });
    try {
      const res = await api(gone).get('/api/v2/pushes/active').set(bearer(randomSpu()));
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('dependency_unavailable');
    } finally {
      await gone.stop();
    }
  });
});

describe('GET /version', () => {
  it('still says api_token_authentication: true, and ignores any token', async () => {
    const res = await api().get('/api/v2/version').set(bearer(randomSpu()));
    expect(res.status).toBe(200);
    expect(res.body.features.api_token_authentication).toBe(true);
  });
});
