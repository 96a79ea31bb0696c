import { sql } from 'kysely';
import type * as oidc from 'openid-client';
import { captureLogs } from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { userWithTotp as withTotp } from './support/totp-user';
import { type TestAuth, startAuth } from '../testing';
import { totpCodeAt } from '../users/totp';
import { type Page, hiddenInput } from './support/browser';
import { Browser, authorize, relyingParty, submit } from './support/relying-party';

// Attempts sent at the same time, against a real auth service, PostgreSQL and Redis: each is taken
// from the throttle's counters before its password or code is checked, so a burst cannot check more
// than the counters allow. The default caps (10 per account and IP, 100 per IP, 50 per account),
// except where a test starts its own service.

const STEP_MS = 30_000;
let auth: TestAuth;
let rp: oidc.Configuration;
const logs = captureLogs();
let ipCounter = 0;

beforeAll(async () => {
  auth = await startAuth({
    env: { AUTH_TRUSTED_PROXIES: '127.0.0.1' },
    logger: createLogger({ name: 'auth', level: 'info' }, logs.stream),
  });
  rp = (await relyingParty(auth)).rp;
});
afterAll(() => auth.stop());

const nextIp = (): string => `198.18.0.${++ipCounter}`;

/** `n` browsers at `ip`, each on the login page of its own authorization request. */
async function loginPages(n: number, ip: string): Promise<{ b: Browser; page: Page }[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const b = new Browser({ 'x-forwarded-for': ip });
      const { page } = await authorize(auth, rp, b);
      expect(page.status).toBe(200);
      return { b, page };
    }),
  );
}

const count = (pages: Page[], status: number): number => pages.filter((p) => p.status === status).length;

const userWithTotp = (email: string) => withTotp(auth, email);

/** Six digits that are none of the codes `secret` accepts now. */
function wrongCodes(secret: string, n: number): string[] {
  const valid = new Set([-1, 0, 1].map((o) => totpCodeAt(secret, Date.now() + o * STEP_MS)));
  const codes: string[] = [];
  for (let i = 100_000; codes.length < n; i += 7919) if (!valid.has(String(i))) codes.push(String(i));
  return codes;
}

const failuresOf = async (id: string): Promise<number> =>
  (
    await sql<{ n: number }>`select second_factor_failures as n from account where id = ${id}`.execute(
      auth.db,
    )
  ).rows[0]!.n;

describe('a burst of wrong passwords', () => {
  it('20 at once for one email from one IP: at most 10 are checked (422), the rest 429; no more later', async () => {
    const user = await auth.createUser('burst@example.org');
    const ip = nextIp();
    const pages = await loginPages(20, ip);
    const answers = await Promise.all(
      pages.map(({ b, page }, i) =>
        submit(auth, b, page, { email: user.email, password: `wrong guess ${i}` }),
      ),
    );
    const checked = count(answers, 422);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(10);
    expect(count(answers, 429)).toBe(20 - checked);
    // Refused attempts counted for nothing; checked ones for all: exactly 10 checks in all, then 429.
    const [more] = await loginPages(1, ip);
    const later: number[] = [];
    for (let i = checked; i <= 10; i++) {
      later.push((await submit(auth, more!.b, more!.page, { email: user.email, password: 'x' })).status);
    }
    expect(later).toEqual([...Array<number>(10 - checked).fill(422), 429]);
    // The right password too, from this address.
    expect(
      (await submit(auth, more!.b, more!.page, { email: user.email, password: user.password })).status,
    ).toBe(429);
  });

  it('caps the password checks of one account in flight: a burst from many addresses waits (429, a few seconds)', async () => {
    const tight = await startAuth({
      env: { AUTH_TRUSTED_PROXIES: '127.0.0.1', AUTH_LOGIN_MAX_IN_FLIGHT_PER_ACCOUNT: '1' },
    });
    try {
      const app = await relyingParty(tight);
      const user = await tight.createUser('inflight@example.org');
      const browsers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const b = new Browser({ 'x-forwarded-for': `198.19.1.${i + 1}` });
          return { b, page: (await authorize(tight, app.rp, b)).page };
        }),
      );
      const answers = await Promise.all(
        browsers.map(({ b, page }) =>
          submit(tight, b, page, { email: user.email, password: 'wrong' }, tight.issuer),
        ),
      );
      const waited = answers.filter((p) => p.status === 429);
      expect(waited.length).toBeGreaterThan(0);
      expect(count(answers, 422)).toBe(20 - waited.length);
      for (const page of waited) {
        expect(page.body).toContain('Try again in a few seconds.');
        expect(page.headers.get('retry-after')).toBe('1');
      }
      // Not counted: the account has only the checked failures, and its owner gets in.
      const owner = browsers[0]!;
      const again = await authorize(tight, app.rp, owner.b);
      const ok = await submit(tight, owner.b, again.page, { email: user.email, password: user.password });
      expect(ok.status).toBe(303);
    } finally {
      await tight.stop();
    }
  });
});

