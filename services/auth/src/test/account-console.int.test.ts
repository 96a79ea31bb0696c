import { sql } from 'kysely';
import * as oidc from 'openid-client';
import { captureLogs, freePort } from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { type TestAuth, type TestUser, startAuth } from '../testing';
import { totpCodeAt } from '../users/totp';
import { type Page, hiddenInput } from './support/browser';
import {
  Browser,
  authorize,
  exchange,
  recoveryCodesIn,
  relyingParty,
  submit,
  textOf,
} from './support/relying-party';

// The account console (/account) against a real auth service: it signs people in through the
// normal sign-in (as its own built-in client), and every form is CSRF-protected and needs the
// session. Every secret handled is remembered; the last test checks that none was logged.

let auth: TestAuth;
let rp: oidc.Configuration;
const logs = captureLogs();
const secrets: string[] = [];
let ipCounter = 0;

beforeAll(async () => {
  auth = await startAuth({
    env: { AUTH_TRUSTED_PROXIES: '127.0.0.1' },
    logger: createLogger({ name: 'auth', level: 'debug' }, logs.stream),
  });
  rp = (await relyingParty(auth)).rp;
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
const accountUrl = () => `${auth.issuer}/account`;

/**
 * Opens /account in `b`, signing in through the normal pages when the browser has no session (with
 * the TOTP code `code` when given).
 */
async function openConsole(b: Browser, who: TestUser, code?: string): Promise<Page> {
  let page = await b.follow(accountUrl(), origin());
  if (!page.body.includes('<h1>Your account</h1>')) {
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Sign in</h1>');
    page = await submit(auth, b, page, { email: who.email, password: who.password });
  }
  if (code) {
    expect(page.body).toContain('<h1>Two-factor authentication</h1>');
    secrets.push(code);
    page = await submit(auth, b, page, { code });
  }
  expect(page.status).toBe(200);
  expect(page.url).toBe(accountUrl());
  expect(page.body).toContain('<h1>Your account</h1>');
  return page;
}

/** Posts a console form (the page's csrf token unless `csrf` is given). */
function post(
  b: Browser,
  page: Page,
  path: string,
  fields: Record<string, string>,
  headers?: Record<string, string>,
) {
  return b.post(`${auth.issuer}${path}`, { csrf: hiddenInput(page.body, 'csrf')!, ...fields }, headers);
}

/** A sign-in to the web application in `b`: its tokens. */
async function appSignIn(b: Browser, who: TestUser) {
  const started = await authorize(auth, rp, b);
  const back =
    started.page.status === 303
      ? started.page
      : await submit(auth, b, started.page, { email: who.email, password: who.password });
  const tokens = await exchange(rp, started, back);
  secrets.push(tokens.access_token, tokens.refresh_token!);
  return tokens;
}

/** Enrols TOTP through the console; returns the secret and the recovery codes shown. */
async function enrol(b: Browser, page: Page) {
  const start = await post(b, page, '/account/two-factor/start', {});
  expect(start.status).toBe(200);
  expect(start.body).toContain('<h1>Set up two-factor authentication</h1>');
  const secret = textOf(start.body, 'totp-secret')!;
  secrets.push(secret);
  // Waiting for its code, the secret is kept sealed (model AccountEnrolment), never in clear.
  const pending = await sql<{ payload: { sealedSecret?: string } }>`
    select payload from oidc_payload where model = 'AccountEnrolment'`.execute(auth.db);
  expect(pending.rows.length).toBeGreaterThan(0);
  expect(JSON.stringify(pending.rows)).not.toContain(secret);
  expect(pending.rows.every((r) => r.payload.sealedSecret?.startsWith('sealed:'))).toBe(true);
  const code = totpCodeAt(secret);
  secrets.push(code);
  const shown = await post(b, start, '/account/two-factor/confirm', { code });
  expect(shown.status).toBe(200);
  const codes = recoveryCodesIn(shown.body);
  expect(codes).toHaveLength(10);
  secrets.push(...codes);
  // Enrolled: the account row holds it sealed (AUTH_DATA_KEYS), no row holds it in clear.
  const stored = await sql<{ totp_secret: string }>`
    select totp_secret from account where totp_secret is not null`.execute(auth.db);
  expect(stored.rows.length).toBeGreaterThan(0);
  expect(stored.rows.every((r) => r.totp_secret.startsWith('sealed:'))).toBe(true);
  expect(JSON.stringify(stored.rows)).not.toContain(secret);
  return { secret, codes };
}

describe('signing in to the console', () => {
  it('starts a sign-in through the normal login page without a session, and comes back to /account', async () => {
    const b = browser();
    const first = await b.get(accountUrl());
    expect(first.status).toBe(303);
    const to = new URL(first.location!);
    expect(to.pathname).toBe('/connect/authorize');
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      client_id: 'account-console',
      response_type: 'code',
      redirect_uri: `${auth.issuer}/account/callback`,
      code_challenge_method: 'S256',
    });
    const who = await user('ada@example.org');
    const page = await openConsole(b, who);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.body).toContain('Signed in as <strong>ada@example.org</strong>');
    expect(page.body).toContain('<label for="current-password">Current password</label>');
    expect(page.body).toContain('Set up two-factor authentication');
    expect(page.body).not.toMatch(/<script(?! src="\/static\/theme\.js"><\/script>)/);
    // Single sign-on: the web application signs in without the login page.
    const app = await authorize(auth, rp, b);
    expect(app.page.status).toBe(303);
  });

  it('refuses a callback that is not the end of its own sign-in', async () => {
    const b = browser();
    await b.get(accountUrl());
    const forged = await b.get(`${auth.issuer}/account/callback?code=abc&state=not-the-state`);
    expect(forged.status).toBe(400);
    expect(forged.body).toContain('could not be completed');
    // The state cookie is used up: the same request again is refused too.
    expect((await b.get(`${auth.issuer}/account/callback?code=abc&state=x`)).status).toBe(400);
  });

  it('asks for the second factor when the account has one', async () => {
    const b = browser();
    const who = await user('bea@example.org');
    const { secret } = await enrol(b, await openConsole(b, who));
    const other = browser();
    // The step after the one enrolment used (a code is accepted once).
    await openConsole(other, who, totpCodeAt(secret, Date.now() + 30_000));
  });
});

