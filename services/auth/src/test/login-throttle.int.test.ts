import * as oidc from 'openid-client';
import { captureLogs, startPrivateRedis } from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { type AuthReplica, type TestAuth, type TestUser, startAuth } from '../testing';
import { Browser, type Page, formAction, hiddenInput } from './support/browser';

// Failed sign-ins are counted in Redis, shared by every replica: two auth servers on one database
// and one Redis prefix stand for two replicas behind a load balancer. 127.0.0.1 is the trusted
// proxy, so `X-Forwarded-For` gives each test browser the client address it stands for.

const REDIRECT_URI = 'http://127.0.0.1:3999/auth/callback';

async function webClient(auth: TestAuth) {
  const web = await auth.createWebClient({ redirectUris: [REDIRECT_URI] });
  const rp = await oidc.discovery(
    new URL(auth.issuer),
    web.client_id,
    undefined,
    oidc.ClientSecretBasic(web.client_secret),
    { execute: [oidc.allowInsecureRequests] },
  );
  return { web, rp };
}

/** A browser at `ip`, on the login page of a new authorization request. */
async function loginPage(
  auth: TestAuth,
  rp: oidc.Configuration,
  ip: string,
): Promise<{ b: Browser; page: Page }> {
  const b = new Browser({ 'x-forwarded-for': ip });
  const url = oidc.buildAuthorizationUrl(rp, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
  });
  const page = await b.follow(url, new URL(auth.issuer).origin);
  expect(page.status).toBe(200);
  return { b, page };
}

/** Posts the login form of `page` to `base` (a replica's URL, or the issuer). */
function submit(b: Browser, page: Page, base: string, email: string, password: string): Promise<Page> {
  return b.post(new URL(formAction(page.body)!, base), {
    csrf: hiddenInput(page.body, 'csrf')!,
    email,
    password,
  });
}