describe('a burst of wrong second-factor codes', () => {
  it('20 at once: at most 5 are checked, and the pending sign-in is gone (the password must be typed again)', async () => {
    const user = await userWithTotp('codes@example.org');
    const b = new Browser({ 'x-forwarded-for': nextIp() });
    const started = await authorize(auth, rp, b);
    const step = await submit(auth, b, started.page, { email: user.email, password: user.password });
    expect(step.body).toContain('<h1>Two-factor authentication</h1>');

    const answers = await Promise.all(
      wrongCodes(user.secret, 20).map((code) => submit(auth, b, step, { code })),
    );
    const checked = count(answers, 422);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(5);
    expect(await failuresOf(user.id)).toBe(checked);
    // The others were refused unchecked: 429 with the login page, or (once the pending sign-in was
    // gone when they were read) 400 "sign in again".
    expect(count(answers, 429) + count(answers, 400)).toBe(20 - checked);
    const voided = answers.filter((p) => p.body.includes('Too many wrong codes. Sign in again'));
    expect(voided.length).toBeGreaterThan(0);
    for (const page of voided) expect(page.body).toContain('<h1>Sign in</h1>');

    // The next code, even the right one, gets the "sign in again" answer; the page is the login page.
    const right = totpCodeAt(user.secret);
    const next = await submit(auth, b, step, { code: right });
    expect(next.status).toBe(400);
    expect(next.body).toContain('sign in again');
    expect(b.has('auth_session')).toBe(false);
    const login = await b.get(step.url.replace(/\/[a-z-]+$/, ''));
    expect(login.body).toContain('<h1>Sign in</h1>');

    // The password again opens a new pending sign-in, with its own 5 codes.
    const again = await submit(auth, b, login, { email: user.email, password: user.password });
    expect(again.body).toContain('<h1>Two-factor authentication</h1>');
    expect((await submit(auth, b, again, { code: right })).status).toBe(303);
    expect(await failuresOf(user.id)).toBe(0);
  });

  it('voids the pending sign-in after 5 wrong codes one by one', async () => {
    const user = await userWithTotp('fivecodes@example.org');
    const b = new Browser({ 'x-forwarded-for': nextIp() });
    const started = await authorize(auth, rp, b);
    let page = await submit(auth, b, started.page, { email: user.email, password: user.password });
    const statuses: number[] = [];
    for (const code of wrongCodes(user.secret, 5)) {
      page = await submit(auth, b, page, { code });
      statuses.push(page.status);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422]);
    expect(page.body).toContain('<h1>Sign in</h1>');
    expect(page.body).toContain('Too many wrong codes. Sign in again');
    expect(logs.text()).toContain('sign-in refused: wrong second factor');
  });
});

describe('a burst in the account console', () => {
  it('20 wrong current passwords at once: at most 10 checked (422), the rest 429', async () => {
    const user = await auth.createUser('console-burst@example.org');
    const b = new Browser({ 'x-forwarded-for': nextIp() });
    let page = await b.follow(`${auth.issuer}/account`, new URL(auth.issuer).origin);
    page = await submit(auth, b, page, { email: user.email, password: user.password });
    expect(page.body).toContain('<h1>Your account</h1>');
    const csrf = hiddenInput(page.body, 'csrf')!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        b.post(`${auth.issuer}/account/password`, {
          csrf,
          current_password: `not it ${i}`,
          new_password: 'a new password, long enough',
          repeat_password: 'a new password, long enough',
        }),
      ),
    );
    const checked = count(answers, 422);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(10);
    expect(count(answers, 429)).toBe(20 - checked);
  });
});

describe('a burst of sign-ups', () => {
  it('10 at once from one IP with AUTH_SIGNUP_MAX_PER_IP=3: at most 3 accounts made, the rest 429', async () => {
    const open = await startAuth({
      env: { AUTH_TRUSTED_PROXIES: '127.0.0.1', AUTH_SELF_SIGNUP: 'true', AUTH_SIGNUP_MAX_PER_IP: '3' },
    });
    try {
      const app = await relyingParty(open);
      const forms = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const b = new Browser({ 'x-forwarded-for': '198.19.2.1' });
          const started = await authorize(open, app.rp, b);
          const link = /<a href="([^"]+)">Create an account<\/a>/.exec(started.page.body)![1]!;
          return { b, page: await b.get(new URL(link, open.issuer)) };
        }),
      );
      const answers = await Promise.all(
        forms.map(({ b, page }, i) =>
          submit(open, b, page, {
            email: `new${i}@example.org`,
            password: 'a long enough password',
            password_again: 'a long enough password',
          }),
        ),
      );
      const made = Number(
        (await sql<{ n: string }>`select count(*) as n from account`.execute(open.db)).rows[0]!.n,
      );
      expect(made).toBeLessThanOrEqual(3);
      expect(count(answers, 303)).toBe(made);
      expect(count(answers, 429)).toBe(10 - made);
    } finally {
      await open.stop();
    }
  });
});
