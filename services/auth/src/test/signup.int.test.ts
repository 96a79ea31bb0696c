import * as oidc from 'openid-client';
import { sql } from 'kysely';
import { captureLogs, startPrivateRedis } from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { type TestAuth, type TestUser, startAuth } from '../testing';
import { Browser, type Page, formAction, hiddenInput } from './support/browser';
import {
  REDIRECT_URI,
  type RelyingParty,
  authorize,
  exchange,
  relyingParty,
  signIn,
  submitForm,
} from './support/relying-party';

// Self sign-up (AUTH_SELF_SIGNUP) on a real auth service: the login page links to the sign-up
// page of the same sign-in, which creates the account and signs the person in. 127.0.0.1 is the
// trusted proxy, so `X-Forwarded-For` gives each test browser the client address it stands for;
// the sign-up throttle is 3 attempts per IP.

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self' http://127.0.0.1:3999; " +
  "frame-ancestors 'none'; base-uri 'none'";

let auth: TestAuth;
let app: RelyingParty;
let alice: TestUser;
const logs = captureLogs();
const secrets: string[] = [];
let nextIp = 1;
/** A browser at an address of its own (the throttle counts per IP). */
const browser = () => new Browser({ 'x-forwarded-for': `198.51.100.${nextIp++}` });

beforeAll(async () => {
  auth = await startAuth({
    env: { AUTH_SELF_SIGNUP: 'true', AUTH_SIGNUP_MAX_PER_IP: '3', AUTH_TRUSTED_PROXIES: '127.0.0.1' },
    logger: createLogger({ name: 'auth', level: 'debug' }, logs.stream),
  });
  app = await relyingParty(auth);
  alice = await auth.createUser('alice@example.org', 'correct horse battery staple');
  secrets.push(alice.password, app.web.client_secret);
});
afterAll(() => auth.stop());

const accountCount = async () =>
  Number((await sql<{ n: string }>`select count(*) as n from account`.execute(auth.db)).rows[0]!.n);

/** The sign-up page, reached from the login page's link. */
async function signupPage(b: Browser) {
  const started = await authorize(auth, app.rp, b);
  const link = /<a href="([^"]+)">Create an account<\/a>/.exec(started.page.body)?.[1];
  expect(link).toMatch(/^\/interaction\/[A-Za-z0-9_-]+\/signup$/);
  const page = await b.get(new URL(link!, auth.issuer));
  return { started, page };
}

function submitSignup(
  b: Browser,
  page: Page,
  email: string,
  password: string,
  again = password,
  headers?: Record<string, string>,
) {
  secrets.push(password, again);
  return submitForm(auth, b, page, { email, password, password_again: again }, headers);
}

