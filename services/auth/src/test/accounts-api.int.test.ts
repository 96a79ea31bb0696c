import { Agent } from 'node:http';
import * as oidc from 'openid-client';
import { sql } from 'kysely';
import request from 'supertest';
import { captureLogs, freePort, startPrivateRedis } from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { loadAuthConfig } from '../config';
import { startAuthServer } from '../server';
import { type ClientCredentials, type TestAuth, type TestUser, startAuth } from '../testing';
import { basic, postForm } from './support/helpers';
import { Browser } from './support/browser';
import { type RelyingParty, authorize, relyingParty, signIn } from './support/relying-party';
import { CLIENT_CACHE_SECONDS } from '../provider/client-cache';

// The accounts API (GET/DELETE /accounts/:sub) against a real auth service: real database, Redis
// and provider; clients and users made by the CLI; sign-ins by openid-client through the login page.
// The failed-client-authentication throttle is set low (3 per client and IP, 6 per IP), and callers
// that need an address of their own connect from another loopback address.

const agents: Agent[] = [];
function from(ip: string): Agent {
  const agent = new Agent({ localAddress: ip });
  agents.push(agent);
  return agent;
}
afterAll(() => agents.forEach((a) => a.destroy()));

const NO_SUCH = '00000000-0000-4000-8000-000000000000';

let auth: TestAuth;
let app: RelyingParty;
let machine: ClientCredentials;
const logs = captureLogs();
const secrets: string[] = [];

beforeAll(async () => {
  auth = await startAuth({
    env: { AUTH_THROTTLE_MAX_PER_CLIENT_IP: '3', AUTH_THROTTLE_MAX_PER_IP: '6' },
    logger: createLogger({ name: 'auth', level: 'debug' }, logs.stream),
  });
  app = await relyingParty(auth);
  machine = await auth.createClient('pushes:read');
  secrets.push(app.web.client_secret, machine.client_secret);
});
afterAll(() => auth.stop());

const credentials = (c: { client_id: string; client_secret: string }) => c;
const wrong = (c: { client_id: string; client_secret: string }) => ({
  ...c,
  client_secret: `${c.client_secret}x`,
});

function get(sub: string, client?: { client_id: string; client_secret: string }, agent?: Agent) {
  const req = request(auth.issuer).get(`/accounts/${sub}`);
  if (client) void req.set('Authorization', basic(client));
  return agent ? req.agent(agent) : req;
}

function del(sub: string, client?: { client_id: string; client_secret: string }, agent?: Agent) {
  const req = request(auth.issuer).delete(`/accounts/${sub}`);
  if (client) void req.set('Authorization', basic(client));
  return agent ? req.agent(agent) : req;
}

async function user(email: string): Promise<TestUser> {
  const u = await auth.createUser(email);
  secrets.push(u.password);
  return u;
}

/** Rows oidc-provider stored that name the account. */
async function providerRows(accountId: string): Promise<string[]> {
  const rows = await sql<{ model: string }>`
    select model from oidc_payload where payload->>'accountId' = ${accountId} order by model`.execute(
    auth.db,
  );
  return rows.rows.map((r) => r.model);
}

