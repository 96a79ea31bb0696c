import { sql } from 'kysely';
import type * as oidc from 'openid-client';
import { captureLogs } from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { userWithTotp as withTotp } from './support/totp-user';
import { type TestAuth, type TestUser, startAuth } from '../testing';
import { SECOND_FACTOR_LOCK_AFTER } from '../users/second-factor';
import { totpCodeAt } from '../users/totp';
import type { Page } from './support/browser';
import { Browser, authorize, relyingParty, submit } from './support/relying-party';

// The second factor's lock, against a real auth service and database: wrong codes in a row are
// counted in the account row (across sign-ins and replicas); at SECOND_FACTOR_LOCK_AFTER (100)
// TOTP codes are refused, right ones included, until the owner signs in with a recovery code or the
// operator unlocks the factor (`users unlock-mfa`). A right code sets the count back to 0.

const STEP_MS = 30_000;
const LOCKED = 'Codes from your authenticator app are locked for this account after too many wrong codes.';
let auth: TestAuth;
let rp: oidc.Configuration;
const logs = captureLogs();
let ipCounter = 0;

beforeAll(async () => {
  auth = await startAuth({
    env: {
      AUTH_TRUSTED_PROXIES: '127.0.0.1',
      AUTH_LOGIN_MAX_PER_ACCOUNT_IP: '1000',
      AUTH_LOGIN_MAX_PER_ACCOUNT: '1000',
    },
    logger: createLogger({ name: 'auth', level: 'info' }, logs.stream),
  });
  rp = (await relyingParty(auth)).rp;
});
afterAll(() => auth.stop());

const userWithTotp = (email: string) => withTotp(auth, email);

const browser = () => new Browser({ 'x-forwarded-for': `198.18.9.${++ipCounter}` });

/** A browser past the password of `user`, on the second-factor page. */
async function atSecondStep(user: TestUser, b = browser()): Promise<{ b: Browser; page: Page }> {
  const started = await authorize(auth, rp, b);
  const page = await submit(auth, b, started.page, { email: user.email, password: user.password });
  expect(page.body).toContain('<h1>Two-factor authentication</h1>');
  return { b, page };
}

/** A code of `secret` for `offset` steps from now, each test using a later step than the last. */
const code = (secret: string, offset = 0) => totpCodeAt(secret, Date.now() + offset * STEP_MS);

function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((o) => code(secret, o)));
  return ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
}

const failuresOf = async (id: string): Promise<number> =>
  (
    await sql<{ n: number }>`select second_factor_failures as n from account where id = ${id}`.execute(
      auth.db,
    )
  ).rows[0]!.n;

const setFailures = (id: string, n: number) =>
  sql`update account set second_factor_failures = ${n} where id = ${id}`.execute(auth.db);

