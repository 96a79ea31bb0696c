import request from 'supertest';
import { type ClientCredentials, type TestAuth, startAuth } from '@secret-push/auth/testing';
import { type TestPush, startPush } from '../testing';
import { bearer, createdToken } from '../test/support/helpers';
import { CORS_EXPOSED_HEADERS } from './cors';

// CORS (PUSH_CORS_ORIGINS) against the real services: a push API per configuration, one auth
// service issuing and introspecting the tokens.
jest.setTimeout(60_000);

const APP = 'https://app.example.com';
const DEV = 'http://localhost:5173';
const OTHERS = [
  'https://evil.example',
  'https://app.example.com.evil.example',
  'http://app.example.com',
  'null',
];

let auth: TestAuth;
let client: ClientCredentials;
let token: string;
/** The default: PUSH_CORS_ORIGINS unset. */
let closed: TestPush;
/** PUSH_CORS_ORIGINS set, anonymous access on. */
let open: TestPush;
/** PUSH_CORS_ORIGINS set, anonymous access off. */
let tokensOnly: TestPush;

beforeAll(async () => {
  auth = await startAuth();
  client = await auth.createClient('pushes:read pushes:write');
  token = await auth.token(client);
  const origins = { PUSH_CORS_ORIGINS: ` ${APP}, ${DEV} ` };
  [closed, open, tokensOnly] = await Promise.all([
    startPush(auth),
    startPush(auth, { env: origins }),
    startPush(auth, { env: { ...origins, PUSH_ANONYMOUS_ACCESS: 'false' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([closed, open, tokensOnly].map((p) => p?.stop()));
  await auth?.stop();
});

/** The CORS headers of an answer (`access-control-*`), which must be none for a refused origin. */
const corsHeaders = (res: request.Response) =>
  Object.keys(res.headers).filter((name) => name.startsWith('access-control-'));

const varyList = (res: request.Response) =>
  String(res.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase());

/** A browser's preflight of a POST with a token, a JSON body and an Idempotency-Key. */
const preflight = (push: TestPush, path: string, origin: string, method = 'POST') =>
  request(push.url)
    .options(path)
    .set('Origin', origin)
    .set('Access-Control-Request-Method', method)
    .set('Access-Control-Request-Headers', 'authorization,content-type,idempotency-key');

function expectAllowedPreflight(res: request.Response, origin: string): void {
  expect(res.status).toBe(204);
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  expect(res.headers['access-control-allow-methods']).toBe('GET,POST,PATCH,DELETE');
  const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(',');
  expect(allowed).toEqual(
    expect.arrayContaining([
      'authorization',
      'content-type',
      'idempotency-key',
      'x-passphrase',
      'x-user-email',
      'x-user-token',
    ]),
  );
  expect(res.headers['access-control-max-age']).toBe('600');
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  expect(varyList(res)).toContain('origin');
  expect(res.text).toBe('');
}

function expectExposed(res: request.Response): void {
  const exposed = String(res.headers['access-control-expose-headers']).split(',');
  expect(exposed.sort()).toEqual([...CORS_EXPOSED_HEADERS].sort());
}

describe('PUSH_CORS_ORIGINS unset (the default)', () => {
  it('sends no CORS header, to a preflight or a request from any origin', async () => {
    for (const origin of [APP, ...OTHERS]) {
      const pre = await preflight(closed, '/api/v2/pushes', origin);
      expect(pre.status).not.toBe(204);
      expect(corsHeaders(pre)).toEqual([]);
      const get = await request(closed.url).get('/api/v2/version').set('Origin', origin);
      expect(get.status).toBe(200);
      expect(corsHeaders(get)).toEqual([]);
      expect(varyList(get)).not.toContain('origin');
    }
  });
});

describe('PUSH_CORS_ORIGINS set', () => {
  it('answers the preflight of a listed origin 204, with the allowed methods, headers and max-age', async () => {
    for (const origin of [APP, DEV]) {
      expectAllowedPreflight(await preflight(open, '/api/v2/pushes', origin), origin);
      expectAllowedPreflight(await preflight(open, '/api/v2/pushes.json', origin), origin);
      expectAllowedPreflight(await preflight(open, '/api/v2/pushes/some-token', origin, 'DELETE'), origin);
      expectAllowedPreflight(await preflight(open, '/api/v2/version', origin, 'GET'), origin);
    }
  });

  it('answers it before authentication and the gate: also with anonymous access off', async () => {
    for (const path of ['/api/v2/pushes', '/api/v2/pushes/active', '/api/v2/pushes/t0ken/audit']) {
      expectAllowedPreflight(await preflight(tokensOnly, path, APP, 'GET'), APP);
    }
    // Without a token, the request itself is still refused, and the page can read why.
    const res = await request(tokensOnly.url).get('/api/v2/pushes/active').set('Origin', APP);
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
    expectExposed(res);
  });

  it('lets a listed origin read /version, with the exposed headers', async () => {
    for (const path of ['/api/v2/version', '/api/v2/version.json']) {
      const res = await request(open.url).get(path).set('Origin', DEV);
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(DEV);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['access-control-allow-methods']).toBeUndefined(); // preflights only
      expectExposed(res);
      expect(varyList(res)).toContain('origin');
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    }
    // Any path under /api/v2, an unknown one included (here: no object store, no download links).
    const missing = await request(open.url).get('/api/v2/files/f1?sig=x').set('Origin', DEV);
    expect(missing.status).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe(DEV);
  });

  it('lets a listed origin create with a token, and read Idempotent-Replayed on the retry', async () => {
    for (const push of [open, tokensOnly]) {
      const key = `cors-${push.url}`;
      const create = () =>
        request(push.url)
          .post('/api/v2/pushes')
          .set('Origin', APP)
          .set(bearer(token))
          .set('Idempotency-Key', key)
          .send({ push: { payload: 'from a browser' } });
      const first = await create();
      expect(first.status).toBe(201);
      expect(first.headers['access-control-allow-origin']).toBe(APP);
      expectExposed(first);
      const retry = await create();
      expect(retry.status).toBe(201);
      expect(retry.headers['access-control-allow-origin']).toBe(APP);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body.url_token).toBe(first.body.url_token);
    }
  });

  it('sends no CORS header to an origin that is not listed, nor to a request without Origin', async () => {
    for (const origin of OTHERS) {
      // The preflight is answered as without CORS (the same as on the default instance).
      const pre = await preflight(open, '/api/v2/pushes', origin);
      const before = await preflight(closed, '/api/v2/pushes', origin);
      expect(pre.status).toBe(before.status);
      expect(pre.status).toBeLessThan(500);
      expect(corsHeaders(pre)).toEqual([]);
      const refused = await preflight(tokensOnly, '/api/v2/pushes', origin);
      expect(refused.status).toBe(401); // the gate, as without CORS
      expect(corsHeaders(refused)).toEqual([]);

      const get = await request(open.url).get('/api/v2/version').set('Origin', origin);
      expect(get.status).toBe(200);
      expect(corsHeaders(get)).toEqual([]);
      // The answer depends on Origin: a cache must not give it to a listed origin.
      expect(varyList(get)).toContain('origin');

      const post = await request(open.url)
        .post('/api/v2/pushes')
        .set('Origin', origin)
        .set(bearer(token))
        .send({ push: { payload: 'x' } });
      expect(post.status).toBe(201); // CORS is the browser's check: the server refuses nothing
      expect(corsHeaders(post)).toEqual([]);
    }
    const plain = await request(open.url).options('/api/v2/pushes');
    expect(corsHeaders(plain)).toEqual([]);
    expect((await request(open.url).get('/api/v2/version')).headers['access-control-allow-origin']).toBe(
      undefined,
    );
  });

  it('never sends CORS headers on the recipient pages or the health endpoints', async () => {
    const urlToken = await createdToken(open.url, { payload: 'for the recipient' }, token);
    for (const path of [`/p/${urlToken}`, '/healthz', '/readyz']) {
      const get = await request(open.url).get(path).set('Origin', APP);
      expect(get.status).toBe(200);
      expect(corsHeaders(get)).toEqual([]);
      const pre = await preflight(open, path, APP, 'GET');
      expect(pre.status).not.toBe(204);
      expect(corsHeaders(pre)).toEqual([]);
    }
  });
});