describe('GET /accounts/:sub', () => {
  it('answers a first-party client 200 active, then inactive once disabled, JSON and no-store', async () => {
    const alice = await user('alice@example.org');
    const res = await get(alice.id, credentials(app.web));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ sub: alice.id, active: true });

    expect((await auth.cli('users', 'disable', alice.email)).code).toBe(0);
    expect((await get(alice.id, app.web)).body).toEqual({ sub: alice.id, active: false });
    // The sub in any letter case is the same account, reported in its own spelling.
    expect((await get(alice.id.toUpperCase(), app.web)).body).toEqual({ sub: alice.id, active: false });
    expect((await auth.cli('users', 'enable', alice.email)).code).toBe(0);
    expect((await get(alice.id, app.web)).body).toEqual({ sub: alice.id, active: true });
  });

  it('answers 404 not_found for no such account, 400 invalid_request for a malformed sub', async () => {
    const missing = await get(NO_SUCH, app.web);
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.body).toEqual({ error: 'not_found', error_description: 'no such account' });

    for (const bad of ['not-a-uuid', '%E0%A4%A', `${NO_SUCH}0`, 'alice%40example.org']) {
      const res = await get(bad, app.web);
      expect([bad, res.status, res.body.error]).toEqual([bad, 400, 'invalid_request']);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('refuses a client that is not first-party (a client-credentials client, the resource server): 403', async () => {
    const alice = await auth.createUser('alice2@example.org');
    for (const client of [machine, auth.resourceServer]) {
      const res = await get(alice.id, client);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'forbidden',
        error_description: 'only first-party applications may use the accounts API',
      });
      expect((await del(alice.id, client)).status).toBe(403);
    }
    expect((await get(alice.id, app.web)).body.active).toBe(true);
  });

  it('answers 405 to other methods', async () => {
    const res = await request(auth.issuer).post(`/accounts/${NO_SUCH}`).set('Authorization', basic(app.web));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, DELETE');
  });
});

describe('client authentication', () => {
  it('answers missing or wrong credentials 401 invalid_client with a Basic challenge', async () => {
    const ip = from('127.0.0.2');
    const attempts = [
      get(NO_SUCH, undefined, ip),
      get(NO_SUCH, wrong(app.web), ip),
      get(NO_SUCH, { client_id: 'spc_nobody', client_secret: 'x' }, ip).set('Authorization', 'Bearer x'),
    ];
    for (const attempt of attempts) {
      const res = await attempt;
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="accounts"');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        error: 'invalid_client',
        error_description: 'client authentication failed',
      });
    }
  });

  it('accepts the credentials form-urlencoded before base64, as the token endpoint does (RFC 6749 §2.3.1)', async () => {
    // Client ids and secrets are base64url, so encoding changes nothing but what a client may send:
    // an encoded character is decoded.
    const id = app.web.client_id.replace(/_/, '%5F');
    const header = `Basic ${Buffer.from(`${id}:${app.web.client_secret}`).toString('base64')}`;
    const res = await request(auth.issuer).get(`/accounts/${NO_SUCH}`).set('Authorization', header);
    expect(res.status).toBe(404);
  });

  it('counts failures in the token endpoint throttle: 429 slow_down once over a cap, right credentials still pass', async () => {
    const ip = from('127.0.0.3');
    // Two failures at the token endpoint, one here: three for (web client, IP)…
    for (let i = 0; i < 2; i++) {
      const res = await postForm(
        auth.issuer,
        '/connect/token',
        { grant_type: 'client_credentials' },
        { ...wrong(app.web), scope: '' },
      ).agent(ip);
      expect(res.status).toBe(401);
    }
    expect((await get(NO_SUCH, wrong(app.web), ip)).status).toBe(401);
    // …so the fourth, here, is over the cap.
    const over = await get(NO_SUCH, wrong(app.web), ip);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      error: 'slow_down',
      error_description: 'too many failed client authentication attempts, retry later',
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['www-authenticate']).toBeUndefined();
    // The token endpoint sees the failures made here too.
    const token = await postForm(
      auth.issuer,
      '/connect/token',
      { grant_type: 'client_credentials' },
      { ...wrong(app.web), scope: '' },
    ).agent(ip);
    expect(token.status).toBe(429);
    // The right credentials are never refused for failures.
    expect((await get(NO_SUCH, app.web, ip)).status).toBe(404);
  });
});

