import * as oidc from 'openid-client';
import { sql } from 'kysely';
import request from 'supertest';
import { captureLogs } from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { type TestAuth, type TestUser, startAuth } from '../testing';
import { totpCodeAt } from '../users/totp';
import { basic } from './support/helpers';
import { type Page, hiddenInput } from './support/browser';
import {
  Browser,
  REDIRECT_URI,
  type RelyingParty,
  exchange,
  recoveryCodesIn,
  relyingParty,
  signIn,
  submit,
  textOf,
} from './support/relying-party';

// Re-authentication against a real auth service (database, Redis, provider): the accounts API
// deletes an account only with the person's own access token from a recent sign-in (never with an
// application's credentials), and the account console's credential forms need a recent sign-in.
// "Not recent" is made by moving the sign-in's time back in the stored rows (no waiting).

let auth: TestAuth;
let app: RelyingParty;
let foreign: RelyingParty;
const logs = captureLogs();
const secrets: string[] = [];
let ipCounter = 0;

beforeAll(async () => {
  auth = await startAuth({
    env: { AUTH_TRUSTED_PROXIES: '127.0.0.1' },
    logger: createLogger({ name: 'auth', level: 'debug' }, logs.stream),
  });
  app = await relyingParty(auth);
  foreign = await relyingParty(auth); // another first-party application, the person never used
  secrets.push(app.web.client_secret, foreign.web.client_secret);
});
afterAll(() => auth.stop());

function browser(): Browser {
  ipCounter += 1;
  return new Browser({ 'x-forwarded-for': `203.0.113.${ipCounter}` });
}

async function user(email: string): Promise<TestUser> {
  const created = await auth.createUser(email);
  secrets.push(created.password);
  return created;
}

const origin = () => new URL(auth.issuer).origin;

/** A jsonb number at `path` moved `seconds` back, where the payload has it. */
const back = (path: string, seconds: number) => sql`
  case when payload #> ${`{${path}}`}::text[] is null then payload
  else jsonb_set(payload, ${`{${path}}`}::text[], to_jsonb((payload #>> ${`{${path}}`}::text[])::int - ${seconds}::int))
  end`;

/**
 * Moves the sign-ins of `accountId` `seconds` into the past: its sessions' `loginTs`, its codes'
 * and refresh tokens' `authTime`, its access tokens' `auth_time`, and its password's time.
 */
async function ageSignIns(accountId: string, seconds: number): Promise<void> {
  for (const path of ['loginTs', 'authTime', 'extra,auth_time']) {
    await sql`update oidc_payload set payload = ${back(path, seconds)}
      where payload->>'accountId' = ${accountId}`.execute(auth.db);
  }
  await sql`update account set password_changed_at = password_changed_at - make_interval(secs => ${seconds})
    where id = ${accountId}`.execute(auth.db);
}

const del = (sub: string, authorization: string) =>
  request(auth.issuer).delete(`/accounts/${sub}`).set('Authorization', authorization);
const status = (sub: string) =>
  request(auth.issuer).get(`/accounts/${sub}`).set('Authorization', basic(app.web));

/** An authorization request of `app` asking for a new sign-in (`prompt=login`), up to its first page. */
async function signInAgain(b: Browser, who: TestUser) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(app.rp, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    prompt: 'login',
    max_age: '300',
    login_hint: who.email,
  });
  return { verifier, state, page: await b.follow(url, origin()) };
}

/** Enrols TOTP through the console page `page` (a fresh sign-in); returns the secret and codes. */
async function enrol(b: Browser, page: Page): Promise<{ secret: string; codes: string[] }> {
  const start = await post(b, page, '/account/two-factor/start', {});
  expect(start.status).toBe(200);
  const secret = textOf(start.body, 'totp-secret')!;
  secrets.push(secret);
  const code = totpCodeAt(secret);
  const shown = await post(b, start, '/account/two-factor/confirm', { code });
  expect(shown.status).toBe(200);
  const codes = recoveryCodesIn(shown.body);
  secrets.push(...codes);
  return { secret, codes };
}

function post(b: Browser, page: Page, path: string, fields: Record<string, string>) {
  return b.post(`${auth.issuer}${path}`, { csrf: hiddenInput(page.body, 'csrf')!, ...fields });
}

async function openConsole(b: Browser, who: TestUser): Promise<Page> {
  let page = await b.follow(`${auth.issuer}/account`, origin());
  if (!page.body.includes('<h1>Your account</h1>')) {
    page = await submit(auth, b, page, { email: who.email, password: who.password });
  }
  expect(page.body).toContain('<h1>Your account</h1>');
  return page;
}

