import express, { type Express } from 'express';
import request from 'supertest';
import { type ClientCredentials, type TestAuth, startAuth } from '@secret-push/auth/testing';
import { errorHandler } from '@secret-push/http-kit';
import { createLogger } from '@secret-push/logger';
import { authenticate, principalOf, requireScope } from './bearer-auth';
import { type IntrospectionOptions, createIntrospectionVerifier } from './introspection-client';

// The real auth service issues, introspects and revokes every token used here; nothing is mocked.

const INVALID_TOKEN_CHALLENGE =
  'Bearer realm="secret-push", error="invalid_token", error_description="The access token is invalid or has expired."';

const logger = createLogger({ name: 't', level: 'silent' });

const basic = (c: { client_id: string; client_secret: string }) =>
  `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`;

interface Harness {
  app: Express;
  lookups: { hit: number; miss: number };
}

function harness(auth: TestAuth, options: Partial<IntrospectionOptions> = {}): Harness {
  const lookups = { hit: 0, miss: 0 };
  const verifier = createIntrospectionVerifier({
    introspectionUrl: `${auth.issuer}/connect/introspect`,
    clientId: auth.resourceServer.client_id,
    clientSecret: auth.resourceServer.client_secret,
    audience: 'push-api',
    cacheSeconds: 30,
    cacheSize: 100,
    timeoutMs: 2000,
    onLookup: (outcome) => {
      lookups[outcome] += 1;
    },
    ...options,
  });
  const app = express();
  app.use(express.json());
  app.use(authenticate(verifier));
  const whoami: express.RequestHandler = (_req, res) => {
    res.json({ principal: principalOf(res)?.id ?? null });
  };
  app.get('/open', whoami);
  app.post('/open', whoami);
  app.get('/write', requireScope('pushes:write'), whoami);
  app.use(errorHandler(logger));
  return { app, lookups };
}

const bearer = (app: Express, path: string, token: string) =>
  request(app).get(path).set('Authorization', `Bearer ${token}`);

async function revoke(auth: TestAuth, client: ClientCredentials, token: string): Promise<void> {
  const res = await fetch(`${auth.issuer}/connect/revocation`, {
    method: 'POST',
    headers: { authorization: basic(client) },
    body: new URLSearchParams({ token }),
  });
  expect(res.status).toBe(200);
}