describe('DELETE /accounts/:sub', () => {
  it('removes the account, its sessions, grants and tokens; its refresh token stops working; 204 again when gone', async () => {
    const bob = await user('bob@example.org');
    const b = new Browser();
    const tokens = await signIn(auth, app, b, bob);
    secrets.push(tokens.refresh_token!, tokens.access_token, tokens.id_token!);
    // A second sign-in elsewhere: two provider sessions of the account.
    const other = await signIn(auth, app, new Browser(), bob);
    secrets.push(other.refresh_token!);
    expect(await providerRows(bob.id)).toEqual(
      expect.arrayContaining(['AccessToken', 'Grant', 'RefreshToken', 'Session']),
    );
    const carol = await user('carol@example.org');
    const carols = await signIn(auth, app, new Browser(), carol);
    secrets.push(carols.refresh_token!);
    const carolRows = await providerRows(carol.id);

    // The person's own access token from a recent sign-in (an application's credentials never delete).
    const res = await request(auth.issuer)
      .delete(`/accounts/${bob.id}`)
      .set('Authorization', `Bearer ${tokens.access_token}`);
    expect(res.status).toBe(204);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toBe('');

    expect((await get(bob.id, app.web)).status).toBe(404);
    expect(await providerRows(bob.id)).toEqual([]);
    await expect(oidc.refreshTokenGrant(app.rp, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.refreshTokenGrant(app.rp, other.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.fetchUserInfo(app.rp, tokens.access_token, bob.id)).rejects.toBeInstanceOf(
      oidc.WWWAuthenticateChallengeError,
    );
    // The browser's provider session is gone: the next sign-in shows the login page.
    const again = await authorize(auth, app.rp, b);
    expect(again.page.status).toBe(200);
    expect(again.page.body).toContain('<h1>Sign in</h1>');

    // The token died with the account; the application's credentials delete nothing; another
    // account is untouched.
    const again2 = await request(auth.issuer)
      .delete(`/accounts/${bob.id}`)
      .set('Authorization', `Bearer ${tokens.access_token}`);
    expect(again2.status).toBe(401);
    expect((await del(NO_SUCH, app.web)).status).toBe(403);
    expect(await providerRows(carol.id)).toEqual(carolRows);
    const refreshed = await oidc.refreshTokenGrant(app.rp, carols.refresh_token!);
    secrets.push(refreshed.refresh_token!);
    expect(refreshed.claims()).toMatchObject({ sub: carol.id });

    // The email is free again: a new account, with a new sub.
    const bobAgain = await user('bob@example.org');
    expect(bobAgain.id).not.toBe(bob.id);
    expect(logs.text()).toContain('"account deleted"');
  });

  it('is refused without the right credentials, and changes nothing', async () => {
    const dave = await user('dave@example.org');
    const ip = from('127.0.0.4');
    expect((await del(dave.id, undefined, ip)).status).toBe(401);
    expect((await del(dave.id, wrong(app.web), ip)).status).toBe(401);
    expect((await get(dave.id, app.web, ip)).body).toEqual({ sub: dave.id, active: true });
  });
});

describe('discovery', () => {
  it('names the accounts API and the account page', async () => {
    const res = await request(auth.issuer).get('/.well-known/openid-configuration');
    expect(res.body).toMatchObject({
      secret_push_accounts_endpoint: `${auth.issuer}/accounts`,
      secret_push_account_page: `${auth.issuer}/account`,
    });
    const rfc8414 = await request(auth.issuer).get('/.well-known/oauth-authorization-server');
    expect(rfc8414.body.secret_push_accounts_endpoint).toBe(`${auth.issuer}/accounts`);
  });
});

describe('with a dependency down', () => {
  it('answers 503 temporarily_unavailable with Retry-After when the database holds the statement', async () => {
    const slow = await startAuth({
      env: { AUTH_DATABASE_STATEMENT_TIMEOUT_MS: '300', AUTH_DATABASE_QUERY_TIMEOUT_MS: '3000' },
    });
    try {
      const { web } = await relyingParty(slow);
      const erin = await slow.createUser('erin@example.org');
      for (const table of ['oidc_payload', 'account']) {
        // The client's row is reused for CLIENT_CACHE_SECONDS: past that, its lookup reads
        // oidc_payload again (and waits for the lock).
        if (table === 'oidc_payload') {
          await new Promise((r) => setTimeout(r, CLIENT_CACHE_SECONDS * 1000 + 200));
        }
        let locked!: () => void;
        const isLocked = new Promise<void>((resolve) => (locked = resolve));
        const holder = slow.db.transaction().execute(async (trx) => {
          await sql`lock table ${sql.table(table)} in access exclusive mode`.execute(trx);
          locked();
          await sql`select pg_sleep(1.5)`.execute(trx);
        });
        await isLocked;
        // A DELETE with the application's credentials is refused before the account table is read.
        const methods = table === 'account' ? (['get'] as const) : (['get', 'delete'] as const);
        for (const method of methods) {
          const path = `/accounts/${erin.id}`;
          const res = await (
            method === 'get' ? request(slow.issuer).get(path) : request(slow.issuer).delete(path)
          ).set('Authorization', basic(web));
          expect([table, method, res.status]).toEqual([table, method, 503]);
          expect(res.headers['retry-after']).toBe('5');
          expect(res.headers['cache-control']).toBe('no-store');
          expect(res.body).toEqual({
            error: 'temporarily_unavailable',
            error_description: 'the database is unavailable, retry later',
          });
        }
        await holder;
      }
      // Nothing was deleted, and it answers again.
      expect(
        (await request(slow.issuer).get(`/accounts/${erin.id}`).set('Authorization', basic(web))).body,
      ).toEqual({
        sub: erin.id,
        active: true,
      });
    } finally {
      await slow.stop();
    }
  });

  it('answers 503 when the database is not there at all', async () => {
    const deadPort = await freePort();
    const config = loadAuthConfig({
      NODE_ENV: 'test',
      AUTH_PORT: String(await freePort()),
      AUTH_METRICS_PORT: '0',
      AUTH_DATABASE_URL: `postgres://postgres@127.0.0.1:${deadPort}/nothing`,
      AUTH_REDIS_URL: 'redis://127.0.0.1:6379',
      AUTH_REDIS_PREFIX: `t:accounts-deaddb:${deadPort}:`,
      AUTH_DATA_KEYS: `k1:${Buffer.alloc(32).toString('base64')}`,
    });
    const server = await startAuthServer(config, createLogger({ name: 'auth', level: 'silent' }));
    try {
      const res = await request(server.url)
        .get(`/accounts/${NO_SUCH}`)
        .set('Authorization', basic({ client_id: 'spc_x', client_secret: 'y' }));
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('temporarily_unavailable');
    } finally {
      await server.close();
    }
  });

  it('answers a failure it cannot count 503 (Redis down), and the right credentials 200', async () => {
    const redis = await startPrivateRedis();
    const downLogs = captureLogs();
    const down = await startAuth({
      env: { AUTH_REDIS_URL: redis.url },
      logger: createLogger({ name: 'auth', level: 'warn' }, downLogs.stream),
    });
    try {
      const { web } = await relyingParty(down);
      const fay = await down.createUser('fay@example.org');
      await redis.stop();
      const refused = await request(down.issuer)
        .get(`/accounts/${fay.id}`)
        .set('Authorization', basic(wrong(web)));
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.body).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'the redis is unavailable, retry later',
      });
      const ok = await request(down.issuer).get(`/accounts/${fay.id}`).set('Authorization', basic(web));
      expect(ok.status).toBe(200);
      expect(downLogs.text()).toContain('client auth throttle unavailable (refused)');
      expect(downLogs.text()).not.toContain(web.client_secret);
    } finally {
      await redis.stop();
      await down.stop();
    }
  });
});

describe('logs', () => {
  it('never contain a client secret or a token', () => {
    const text = logs.text();
    expect(text).toContain('"accounts API: client refused"');
    const values = secrets.filter((v) => v.length >= 8);
    expect(values.length).toBeGreaterThan(8);
    for (const value of values) expect(text).not.toContain(value);
  });
});
