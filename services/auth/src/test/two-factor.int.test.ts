import { sql } from 'kysely';
import type * as oidc from 'openid-client';
import { captureLogs, freePort } from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { type TotpUser, userWithTotp as withTotp } from './support/totp-user';
import { type AuthReplica, type TestAuth, type TestUser, startAuth } from '../testing';
import { totpCodeAt } from '../users/totp';
import { hiddenInput } from './support/browser';
import {
  Browser,
  REDIRECT_URI,
  authorize,
  exchange,
  recoveryCodesIn,
  relyingParty,
  submit,
  textOf,
} from './support/relying-party';

// Sign-in's second step (TOTP code or recovery code) and the enrolment AUTH_REQUIRE_TOTP asks for,
// against a real auth service, database and Redis. 127.0.0.1 is the trusted proxy, so each browser
// stands for the client address it sends in X-Forwarded-For.

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self' http://127.0.0.1:3999; " +
  "frame-ancestors 'none'; base-uri 'none'";
const STEP_MS = 30_000;

let auth: TestAuth;
let rp: oidc.Configuration;
const logs = captureLogs();
/** Every secret the tests handle: none may appear in a log line. */
const secrets: string[] = [];
let ipCounter = 0;

beforeAll(async () => {
  auth = await startAuth({
    env: {
      AUTH_TRUSTED_PROXIES: '127.0.0.1',
      AUTH_LOGIN_MAX_PER_ACCOUNT_IP: '3',
      AUTH_LOGIN_MAX_PER_IP: '1000',
      AUTH_LOGIN_MAX_PER_ACCOUNT: '100',
    },
    logger: createLogger({ name: 'auth', level: 'debug' }, logs.stream),
  });
  rp = (await relyingParty(auth)).rp;
});
afterAll(() => auth.stop());

/** A browser at an address of its own (so that the throttle's per-IP counters stay apart). */
function browser(): Browser {
  ipCounter += 1;
  return new Browser({ 'x-forwarded-for': `198.51.100.${ipCounter}` });
}

/** A user with a second factor enrolled (as the account console would store it). */
async function userWithTotp(email: string): Promise<TotpUser> {
  const user = await withTotp(auth, email);
  secrets.push(user.password, user.secret, ...user.recoveryCodes);
  return user;
}

/** A browser past the password of `user`, on the second-factor page. */
async function atSecondStep(user: TestUser, b = browser()) {
  const started = await authorize(auth, rp, b);
  const page = await submit(auth, b, started.page, { email: user.email, password: user.password });
  expect(page.status).toBe(200);
  expect(page.body).toContain('<h1>Two-factor authentication</h1>');
  return { b, started, page };
}

/** The interaction page (`/interaction/:uid`) a step's form was posted from. */
const interactionUrl = (page: { url: string }): string => page.url.replace(/\/[a-z-]+$/, '');

function code(secret: string, offsetSteps = 0): string {
  const value = totpCodeAt(secret, Date.now() + offsetSteps * STEP_MS);
  secrets.push(value);
  return value;
}

/** Six digits that are not a code of `secret` for the previous, current or next step. */
function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((o) => totpCodeAt(secret, Date.now() + o * STEP_MS)));
  return ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
}