describe('across two replicas sharing Redis (3 failures per account and IP)', () => {
  let auth: TestAuth;
  let replica: AuthReplica;
  let rp: oidc.Configuration;
  let carol: TestUser;
  const logs = captureLogs();
  beforeAll(async () => {
    auth = await startAuth({
      env: {
        AUTH_TRUSTED_PROXIES: '127.0.0.1',
        AUTH_LOGIN_MAX_PER_ACCOUNT_IP: '3',
        AUTH_LOGIN_MAX_PER_IP: '8',
        AUTH_LOGIN_MAX_PER_ACCOUNT: '6',
        AUTH_LOGIN_SLOW_SECONDS: '2',
        AUTH_LOGIN_THROTTLE_WINDOW_SECONDS: '300',
      },
      logger: createLogger({ name: 'auth', level: 'info' }, logs.stream),
    });
    replica = await auth.startReplica();
    ({ rp } = await webClient(auth));
    carol = await auth.createUser('carol@example.org');
  });
  afterAll(() => auth.stop());

  it('refuses the next attempt from that IP, right password included, on either replica; a success elsewhere still works', async () => {
    const { b, page } = await loginPage(auth, rp, '203.0.113.10');
    const servers = [auth.issuer, replica.url, auth.issuer];
    for (const server of servers) {
      const res = await submit(b, page, server, 'carol@example.org', 'wrong password, guessed');
      expect(res.status).toBe(422);
    }
    for (const server of [replica.url, auth.issuer]) {
      const refused = await submit(b, page, server, 'carol@example.org', carol.password);
      expect(refused.status).toBe(429);
      expect(refused.location).toBeUndefined();
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(300);
      expect(refused.body).toContain('Too many failed sign-in attempts. Try again in 5 minutes.');
      expect(refused.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    }

    // Not locked out by a stranger: from another address the right password signs in.
    const other = await loginPage(auth, rp, '198.51.100.20');
    const ok = await submit(other.b, other.page, replica.url, 'CAROL@example.org', carol.password);
    expect(ok.status).toBe(303);
    expect(logs.text()).toContain('failed sign-ins: an account is locked for one IP');
  });

  it('counts an unknown email exactly like a known one (the throttle does not tell which exist)', async () => {
    const { b, page } = await loginPage(auth, rp, '203.0.113.11');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await submit(b, page, i % 2 ? replica.url : auth.issuer, 'nobody@example.org', 'x')).status,
      );
    }
    expect(statuses).toEqual([422, 422, 422, 429]);
  });

  it('clears the (account, IP) counter on a successful sign-in', async () => {
    const dave = await auth.createUser('dave@example.org');
    const { b, page } = await loginPage(auth, rp, '203.0.113.12');
    for (let i = 0; i < 2; i++) {
      expect((await submit(b, page, auth.issuer, dave.email, 'nope')).status).toBe(422);
    }
    expect((await submit(b, page, replica.url, dave.email, dave.password)).status).toBe(303);
    const again = await loginPage(auth, rp, '203.0.113.12');
    for (let i = 0; i < 3; i++) {
      expect((await submit(again.b, again.page, auth.issuer, dave.email, 'nope')).status).toBe(422);
    }
    expect((await submit(again.b, again.page, auth.issuer, dave.email, dave.password)).status).toBe(429);
  });

  it('slows an account down, without locking it, once it failed too often from many addresses', async () => {
    const erin = await auth.createUser('erin@example.org');
    // Six failures from six addresses: each under its own (account, IP) limit, the account at its cap.
    for (let i = 0; i < 6; i++) {
      const { b, page } = await loginPage(auth, rp, `192.0.2.${i + 1}`);
      expect((await submit(b, page, i % 2 ? replica.url : auth.issuer, erin.email, 'guess')).status).toBe(
        422,
      );
    }
    const owner = await loginPage(auth, rp, '198.51.100.99');
    // One attempt per 2 s for the account: a guess takes the slot…
    const stranger = await loginPage(auth, rp, '192.0.2.50');
    expect((await submit(stranger.b, stranger.page, auth.issuer, erin.email, 'guess')).status).toBe(422);
    // …so the owner is told to retry in a few seconds (not locked out)…
    const slowed = await submit(owner.b, owner.page, replica.url, erin.email, erin.password);
    expect(slowed.status).toBe(429);
    expect(slowed.body).toContain('Try again in a few seconds.');
    expect(Number(slowed.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    // …and gets in when they do.
    await new Promise((r) => setTimeout(r, 2100));
    expect((await submit(owner.b, owner.page, replica.url, erin.email, erin.password)).status).toBe(303);
  });

  it('stops one address that sprays many accounts (8 failures per IP)', async () => {
    const { b, page } = await loginPage(auth, rp, '203.0.113.77');
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      statuses.push((await submit(b, page, auth.issuer, `user${i}@example.org`, 'x')).status);
    }
    expect(statuses).toEqual([...Array<number>(8).fill(422), 429]);
    // Even for an account it never tried, with the right password.
    const frank = await auth.createUser('frank@example.org');
    expect((await submit(b, page, replica.url, frank.email, frank.password)).status).toBe(429);
  });
});

describe('with Redis down', () => {
  it('answers the login POST 503 "Sign-in is unavailable right now", never unthrottled', async () => {
    const redis = await startPrivateRedis();
    const auth = await startAuth({ env: { AUTH_REDIS_URL: redis.url } });
    try {
      const { rp } = await webClient(auth);
      const user = await auth.createUser('grace@example.org');
      const { b, page } = await loginPage(auth, rp, '127.0.0.1');
      await redis.stop();
      for (const password of [user.password, 'wrong password']) {
        const res = await submit(b, page, auth.issuer, user.email, password);
        expect(res.status).toBe(503);
        expect(res.location).toBeUndefined();
        expect(res.body).toContain('Sign-in is unavailable right now');
        expect(res.headers.get('retry-after')).toEqual(expect.any(String));
      }
      expect(b.has('auth_session')).toBe(false);
      // The machine clients do not need Redis: their token endpoint still answers.
      const client = await auth.createClient('pushes:read');
      expect(await auth.token(client)).toEqual(expect.any(String));

      // Redis back: sign-in works again.
      await redis.start();
      await new Promise((r) => setTimeout(r, 1500));
      const back = await submit(b, page, auth.issuer, user.email, user.password);
      expect(back.status).toBe(303);
    } finally {
      await redis.stop();
      await auth.stop();
    }
  });
});