describe('with self sign-up on', () => {
  it('links the login page to a sign-up page of the same sign-in: labelled fields, strict CSP, no script', async () => {
    const { page } = await signupPage(browser());
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.body).toContain('<h1>Create an account</h1>');
    expect(page.body).toContain('<strong>Push web app</strong>');
    expect(page.body).toContain('<label for="email">Email</label>');
    expect(page.body).toMatch(/<input\s+id="email"\s+name="email"\s+type="email"/);
    expect(page.body).toContain('<label for="password">Password</label>');
    expect(page.body).toMatch(
      /<input\s+id="password"\s+name="password"\s+type="password"\s+autocomplete="new-password"/,
    );
    expect(page.body).toContain('<label for="password-again">Password again</label>');
    expect(page.body).toMatch(/<input\s+id="password-again"\s+name="password_again"\s+type="password"/);
    expect(page.body).toContain('At least 12 characters.');
    expect(page.body).toContain('<button type="submit">Create account</button>');
    expect(page.body).toMatch(/<a href="\/interaction\/[A-Za-z0-9_-]+">Sign in<\/a>/);
    expect(formAction(page.body)).toMatch(/^\/interaction\/[A-Za-z0-9_-]+\/signup$/);
    expect(page.body).not.toMatch(
      /<script(?! src="\/static\/theme\.js"><\/script>)|https?:\/\/(?!127\.0\.0\.1)/,
    );
  });

  it('creates the account (email not verified) and signs the person in, as a correct password does', async () => {
    const b = browser();
    const { started, page } = await signupPage(b);
    const before = await accountCount();
    const back = await submitSignup(b, page, '  Nina@Example.org ', 'nina has a long password');
    expect(back.status).toBe(303);
    expect(back.location).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
    expect(b.has('auth_session')).toBe(true);
    expect(await accountCount()).toBe(before + 1);

    const tokens = await exchange(app.rp, started, back);
    secrets.push(tokens.access_token, tokens.refresh_token!, tokens.id_token!);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ email: 'nina@example.org', email_verified: false });
    expect(await oidc.fetchUserInfo(app.rp, tokens.access_token, claims.sub)).toEqual({
      sub: claims.sub,
      email: 'nina@example.org',
      email_verified: false,
    });
    // The operator's account reports a verified email.
    const operators = await signIn(auth, app, browser(), alice);
    secrets.push(operators.refresh_token!);
    expect(operators.claims()).toMatchObject({ sub: alice.id, email_verified: true });
    // `users list` shows both; and the new person signs in with the password they chose.
    const list = JSON.parse((await auth.cli('users', 'list', '--json')).out) as {
      email: string;
      email_verified: boolean;
    }[];
    expect(list.find((u) => u.email === 'nina@example.org')).toMatchObject({ email_verified: false });
    expect(list.find((u) => u.email === 'alice@example.org')).toMatchObject({ email_verified: true });
    const again = await signIn(auth, app, browser(), {
      email: 'nina@example.org',
      password: 'nina has a long password',
    });
    secrets.push(again.refresh_token!);
    expect(again.claims()).toMatchObject({ sub: claims.sub });
    expect(logs.text()).toContain('"account created (self sign-up)"');
  });

  it('refuses an email that already has an account, in words, and changes nothing', async () => {
    const b = browser();
    const { page } = await signupPage(b);
    const before = await accountCount();
    const taken = await submitSignup(b, page, 'ALICE@example.org', 'an attacker password');
    expect(taken.status).toBe(422);
    expect(taken.headers.get('content-security-policy')).toBe(CSP);
    expect(taken.body).toContain(
      '<p class="error" role="alert" id="signup-error">An account with this email already exists. Sign in instead, or use another email.</p>',
    );
    expect(taken.body).toContain('value="ALICE@example.org"');
    expect(taken.body).not.toContain('an attacker password');
    expect(b.has('auth_session')).toBe(false);
    expect(await accountCount()).toBe(before);
    // Alice's password is hers still.
    expect((await signIn(auth, app, browser(), alice)).claims()).toMatchObject({ sub: alice.id });
  });

  it('refuses an invalid email, a weak password and passwords that differ (422), creating nothing', async () => {
    const b = browser();
    const { page } = await signupPage(b);
    const before = await accountCount();
    const cases: [string, string, string, string][] = [
      ['not an email', 'a long enough password', 'a long enough password', 'Enter a valid email address'],
      ['oscar@example.org', 'too short', 'too short', 'The password must be at least 12 characters.'],
      [
        'oscar@example.org',
        'Oscar@Example.org',
        'Oscar@Example.org',
        'The password must not be the email address.',
      ],
      [
        'oscar@example.org',
        'a long enough password',
        'a long enough passw0rd',
        'The two passwords do not match.',
      ],
    ];
    let current = page;
    for (const [email, password, again, message] of cases) {
      const res = await submitSignup(b, current, email, password, again);
      expect([email, password, res.status]).toEqual([email, password, 422]);
      expect(res.body).toContain(message);
      expect(res.body).not.toContain(again === password ? `value="${password}"` : again);
      current = res;
    }
    expect(await accountCount()).toBe(before);
    // The same page still works.
    const ok = await submitSignup(b, current, 'oscar@example.org', 'oscar has a long password');
    expect(ok.status).toBe(303);
  });

  it('is CSRF-protected like the login form: no token, another form’s token, or cross-site → 403, nothing created', async () => {
    const b = browser();
    const { started, page } = await signupPage(b);
    const action = new URL(formAction(page.body)!, auth.issuer);
    const csrf = hiddenInput(page.body, 'csrf')!;
    const loginCsrf = hiddenInput(started.page.body, 'csrf')!;
    const before = await accountCount();
    const fields = {
      email: 'mallory@example.org',
      password: 'mallory password!',
      password_again: 'mallory password!',
    };
    for (const form of [fields, { ...fields, csrf: '' }, { ...fields, csrf: loginCsrf }]) {
      const res = await b.post(action, form);
      expect(res.status).toBe(403);
      expect(res.body).toContain('This form has expired or was not sent from its page.');
    }
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
    ];
    for (const headers of foreign) {
      expect((await b.post(action, { ...fields, csrf }, headers)).status).toBe(403);
    }
    // A login form does not take the sign-up page's token either.
    const login = await b.post(new URL(formAction(started.page.body)!, auth.issuer), {
      csrf,
      email: alice.email,
      password: alice.password,
    });
    expect(login.status).toBe(403);
    expect(await accountCount()).toBe(before);
    expect(b.has('auth_session')).toBe(false);
  });

  it('throttles sign-ups per IP (3 attempts that reach the database), 429 with Retry-After', async () => {
    // Each sign-in in a browser of its own (a signed-in browser skips the login page), all at one IP.
    const ip = `198.51.100.${nextIp++}`;
    const at = () => new Browser({ 'x-forwarded-for': ip });
    const b = at();
    const { page } = await signupPage(b);
    // Forms the rules refuse are not counted.
    for (let i = 0; i < 4; i++) {
      expect((await submitSignup(b, page, `p${i}@example.org`, 'short')).status).toBe(422);
    }
    // A taken email is counted, as are created accounts.
    expect((await submitSignup(b, page, alice.email, 'some long password')).status).toBe(422);
    for (const name of ['paul', 'petra']) {
      const fresh = at();
      const { page: form } = await signupPage(fresh);
      expect(
        (await submitSignup(fresh, form, `${name}@example.org`, `${name} has a long password`)).status,
      ).toBe(303);
    }
    const fourth = at();
    const { page: form } = await signupPage(fourth);
    const before = await accountCount();
    const over = await submitSignup(fourth, form, 'quentin@example.org', 'quentin has a long password');
    expect(over.status).toBe(429);
    expect(over.body).toContain('Too many accounts were created from your network. Try again in 60 minutes.');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(await accountCount()).toBe(before);
    expect(fourth.has('auth_session')).toBe(false);
    // Another address is not affected.
    const other = browser();
    const { page: elsewhere } = await signupPage(other);
    expect(
      (await submitSignup(other, elsewhere, 'quentin@example.org', 'quentin has a long password')).status,
    ).toBe(303);
  });
});