describe('bearer authentication against the auth service', () => {
  let auth: TestAuth;
  let writer: ClientCredentials;
  let reader: ClientCredentials;

  beforeAll(async () => {
    auth = await startAuth();
    writer = await auth.createClient('pushes:read pushes:write');
    reader = await auth.createClient('pushes:read');
  });
  afterAll(() => auth.stop());

  describe('who is calling', () => {
    it('lets anonymous requests through to open routes', async () => {
      const { app, lookups } = harness(auth);
      const res = await request(app).get('/open');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ principal: null });
      expect(lookups).toEqual({ hit: 0, miss: 0 });
    });

    it('establishes the client of a valid token as the principal', async () => {
      const { app } = harness(auth);
      const token = await auth.token(writer);
      const open = await bearer(app, '/open', token);
      expect(open.status).toBe(200);
      expect(open.body).toEqual({ principal: `client:${writer.client_id}` });
      const write = await bearer(app, '/write', token);
      expect(write.status).toBe(200);
      expect(write.body).toEqual({ principal: `client:${writer.client_id}` });
    });

    it('refuses a garbage token with an invalid_token challenge, even on an open route', async () => {
      const { app } = harness(auth);
      const res = await bearer(app, '/open', 'not-a-token');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        code: 'invalid_token',
        error: 'The access token is invalid or has expired.',
      });
      expect(res.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
    });

    it.each([
      ['another scheme', () => basic(writer)],
      ['a bare Bearer', () => 'Bearer'],
      ['a malformed Bearer', () => 'Bearer a b'],
    ])('refuses %s in the Authorization header as invalid_token', async (_name, header) => {
      const { app, lookups } = harness(auth);
      const res = await request(app).get('/open').set('Authorization', header());
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_token');
      expect(res.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
      expect(lookups.miss).toBe(0);
    });

    it('refuses tokens in the query string or the body (RFC 6750 §5.3)', async () => {
      const { app, lookups } = harness(auth);
      const token = await auth.token(writer);
      const responses = [
        await request(app).get('/open?access_token='),
        await request(app).get('/open').query({ access_token: token }),
        await request(app).post('/open').send({ access_token: token }),
      ];
      for (const res of responses) {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          code: 'bad_request',
          error: 'Access tokens are accepted only in the Authorization header.',
        });
      }
      expect(lookups.miss).toBe(0);
    });

    it('treats the answer to credentials other than the resource server’s (active:false) as invalid', async () => {
      const { app } = harness(auth, { clientId: writer.client_id, clientSecret: writer.client_secret });
      const res = await bearer(app, '/open', await auth.token(writer));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_token');
    });
  });

  describe('what the caller may do', () => {
    it('answers 401 unauthorized on a protected route without a token', async () => {
      const { app } = harness(auth);
      const res = await request(app).get('/write');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthorized', error: 'Authentication required.' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="secret-push"');
    });

    it('answers 403 insufficient_scope naming the missing scope', async () => {
      const { app } = harness(auth);
      const res = await bearer(app, '/write', await auth.token(reader));
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'insufficient_scope',
        error: 'This token lacks the pushes:write scope.',
      });
      expect(res.headers['www-authenticate']).toBe(
        'Bearer realm="secret-push", error="insufficient_scope", scope="pushes:write"',
      );
    });
  });

  describe('introspection cache', () => {
    it('serves a repeated token from the cache', async () => {
      const { app, lookups } = harness(auth);
      const token = await auth.token(writer);
      expect((await bearer(app, '/open', token)).status).toBe(200);
      expect((await bearer(app, '/open', token)).status).toBe(200);
      expect(lookups).toEqual({ hit: 1, miss: 1 });
    });

    it('shares one introspection call among concurrent requests with the same token', async () => {
      const { app, lookups } = harness(auth);
      const token = await auth.token(writer);
      const responses = await Promise.all(Array.from({ length: 20 }, () => bearer(app, '/open', token)));
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(lookups).toEqual({ hit: 19, miss: 1 });
    });

    it('caches inactive answers for negativeCacheSeconds only', async () => {
      const cached = harness(auth);
      await bearer(cached.app, '/open', 'garbage-token-well-formed-1');
      expect((await bearer(cached.app, '/open', 'garbage-token-well-formed-1')).status).toBe(401);
      expect(cached.lookups).toEqual({ hit: 1, miss: 1 });

      const uncached = harness(auth, { negativeCacheSeconds: 0 });
      await bearer(uncached.app, '/open', 'garbage-token-well-formed-1');
      expect((await bearer(uncached.app, '/open', 'garbage-token-well-formed-1')).status).toBe(401);
      expect(uncached.lookups).toEqual({ hit: 0, miss: 2 });
    });

    it('refuses a malformed token (wrong characters, too short or too long) without asking the auth service', async () => {
      const { app, lookups } = harness(auth);
      for (const token of [
        'short',
        'a'.repeat(513),
        'has space-in-it-0000000',
        'bad\u00e9-character-000000',
      ]) {
        const res = await request(app).get('/open').set('Authorization', `Bearer ${token}`);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('invalid_token');
      }
      expect(lookups).toEqual({ hit: 0, miss: 0 });
    });

    it('keeps refused tokens in a cache of their own: random tokens never evict active ones', async () => {
      const { app, lookups } = harness(auth, { cacheSize: 2, negativeCacheSize: 5 });
      const token = await auth.token(writer);
      expect((await bearer(app, '/open', token)).status).toBe(200);
      for (let i = 0; i < 10; i++) {
        expect((await bearer(app, '/open', `random-token-${i}-${'x'.repeat(20)}`)).status).toBe(401);
      }
      expect(lookups).toEqual({ hit: 0, miss: 11 });
      expect((await bearer(app, '/open', token)).status).toBe(200);
      expect(lookups).toEqual({ hit: 1, miss: 11 });
    });

    it('introspects tokens again once evicted by the size bound', async () => {
      const { app, lookups } = harness(auth, { cacheSize: 2 });
      const [a, b, c] = await Promise.all([auth.token(writer), auth.token(writer), auth.token(writer)]);
      for (const token of [a, b, c]) expect((await bearer(app, '/open', token)).status).toBe(200);
      expect(lookups).toEqual({ hit: 0, miss: 3 });
      expect((await bearer(app, '/open', a)).status).toBe(200);
      expect(lookups).toEqual({ hit: 0, miss: 4 });
      expect((await bearer(app, '/open', c)).status).toBe(200);
      expect(lookups).toEqual({ hit: 1, miss: 4 });
      expect((await bearer(app, '/open', b)).status).toBe(200);
      expect(lookups).toEqual({ hit: 1, miss: 5 });
    });

    // Documented trade-off: a revoked token stays accepted for up to cacheSeconds.
    it('keeps accepting a revoked token from the cache within cacheSeconds', async () => {
      const { app, lookups } = harness(auth, { cacheSeconds: 30 });
      const token = await auth.token(writer);
      expect((await bearer(app, '/open', token)).status).toBe(200);
      await revoke(auth, writer, token);
      const res = await bearer(app, '/open', token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ principal: `client:${writer.client_id}` });
      expect(lookups).toEqual({ hit: 1, miss: 1 });
    });

    it('refuses a revoked token at once with cacheSeconds 0', async () => {
      const { app, lookups } = harness(auth, { cacheSeconds: 0 });
      const token = await auth.token(writer);
      expect((await bearer(app, '/open', token)).status).toBe(200);
      await revoke(auth, writer, token);
      const res = await bearer(app, '/open', token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_token');
      expect(lookups).toEqual({ hit: 0, miss: 2 });
    });
  });

  describe('auth service failures', () => {
    it('answers 503 for uncached tokens while the auth service is down, and nothing else changes', async () => {
      const { app } = harness(auth);
      const cachedToken = await auth.token(writer);
      const freshToken = await auth.token(writer);
      expect((await bearer(app, '/open', cachedToken)).status).toBe(200);
      await auth.stopServer();
      try {
        const res = await bearer(app, '/open', freshToken);
        expect(res.status).toBe(503);
        expect(res.body.code).toBe('dependency_unavailable');
        expect(res.headers['retry-after']).toBe('5');
        expect((await bearer(app, '/open', cachedToken)).status).toBe(200);
        expect((await request(app).get('/open')).status).toBe(200);
      } finally {
        await auth.startServer();
      }
      expect((await bearer(app, '/open', freshToken)).status).toBe(200);
    });

    it('answers 503, not 401, when the auth service refuses our introspection credentials', async () => {
      const { app } = harness(auth, { clientSecret: 'wrong-secret' });
      const res = await bearer(app, '/open', await auth.token(writer));
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('dependency_unavailable');
    });
  });
});

describe('bearer authentication with short-lived tokens', () => {
  let auth: TestAuth;
  beforeAll(async () => {
    auth = await startAuth({ env: { AUTH_ACCESS_TOKEN_TTL: '2' } });
  });
  afterAll(() => auth.stop());

  it('never serves a cache entry past the token’s exp', async () => {
    const { app, lookups } = harness(auth, { cacheSeconds: 30 });
    const token = await auth.token(await auth.createClient('pushes:write'));
    expect((await bearer(app, '/open', token)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    const res = await bearer(app, '/open', token);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
    expect(lookups).toEqual({ hit: 0, miss: 2 });
  });
});