describe('DELETE /accounts/:sub', () => {
  it("is refused to an application's own credentials, even first-party (403 JSON), and changes nothing", async () => {
    const alice = await user('alice@example.org');
    await signIn(auth, app, browser(), alice).then((t) => secrets.push(t.access_token, t.refresh_token!));
    for (const client of [foreign.web, app.web]) {
      const res = await del(alice.id, basic(client));
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body.error).toBe('forbidden');
    }
    expect((await status(alice.id)).body).toEqual({ sub: alice.id, active: true });
    expect(logs.text()).toContain('accounts API: deletion refused');
  });

  it("refuses a dead token (401 invalid_token) and another person's token (403)", async () => {
    const bob = await user('bob@example.org');
    const carol = await user('carol@example.org');
    const carols = await signIn(auth, app, browser(), carol);
    secrets.push(carols.access_token, carols.refresh_token!);
    const dead = await del(bob.id, 'Bearer not-a-token');
    expect(dead.status).toBe(401);
    expect(dead.body.error).toBe('invalid_token');
    expect(dead.headers['www-authenticate']).toContain('error="invalid_token"');
    expect((await del(bob.id, `Bearer ${carols.access_token}`)).status).toBe(403);
    expect((await status(bob.id)).status).toBe(200);
    expect((await status(carol.id)).status).toBe(200);
  });

  it("deletes with the person's own fresh access token (also a refreshed one), 204", async () => {
    const dave = await user('dave@example.org');
    const tokens = await signIn(auth, app, browser(), dave);
    secrets.push(tokens.access_token, tokens.refresh_token!);
    const refreshed = await oidc.refreshTokenGrant(app.rp, tokens.refresh_token!);
    secrets.push(refreshed.access_token, refreshed.refresh_token!);
    const res = await del(dave.id, `Bearer ${refreshed.access_token}`);
    expect(res.status).toBe(204);
    expect((await status(dave.id)).status).toBe(404);
  });

  it('refuses a stale sign-in (401 insufficient_user_authentication, max_age); a sign-in again with prompt=login asks password and code although a session exists, then deletes', async () => {
    const erin = await user('erin@example.org');
    const b = browser();
    const { secret, codes } = await enrol(b, await openConsole(b, erin));
    const first = await signIn(auth, app, browser(), erin).catch(() => undefined);
    expect(first).toBeUndefined(); // a password alone no longer signs erin in
    // Signed in at the application in `b` (single sign-on from the console's session).
    const started = await signInAgain(b, erin);
    let page = await submit(auth, b, started.page, { email: erin.email, password: erin.password });
    page = await submit(auth, b, page, { code: totpCodeAt(secret, Date.now() + 30_000) });
    const tokens = await exchange(app.rp, started, page);
    secrets.push(tokens.access_token, tokens.refresh_token!);

    await ageSignIns(erin.id, 600);
    const refreshed = await oidc.refreshTokenGrant(app.rp, tokens.refresh_token!);
    secrets.push(refreshed.access_token, refreshed.refresh_token!);
    for (const token of [tokens.access_token, refreshed.access_token]) {
      const stale = await del(erin.id, `Bearer ${token}`);
      expect(stale.status).toBe(401);
      expect(stale.body).toMatchObject({ error: 'insufficient_user_authentication', max_age: 300 });
      expect(stale.headers['www-authenticate']).toContain('max_age=300');
    }
    expect((await status(erin.id)).status).toBe(200);

    // The provider session of `b` exists, yet prompt=login shows the login page, then the code.
    const again = await signInAgain(b, erin);
    expect(again.page.status).toBe(200);
    expect(again.page.body).toContain('<h1>Sign in</h1>');
    expect(again.page.body).toContain(erin.email);
    const second = await submit(auth, b, again.page, { email: erin.email, password: erin.password });
    expect(second.body).toContain('<h1>Two-factor authentication</h1>');
    const back = await submit(auth, b, second, { code: codes[0]! });
    expect(back.status).toBe(303);
    const fresh = await exchange(app.rp, again, back);
    secrets.push(fresh.access_token, fresh.refresh_token!);
    expect(fresh.claims()!.auth_time).toBeGreaterThan(Math.floor(Date.now() / 1000) - 60);
    expect((await del(erin.id, `Bearer ${fresh.access_token}`)).status).toBe(204);
    expect((await status(erin.id)).status).toBe(404);
  });
});

describe('the account console', () => {
  it('sends a stale sign-in to sign in again before a password change or an enrolment, then accepts them', async () => {
    const fay = await user('fay@example.org');
    const b = browser();
    await openConsole(b, fay);
    await ageSignIns(fay.id, 600);
    let page = await b.follow(`${auth.issuer}/account`, origin()); // still signed in, not recently
    expect(page.body).toContain('<h1>Your account</h1>');

    const newPassword = 'a new password for fay';
    secrets.push(newPassword);
    const fields = {
      current_password: fay.password,
      new_password: newPassword,
      repeat_password: newPassword,
    };
    for (const [path, form] of [
      ['/account/password', fields],
      ['/account/two-factor/start', {}],
    ] as const) {
      const refused = await post(b, page, path, form);
      expect(refused.status).toBe(303);
      const to = new URL(refused.location!);
      expect(to.pathname).toBe('/connect/authorize');
      expect(to.searchParams.get('prompt')).toBe('login');
    }
    // Nothing changed: the old password still signs in elsewhere, and no second factor.
    await signIn(auth, app, browser(), fay).then((t) => secrets.push(t.access_token, t.refresh_token!));

    // Sign in again (the login page, although the session exists), back to /account with a notice.
    const again = await b.follow(
      `${auth.issuer}/account`,
      origin(),
      post(b, page, '/account/password', fields),
    );
    expect(again.body).toContain('<h1>Sign in</h1>');
    page = await submit(auth, b, again, { email: fay.email, password: fay.password });
    expect(page.url).toBe(`${auth.issuer}/account?done=signed-in-again`);
    expect(page.body).toContain('You signed in again');

    const changed = await post(b, page, '/account/password', fields);
    expect(changed.status).toBe(303);
    expect(changed.location).toBe(`${auth.issuer}/account?done=password`);
    page = await b.follow(changed.location!, origin());
    await enrol(b, page);
    expect(logs.text()).toContain('account console: sign-in again asked');
  });
});

describe('logs', () => {
  it('never contain a password, TOTP secret, code or token', () => {
    const text = logs.text();
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