describe('wrong codes in a row', () => {
  it('are counted across sign-ins, and a right code sets the count back to 0', async () => {
    const user = await userWithTotp('count@example.org');
    for (let i = 0; i < 2; i++) {
      const { b, page } = await atSecondStep(user);
      expect((await submit(auth, b, page, { code: wrongCode(user.secret) })).status).toBe(422);
      expect((await submit(auth, b, page, { code: 'aaaaa-bbbbb' })).status).toBe(422); // a wrong recovery code
    }
    expect(await failuresOf(user.id)).toBe(4);
    const { b, page } = await atSecondStep(user);
    expect((await submit(auth, b, page, { code: code(user.secret, -1) })).status).toBe(303);
    expect(await failuresOf(user.id)).toBe(0);
  });

  it(`lock the factor at the ${SECOND_FACTOR_LOCK_AFTER}th: a right TOTP code is refused, and the owner is told`, async () => {
    const user = await userWithTotp('locked@example.org');
    // An owner already signed in to the account console, on another browser.
    const owner = browser();
    let consolePage = await owner.follow(`${auth.issuer}/account`, new URL(auth.issuer).origin);
    consolePage = await submit(auth, owner, consolePage, { email: user.email, password: user.password });
    consolePage = await submit(auth, owner, consolePage, { code: code(user.secret, -1) });
    expect(consolePage.body).toContain('<h1>Your account</h1>');
    expect(consolePage.body).not.toContain('id="two-factor-locked"');

    await setFailures(user.id, SECOND_FACTOR_LOCK_AFTER - 1);
    const { b, page } = await atSecondStep(user);
    const last = await submit(auth, b, page, { code: wrongCode(user.secret) });
    expect(last.status).toBe(422);
    expect(last.body).toContain(LOCKED);
    expect(logs.text()).toContain('second factor locked: too many wrong codes in a row');

    const right = await submit(auth, b, last, { code: code(user.secret) });
    expect(right.status).toBe(422);
    expect(right.body).toContain(LOCKED);
    expect(b.has('auth_session')).toBe(false);
    // Refused, not used: the code's step was not recorded.
    const step = await sql<{
      s: string | null;
    }>`select totp_last_step as s from account where id = ${user.id}`.execute(auth.db);
    expect(Number(step.rows[0]!.s)).toBeLessThan(Math.floor(Date.now() / STEP_MS));

    // The account console tells the owner.
    const told = await owner.get(`${auth.issuer}/account`);
    expect(told.body).toContain('id="two-factor-locked"');
    expect(told.body).toContain('Someone may know your password: change it.');
    // And the operator sees it.
    const listed = JSON.parse((await auth.cli('users', 'list', '--json')).out) as {
      email: string;
      mfa_locked: boolean;
    }[];
    expect(listed.find((u) => u.email === user.email)?.mfa_locked).toBe(true);
    expect((await auth.cli('users', 'list')).out).toMatch(/locked@example.org\t\S+\tactive, mfa locked,/);
  });

  it('is unlocked by a recovery code: the sign-in succeeds and TOTP works again', async () => {
    const user = await userWithTotp('recover@example.org');
    await setFailures(user.id, SECOND_FACTOR_LOCK_AFTER + 3);
    const first = await atSecondStep(user);
    expect((await submit(auth, first.b, first.page, { code: code(user.secret) })).status).toBe(422);
    expect((await submit(auth, first.b, first.page, { code: user.recoveryCodes[0]! })).status).toBe(303);
    expect(await failuresOf(user.id)).toBe(0);
    const next = await atSecondStep(user);
    expect((await submit(auth, next.b, next.page, { code: code(user.secret, 1) })).status).toBe(303);
  });

  it('is unlocked by the operator (users unlock-mfa), keeping the factor', async () => {
    const user = await userWithTotp('operator@example.org');
    await setFailures(user.id, SECOND_FACTOR_LOCK_AFTER);
    const before = await atSecondStep(user);
    expect((await submit(auth, before.b, before.page, { code: code(user.secret) })).status).toBe(422);

    const res = await auth.cli('users', 'unlock-mfa', 'OPERATOR@example.org');
    expect(res.code).toBe(0);
    expect(res.out).toContain('unlocked the second factor of operator@example.org');
    expect(await failuresOf(user.id)).toBe(0);
    const stored = await sql<{
      totp_secret: string | null;
    }>`select totp_secret from account where id = ${user.id}`.execute(auth.db);
    // The factor is kept (still sealed, still the owner's secret).
    expect(auth.totpSecrets.open(user.id, stored.rows[0]!.totp_secret!)).toBe(user.secret);

    const after = await atSecondStep(user);
    expect((await submit(auth, after.b, after.page, { code: code(user.secret) })).status).toBe(303);
    expect((await auth.cli('users', 'unlock-mfa', 'nobody@example.org')).code).toBe(1);
  });

  it('is cleared with the factor by users reset-mfa', async () => {
    const user = await userWithTotp('reset@example.org');
    await setFailures(user.id, SECOND_FACTOR_LOCK_AFTER);
    expect((await auth.cli('users', 'reset-mfa', user.email)).code).toBe(0);
    expect(await failuresOf(user.id)).toBe(0);
  });
});