describe('sign-in with a second factor', () => {
  it('asks for a code after the password, keeps the account server-side, and signs in with a right code (amr pwd, otp)', async () => {
    const user = await userWithTotp('tina@example.org');
    const { b, started, page } = await atSecondStep(user);
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.body).toContain('<label for="code">Authentication code</label>');
    expect(page.body).not.toMatch(/<script(?! src="\/static\/theme\.js"><\/script>)/);
    // The only hidden fields are the CSRF tokens (the code's form, and Cancel's) and the language
    // selectors' way back (header and footer): which account passed is not in the page.
    expect(page.body.match(/type="hidden"/g)).toHaveLength(4);
    expect(
      page.body.match(/<input type="hidden" name="back" value="\/interaction\/[^"]+" \/>/g),
    ).toHaveLength(2);
    expect(page.body.match(/<input type="hidden" name="csrf" value="[^"]+" \/>/g)).toHaveLength(2);
    expect(page.body).not.toContain(user.id);
    expect(b.has('auth_session')).toBe(false);

    // Reloading the page shows the same step, not the login form.
    const reloaded = await b.get(interactionUrl(page));
    expect(reloaded.body).toContain('<h1>Two-factor authentication</h1>');

    const back = await submit(auth, b, page, { code: code(user.secret) });
    expect(back.status).toBe(303);
    expect(back.location).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
    const tokens = await exchange(rp, started, back);
    secrets.push(tokens.access_token, tokens.refresh_token!);
    expect(tokens.claims()).toMatchObject({ sub: user.id, amr: ['pwd', 'otp'] });
    expect(logs.text()).toContain('"second_factor":"totp"');
  });

  it('refuses a code already used, and an older one; accepts a later one', async () => {
    const user = await userWithTotp('ursula@example.org');
    const first = await atSecondStep(user);
    const used = code(user.secret);
    expect((await submit(auth, first.b, first.page, { code: used })).status).toBe(303);

    const again = await atSecondStep(user);
    const replayed = await submit(auth, again.b, again.page, { code: used });
    expect(replayed.status).toBe(422);
    expect(replayed.body).toContain('Incorrect code.');
    expect(again.b.has('auth_session')).toBe(false);
    expect((await submit(auth, again.b, replayed, { code: code(user.secret, -1) })).status).toBe(422);
    expect((await submit(auth, again.b, replayed, { code: code(user.secret, 1) })).status).toBe(303);
  });

  it('counts wrong codes in the login throttle: after 3 the right code is refused (429), and so is the password', async () => {
    const user = await userWithTotp('vera@example.org');
    const { b, page } = await atSecondStep(user);
    for (let i = 0; i < 3; i++) {
      const wrong = await submit(auth, b, page, { code: wrongCode(user.secret) });
      expect(wrong.status).toBe(422);
    }
    const refused = await submit(auth, b, page, { code: code(user.secret) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toContain('Too many failed sign-in attempts.');
    expect(b.has('auth_session')).toBe(false);
    // The password does not reset the counter: from this address the account is locked.
    const login = await authorize(auth, rp, b);
    const password = await submit(auth, b, login.page, { email: user.email, password: user.password });
    expect(password.status).toBe(429);
    expect(logs.text()).toContain('sign-in refused: wrong second factor');
  });

  it('takes a recovery code (any case, spaces, dash) once, not twice; amr pwd, otp', async () => {
    const user = await userWithTotp('wanda@example.org');
    const recovery = user.recoveryCodes[0]!;
    const typed = ` ${recovery.toUpperCase().replace('-', ' - ')} `;
    const first = await atSecondStep(user);
    const back = await submit(auth, first.b, first.page, { code: typed });
    expect(back.status).toBe(303);
    const tokens = await exchange(rp, first.started, back);
    secrets.push(tokens.access_token, tokens.refresh_token!);
    expect(tokens.claims()!.amr).toEqual(['pwd', 'otp']);
    const stored = await sql<{ n: number }>`select cardinality(recovery_code_hashes) as n from account
                                           where id = ${user.id}`.execute(auth.db);
    expect(stored.rows[0]!.n).toBe(9);

    const second = await atSecondStep(user);
    expect((await submit(auth, second.b, second.page, { code: recovery })).status).toBe(422);
  });

  it('lets only one of two simultaneous uses of one recovery code win', async () => {
    const user = await userWithTotp('xena@example.org');
    const [one, two] = await Promise.all([atSecondStep(user), atSecondStep(user)]);
    const recovery = user.recoveryCodes[1]!;
    const statuses = await Promise.all([
      submit(auth, one.b, one.page, { code: recovery }),
      submit(auth, two.b, two.page, { code: recovery }),
    ]);
    expect(statuses.map((p) => p.status).sort()).toEqual([303, 422]);
  });

  it('refuses a second-factor form without its token, or from another site (403)', async () => {
    const user = await userWithTotp('yara@example.org');
    const { b, page } = await atSecondStep(user);
    const action = `${interactionUrl(page)}/second-factor`;
    expect((await b.post(action, { code: code(user.secret) })).status).toBe(403);
    const csrf = hiddenInput(page.body, 'csrf')!;
    const loginToken = hiddenInput((await authorize(auth, rp, browser())).page.body, 'csrf')!;
    expect((await b.post(action, { csrf: loginToken, code: code(user.secret) })).status).toBe(403);
    const foreign = await b.post(
      action,
      { csrf, code: code(user.secret) },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(foreign.status).toBe(403);
    expect(b.has('auth_session')).toBe(false);
  });

  it('cannot be skipped: the enrolment and continue steps refuse a sign-in waiting for a code', async () => {
    const user = await userWithTotp('zoe@example.org');
    const { b, page } = await atSecondStep(user);
    // A forged "continue" needs a token of that form: our pages never hand one out here.
    expect(
      (await b.post(`${interactionUrl(page)}/continue`, { csrf: hiddenInput(page.body, 'csrf')! })).status,
    ).toBe(403);
    expect(b.has('auth_session')).toBe(false);
  });

  it('clears the last accepted step with users reset-mfa', async () => {
    const user = await userWithTotp('abby@example.org');
    const { b, page } = await atSecondStep(user);
    expect((await submit(auth, b, page, { code: code(user.secret) })).status).toBe(303);
    expect((await auth.cli('users', 'reset-mfa', user.email)).code).toBe(0);
    const row = await sql<{
      totp_secret: string | null;
      totp_last_step: string | null;
      recovery_code_hashes: string[] | null;
    }>`
      select totp_secret, totp_last_step, recovery_code_hashes from account where id = ${user.id}`.execute(
      auth.db,
    );
    expect(row.rows[0]).toEqual({ totp_secret: null, totp_last_step: null, recovery_code_hashes: null });
  });
});

describe('AUTH_REQUIRE_TOTP (a replica with it set, same database)', () => {
  let strict: AuthReplica;
  beforeAll(async () => {
    strict = await auth.startReplica({ env: { AUTH_REQUIRE_TOTP: 'true' } });
  });
  afterAll(() => strict.close());

  it('makes an account without TOTP enrol after its password, shows its recovery codes once, then signs in', async () => {
    const user = await auth.createUser('bella@example.org');
    secrets.push(user.password);
    const b = browser();
    const started = await authorize(auth, rp, b);
    const enrol = await submit(
      auth,
      b,
      started.page,
      { email: user.email, password: user.password },
      strict.url,
    );
    expect(enrol.status).toBe(200);
    expect(enrol.body).toContain('<h1>Set up two-factor authentication</h1>');
    expect(enrol.body).toContain('<svg aria-hidden="true" focusable="false"');
    expect(enrol.body).toContain('<label for="enrol-code">Code from the app</label>');
    expect(enrol.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    const secret = textOf(enrol.body, 'totp-secret')!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    secrets.push(secret);
    expect(b.has('auth_session')).toBe(false);
    // The pending enrolment, kept in the interaction's row, holds the secret sealed, never in clear.
    const pending = await sql<{ payload: { result?: Record<string, { sealedSecret?: string }> } }>`
      select payload from oidc_payload where model = 'Interaction'`.execute(auth.db);
    const steps = pending.rows.map((r) => r.payload.result?.['urn:secret-push:pending_step']);
    const sealedPending = steps.find((s) => s?.sealedSecret)?.sealedSecret;
    expect(sealedPending).toMatch(/^sealed:/);
    expect(auth.totpSecrets.open(user.id, sealedPending!)).toBe(secret);
    expect(JSON.stringify(pending.rows)).not.toContain(secret);

    // Continuing before enrolling is refused.
    const early = await b.post(`${interactionUrl(enrol)}/continue`, {
      csrf: hiddenInput(enrol.body, 'csrf')!,
    });
    expect(early.status).toBe(403);

    const wrong = await submit(auth, b, enrol, { code: wrongCode(secret) }, strict.url);
    expect(wrong.status).toBe(422);
    expect(wrong.body).toContain('That code does not match.');
    expect(textOf(wrong.body, 'totp-secret')).toBe(secret);

    const shown = await submit(auth, b, wrong, { code: code(secret) }, strict.url);
    expect(shown.status).toBe(200);
    expect(shown.body).toContain('<h1>Your recovery codes</h1>');
    const recoveryCodes = recoveryCodesIn(shown.body);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    secrets.push(...recoveryCodes);
    const stored = await sql<{ totp_secret: string; n: number; step: string }>`
      select totp_secret, cardinality(recovery_code_hashes) as n, totp_last_step as step
      from account where id = ${user.id}`.execute(auth.db);
    expect(stored.rows[0]).toMatchObject({ n: 10 });
    // Sealed at rest: not the secret, nor its bytes in another encoding; it opens to the secret.
    expect(stored.rows[0]!.totp_secret).toMatch(/^sealed:test-[0-9a-f]{8}:/);
    expect(stored.rows[0]!.totp_secret).not.toContain(secret);
    expect(auth.totpSecrets.open(user.id, stored.rows[0]!.totp_secret)).toBe(secret);
    expect(stored.rows[0]!.step).toEqual(expect.any(String));
    expect(stored.rows[0]!.n).toBe(10);
    for (const c of recoveryCodes) expect(JSON.stringify(stored.rows)).not.toContain(c);

    // Reloaded, the page does not show the codes again.
    const reloaded = await b.get(interactionUrl(shown));
    expect(reloaded.body).toContain('Two-factor authentication is on');
    expect(recoveryCodesIn(reloaded.body)).toEqual([]);

    const back = await submit(auth, b, shown, {}, strict.url);
    expect(back.status).toBe(303);
    expect(back.location).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
    const tokens = await exchange(rp, started, back);
    secrets.push(tokens.access_token, tokens.refresh_token!);
    expect(tokens.claims()).toMatchObject({ sub: user.id, amr: ['pwd', 'otp'] });

    // From now on the account signs in with its second factor, and a recovery code works.
    const next = await atSecondStep(user);
    expect((await submit(auth, next.b, next.page, { code: recoveryCodes[3]! })).status).toBe(303);
  });
});

describe('dependencies down', () => {
  it('answers the second step 503 without Redis (never unthrottled), and without the database', async () => {
    const user = await userWithTotp('cleo@example.org');
    const noRedis = await auth.startReplica({
      env: { AUTH_REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
    });
    const noDb = await auth.startReplica({
      env: { AUTH_DATABASE_URL: `postgres://nobody@127.0.0.1:${await freePort()}/none` },
    });
    try {
      const { b, page } = await atSecondStep(user);
      for (const replica of [noRedis, noDb]) {
        const res = await submit(auth, b, page, { code: code(user.secret) }, replica.url);
        expect(res.status).toBe(503);
        expect(res.body).toContain('Sign-in is unavailable right now');
        expect(res.headers.get('retry-after')).toEqual(expect.any(String));
      }
      const page503 = await b.get(new URL(new URL(interactionUrl(page)).pathname, noDb.url));
      expect(page503.status).toBe(503);
      expect(b.has('auth_session')).toBe(false);
      // Back on a healthy replica the same page still works.
      expect((await submit(auth, b, page, { code: code(user.secret) })).status).toBe(303);
    } finally {
      await noRedis.close();
      await noDb.close();
    }
  });
});

describe('logs', () => {
  it('never contain a TOTP secret, code, recovery code, password or token', () => {
    const text = logs.text();
    expect(text).toContain('"signed in"');
    const values = secrets.filter((v) => v.length >= 6);
    expect(values.length).toBeGreaterThan(30);
    for (const value of values) {
      // A 6-digit code could be part of a longer number (a timestamp): only a whole number counts.
      if (/^[0-9]{6}$/.test(value)) expect(text).not.toMatch(new RegExp(`(?<![0-9])${value}(?![0-9])`));
      else expect(text).not.toContain(value);
    }
  });
});