describe('the forms', () => {
  it('refuse a POST without a session (403), without the token or with another, and from another site', async () => {
    const who = await user('cora@example.org');
    const b = browser();
    const page = await openConsole(b, who);
    const paths = [
      '/account/password',
      '/account/two-factor/start',
      '/account/two-factor/confirm',
      '/account/two-factor/remove',
      '/account/recovery-codes',
      '/account/sessions',
    ];
    const otherPage = await openConsole(browser(), await user('cora2@example.org'));
    for (const path of paths) {
      const noSession = await browser().post(`${auth.issuer}${path}`, {
        csrf: hiddenInput(page.body, 'csrf')!,
      });
      expect([path, noSession.status]).toEqual([path, 403]);
      expect(noSession.body).toContain('Not signed in');
      expect([path, (await b.post(`${auth.issuer}${path}`, {})).status]).toEqual([path, 403]);
      const stolen = await post(b, otherPage, path, {});
      expect([path, stolen.status]).toEqual([path, 403]);
      const crossSite = await post(b, page, path, {}, { 'sec-fetch-site': 'cross-site' });
      expect([path, crossSite.status]).toEqual([path, 403]);
    }
    // Nothing changed: still no second factor, the password still works.
    const again = await b.get(accountUrl());
    expect(again.body).toContain('Set up two-factor authentication');
    await openConsole(browser(), who);
  });

  it('change the password: refuses a wrong current one, a mismatch and a short one; then ends other sign-ins, not this one', async () => {
    const who = await user('dora@example.org');
    const elsewhere = browser();
    const elsewhereTokens = await appSignIn(elsewhere, who);
    const b = browser();
    const page = await openConsole(b, who);
    const here = await appSignIn(b, who);
    // Sign-in times are whole seconds: the change must come in a later second.
    await new Promise((r) => setTimeout(r, 1100));
    const next = 'a new long passphrase 42';
    secrets.push(next, 'wrong current password');

    const wrong = await post(b, page, '/account/password', {
      current_password: 'wrong current password',
      new_password: next,
      repeat_password: next,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toContain('The current password is not correct.');
    expect(wrong.body).not.toContain('wrong current password');
    const mismatch = await post(b, page, '/account/password', {
      current_password: who.password,
      new_password: next,
      repeat_password: `${next}!`,
    });
    expect(mismatch.body).toContain('The new passwords do not match.');
    const short = await post(b, page, '/account/password', {
      current_password: who.password,
      new_password: 'short',
      repeat_password: 'short',
    });
    expect(short.status).toBe(422);
    expect(short.body).toContain('at least 12 characters');

    const changed = await post(b, page, '/account/password', {
      current_password: who.password,
      new_password: next,
      repeat_password: next,
    });
    expect(changed.status).toBe(303);
    expect(changed.location).toBe(`${auth.issuer}/account?done=password`);
    const after = await b.get(changed.location!);
    expect(after.status).toBe(200);
    expect(after.body).toContain('Your password was changed.');

    await expect(oidc.refreshTokenGrant(rp, elsewhereTokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // The application's earlier sign-in in this browser predates the change too; the browser's
    // provider session is kept, so signing in to it again needs no password.
    await expect(oidc.refreshTokenGrant(rp, here.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await authorize(auth, rp, b)).page.status).toBe(303);
    await openConsole(browser(), { ...who, password: next });
  });

  it('enrol TOTP (wrong code refused), regenerate recovery codes (password or code), and remove it (password)', async () => {
    const who = await user('edna@example.org');
    const b = browser();
    const page = await openConsole(b, who);

    const start = await post(b, page, '/account/two-factor/start', {});
    const secret = textOf(start.body, 'totp-secret')!;
    secrets.push(secret);
    expect(start.body).toContain('<svg aria-hidden="true" focusable="false"');
    const wrongCode = totpCodeAt(secret, Date.now() + 5 * 30_000);
    const refused = await post(b, start, '/account/two-factor/confirm', { code: wrongCode });
    expect(refused.status).toBe(422);
    const code = totpCodeAt(secret);
    secrets.push(code);
    const shown = await post(b, refused, '/account/two-factor/confirm', { code });
    expect(shown.status).toBe(200);
    const firstCodes = recoveryCodesIn(shown.body);
    expect(firstCodes).toHaveLength(10);
    secrets.push(...firstCodes);

    const on = await b.get(accountUrl());
    expect(on.body).toMatch(/ 10 recovery\s+codes left\./);

    const badCredential = await post(b, on, '/account/recovery-codes', { credential: 'not my password!' });
    expect(badCredential.status).toBe(422);
    expect(badCredential.body).toContain('The password or code is not correct.');
    const byPassword = await post(b, on, '/account/recovery-codes', { credential: who.password });
    expect(byPassword.status).toBe(200);
    const secondCodes = recoveryCodesIn(byPassword.body);
    expect(secondCodes).toHaveLength(10);
    secrets.push(...secondCodes);
    const nextCode = totpCodeAt(secret, Date.now() + 30_000);
    secrets.push(nextCode);
    const byCode = await post(b, on, '/account/recovery-codes', { credential: nextCode });
    expect(byCode.status).toBe(200);
    const thirdCodes = recoveryCodesIn(byCode.body);
    secrets.push(...thirdCodes);

    // Only the last set works at sign-in.
    const signIn = browser();
    const started = await authorize(auth, rp, signIn);
    const second = await submit(auth, signIn, started.page, { email: who.email, password: who.password });
    expect((await submit(auth, signIn, second, { code: secondCodes[0]! })).status).toBe(422);
    expect((await submit(auth, signIn, second, { code: thirdCodes[0]! })).status).toBe(303);

    const wrongRemove = await post(b, on, '/account/two-factor/remove', { password: 'not my password!' });
    expect(wrongRemove.status).toBe(422);
    const removed = await post(b, on, '/account/two-factor/remove', { password: who.password });
    expect(removed.status).toBe(303);
    const off = await b.get(removed.location!);
    expect(off.body).toContain('Two-factor authentication is off.');
    expect(off.body).toContain('Set up two-factor authentication');
  });

  it('sign out everywhere else: other browsers lose their session and their applications their refresh tokens', async () => {
    const who = await user('fay@example.org');
    const other = browser();
    const otherTokens = await appSignIn(other, who);
    await openConsole(other, who);
    const b = browser();
    const page = await openConsole(b, who);
    const mine = await appSignIn(b, who);

    const done = await post(b, page, '/account/sessions', {});
    expect(done.status).toBe(303);
    expect((await b.get(done.location!)).body).toContain(
      'You were signed out on every other browser and device.',
    );

    await expect(oidc.refreshTokenGrant(rp, otherTokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const otherConsole = await other.get(accountUrl());
    expect(otherConsole.status).toBe(303);
    expect(otherConsole.location).toContain('/connect/authorize?');
    // This browser keeps its sign-in and its application.
    const refreshed = await oidc.refreshTokenGrant(rp, mine.refresh_token!);
    secrets.push(refreshed.access_token, refreshed.refresh_token!);
    expect((await b.get(accountUrl())).status).toBe(200);
  });
});

describe('dependencies down', () => {
  it('answers 503 pages: the database for the page, Redis for a form that checks a password', async () => {
    const who = await user('gina@example.org');
    const b = browser();
    const page = await openConsole(b, who);
    const noDb = await auth.startReplica({
      env: { AUTH_DATABASE_URL: `postgres://nobody@127.0.0.1:${await freePort()}/none` },
    });
    const noRedis = await auth.startReplica({
      env: { AUTH_REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
    });
    try {
      const dbDown = await b.get(`${noDb.url}/account`);
      expect(dbDown.status).toBe(503);
      expect(dbDown.body).toContain('Your account page is unavailable right now');
      const redisDown = await b.post(`${noRedis.url}/account/password`, {
        csrf: hiddenInput(page.body, 'csrf')!,
        current_password: who.password,
        new_password: 'another long passphrase',
        repeat_password: 'another long passphrase',
      });
      expect(redisDown.status).toBe(503);
      expect(redisDown.headers.get('retry-after')).toEqual(expect.any(String));
      await openConsole(browser(), who);
    } finally {
      await noDb.close();
      await noRedis.close();
    }
  });
});

describe('logs', () => {
  it('never contain a password, TOTP secret, code, recovery code or token', () => {
    const text = logs.text();
    expect(text).toContain('account console: password changed');
    expect(text).toContain('second factor enrolled');
    const values = secrets.filter((v) => v.length >= 6);
    expect(values.length).toBeGreaterThan(30);
    for (const value of values) {
      if (/^[0-9]{6}$/.test(value)) expect(text).not.toMatch(new RegExp(`(?<![0-9])${value}(?![0-9])`));
      else expect(text).not.toContain(value);
    }
  });
});