describe('with self sign-up off (the default)', () => {
  it('shows no link, and the sign-up page does not exist (404)', async () => {
    const off = await startAuth();
    try {
      const offApp = await relyingParty(off);
      const b = new Browser();
      const { page } = await authorize(off, offApp.rp, b);
      expect(page.status).toBe(200);
      expect(page.body).not.toContain('Create an account');
      expect(page.body).not.toContain('/signup');
      const signupUrl = `${page.url}/signup`;
      const get = await b.get(signupUrl);
      expect(get.status).toBe(404);
      expect(get.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
      expect(get.body).toContain('There is no such page.');
      const post = await b.post(signupUrl, {
        csrf: hiddenInput(page.body, 'csrf')!,
        email: 'zoe@example.org',
        password: 'zoe has a long password',
        password_again: 'zoe has a long password',
      });
      expect(post.status).toBe(404);
      const count = await sql<{ n: string }>`select count(*) as n from account`.execute(off.db);
      expect(count.rows[0]!.n).toBe('0');
    } finally {
      await off.stop();
    }
  });
});

describe('with Redis down', () => {
  it('answers the sign-up 503, never unthrottled, and creates nothing', async () => {
    const redis = await startPrivateRedis();
    const down = await startAuth({ env: { AUTH_REDIS_URL: redis.url, AUTH_SELF_SIGNUP: 'true' } });
    try {
      const downApp = await relyingParty(down);
      const b = new Browser();
      const { page: login } = await authorize(down, downApp.rp, b);
      const page = await b.get(new URL(`${new URL(login.url).pathname}/signup`, down.issuer));
      expect(page.status).toBe(200);
      await redis.stop();
      const res = await submitForm(down, b, page, {
        email: 'yara@example.org',
        password: 'yara has a long password',
        password_again: 'yara has a long password',
      });
      expect(res.status).toBe(503);
      expect(res.body).toContain('Sign-in is unavailable right now');
      expect(res.headers.get('retry-after')).toEqual(expect.any(String));
      const count = await sql<{ n: string }>`select count(*) as n from account`.execute(down.db);
      expect(count.rows[0]!.n).toBe('0');
      expect(b.has('auth_session')).toBe(false);
    } finally {
      await redis.stop();
      await down.stop();
    }
  });
});

describe('logs', () => {
  it('never contain a password, token, client secret or cookie value, nor a typed email', () => {
    const text = logs.text();
    expect(text).toContain('"sign-up refused: email taken"');
    expect(text).toContain('"sign-up throttled"');
    const values = secrets.filter((v) => v.length >= 8);
    expect(values.length).toBeGreaterThan(15);
    for (const value of values) expect(text).not.toContain(value);
    for (const email of ['nina@example.org', 'Nina@Example.org', 'mallory@example.org']) {
      expect(text).not.toContain(email);
    }
  });
});
