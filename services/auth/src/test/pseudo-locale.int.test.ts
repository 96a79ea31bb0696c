import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { freePort, startMailCatcher, type MailCatcher, untranslatedText } from '@secret-push/testing';
import { type TestAuth, startAuth } from '../testing';
import { totpCodeAt } from '../users/totp';
import { Browser, type Page, formAction, hiddenInput } from './support/browser';
import { MAIL_FROM, eventually, mailEnv, resetLinkIn } from './support/mail';
import { userWithTotp } from './support/totp-user';

/*
 * The pseudo-locale sweep of the auth service (issue 30): every page it answers, in each of its
 * states, asked for in `en-XA` (every catalogue letter accented and lengthened), must show no
 * plain-ASCII word but the test's own data, the brand and values. What is left bypasses the
 * catalogues: the failure lists each word with the state and the path it was seen on.
 *
 * States visited (the routers of interactions/ and interactions/account/, the provider's pages):
 * - sign-in: the login page (`GET /interaction/:uid`), a wrong password (its re-render), the second
 *   factor page and a wrong code, the enrolment page (AUTH_REQUIRE_TOTP, on a second service) and
 *   the recovery codes shown after it, self sign-up (`/interaction/:uid/signup`, and its problems),
 *   "Forgot password?" (`/interaction/:uid/forgot`, and the page after asking), the reset page
 *   (`/reset/:token`: the form, a problem, done, the link used up);
 * - the account console (`/account`, `/account/callback`): the page, a wrong current password,
 *   two-factor set-up and the recovery codes, the second factor on;
 * - the provider's pages: the logout confirmation (`/connect/endsession`), the signed-out page, an
 *   error page (an authorization request of an unknown client);
 * - errors: 403 (a form without its token), 404 (an unknown path; sign-up off), 405 (GET of a form),
 *   429 (the login throttle), 503 (a replica whose database does not answer).
 * The last test compares the GET routes of the routers' source with those visited.
 */

let auth: TestAuth;
/** AUTH_REQUIRE_TOTP: a sign-in without a second factor enrols one. */
let strict: TestAuth;
let mail: MailCatcher;
let ip = 0;

beforeAll(async () => {
  mail = await startMailCatcher();
  auth = await startAuth({
    env: {
      ...mailEnv(mail),
      AUTH_SELF_SIGNUP: 'true',
      AUTH_TRUSTED_PROXIES: '127.0.0.1',
      AUTH_LOGIN_MAX_PER_ACCOUNT_IP: '3',
    },
  });
  strict = await startAuth({ env: { AUTH_REQUIRE_TOTP: 'true', AUTH_TRUSTED_PROXIES: '127.0.0.1' } });
}, 60_000);

afterAll(async () => {
  await strict?.stop();
  await auth?.stop();
  await mail?.close();
});

/** A browser whose language is the pseudo-locale, from an address of its own (the throttles). */
function browser(): Browser {
  ip += 1;
  return new Browser({ 'accept-language': 'en-XA', 'x-forwarded-for': `198.51.100.${ip}` });
}

/** The test's own data and the brand: the only words allowed, with values (addresses, URLs). */
const ALLOW: (string | RegExp)[] = [
  'secret-push', // the brand (the default BRAND_NAME)
  'Sweep app', // the test's client
  MAIL_FROM,
  /^(?:TOTP|QR)$/, // technical tokens kept as they are in every language
  /^[A-Z2-7]{4}(?:\s?[A-Z2-7]{4})*$/, // a TOTP secret in base32 groups
  /^[a-z0-9x]{5}-[a-z0-9x]{5}$/, // a recovery code (and the field's xxxxx-xxxxx pattern)
  // The provider's refusal as it gives it (OAuth's error code and its English description), shown
  // on purpose as a technical detail for the application's developers (provider/pages.ts).
  /^invalid_[a-z_]+$/,
  'client is invalid',
];

/** Intl's output in `en-XA` is English (values): `<time>` elements and date phrases are taken out. */
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\\.?';
const INTL_VALUES: RegExp[] = [
  /<time\b[^>]*>[\s\S]*?<\/time>/g,
  new RegExp(
    `\\b${MONTH} \\d{1,2}(?:, \\d{4})?(?:(?:,| at) \\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s?[AP]M)?)?(?: UTC)?`,
    'g',
  ),
  /\b\d{1,2}:\d{2}(?::\d{2})?\s?(?:[AP]M)(?: UTC)?\b/g,
  /\b(?:in \d[\d,.]* (?:second|minute|hour|day|week|month|year)s?|\d[\d,.]* (?:second|minute|hour|day|week|month|year)s? ago)\b/g,
];
const withoutValues = (page: string) => INTL_VALUES.reduce((p, r) => p.replace(r, ' '), page);

interface Seen {
  state: string;
  /** The route pattern serving it (as written in the router's source), or `(provider)`. */
  route: string;
  path: string;
  status: number;
  body: string;
}
const seen: Seen[] = [];
const broken: { state: string; error: string }[] = [];

function record(state: string, route: string, page: Page, expected: number): Page {
  seen.push({ state, route, path: new URL(page.url).pathname, status: page.status, body: page.body });
  if (page.status !== expected) {
    broken.push({ state, error: `${new URL(page.url).pathname}: ${page.status}, expected ${expected}` });
  }
  return page;
}

async function step(state: string, fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (err) {
    broken.push({ state, error: err instanceof Error ? err.message : String(err) });
  }
}

const origin = (a: TestAuth) => new URL(a.issuer).origin;
/** Follows redirects on the issuer: the page a request ends on there. */
const open = (a: TestAuth, b: Browser, url: string) => b.follow(url, origin(a));
/** Posts the page's form (its own token, plus `fields`) and follows redirects on the issuer. */
const send = (a: TestAuth, b: Browser, page: Page, fields: Record<string, string>) =>
  b.follow(
    '',
    origin(a),
    b.post(new URL(formAction(page.body)!, a.issuer), {
      csrf: hiddenInput(page.body, 'csrf') ?? '',
      ...fields,
    }),
  );
/** The login page of a new sign-in to the account console (a first-party client of the service). */
const loginPage = (a: TestAuth, b: Browser) => open(a, b, `${a.issuer}/account`);
const interactionOf = (page: Page) => /\/interaction\/[\w-]+/.exec(page.url)?.[0] ?? '';

async function signInStates(): Promise<void> {
  const who = await auth.createUser('sweep-user@example.org');
  await step('login', async () => {
    const b = browser();
    const login = record('login page', '/interaction/:uid', await loginPage(auth, b), 200);
    record(
      'login, wrong password',
      '/interaction/:uid',
      await send(auth, b, login, { email: who.email, password: 'not it at all' }),
      422,
    );
    const account = await send(auth, b, await loginPage(auth, b), {
      email: who.email,
      password: who.password,
    });
    record('account console', '/account', account, 200);
    record(
      'account, wrong current password',
      '/account',
      await send(auth, b, formNamed(account, '/account/password'), {
        current_password: 'not it at all',
        new_password: 'a new long passphrase',
        repeat_password: 'a new long passphrase',
      }),
      422,
    );
    const start = await send(auth, b, formNamed(account, '/account/two-factor/start'), {});
    record('account, two-factor set-up', '/account', start, 200);
    const secret = /id="totp-secret"[^>]*>([^<]+)</.exec(start.body)?.[1]?.replace(/\s/g, '') ?? '';
    record(
      'account, two-factor wrong code',
      '/account',
      await send(auth, b, formNamed(start, '/account/two-factor/confirm'), { code: '000000' }),
      422,
    );
    const codes = await send(auth, b, formNamed(start, '/account/two-factor/confirm'), {
      code: totpCodeAt(secret),
    });
    record('account, recovery codes shown', '/account', codes, 200);
    record('account, second factor on', '/account', await open(auth, b, `${auth.issuer}/account`), 200);
    record(
      'account callback without its sign-in',
      '/account/callback',
      await b.get(`${auth.issuer}/account/callback`),
      400,
    );
    record('405: GET of a form', '/account/password', await b.get(`${auth.issuer}/account/password`), 405);
    record(
      '403: a form without its token',
      '/account/password',
      await b.post(`${auth.issuer}/account/password`, { current_password: 'x' }),
      403,
    );
  });
  await step('second factor', async () => {
    const totp = await userWithTotp(auth, 'sweep-totp@example.org');
    const b = browser();
    const factor = await send(auth, b, await loginPage(auth, b), {
      email: totp.email,
      password: totp.password,
    });
    record('second factor page', '/interaction/:uid', factor, 200);
    record(
      'second factor, wrong code',
      '/interaction/:uid',
      await send(auth, b, factor, { code: '000000' }),
      422,
    );
  });
  await step('enrolment', async () => {
    const plain = await strict.createUser('sweep-enrol@example.org');
    const b = browser();
    const enrol = await send(strict, b, await loginPage(strict, b), {
      email: plain.email,
      password: plain.password,
    });
    record('enrolment page (AUTH_REQUIRE_TOTP)', '/interaction/:uid', enrol, 200);
    record(
      'enrolment, wrong code',
      '/interaction/:uid',
      await send(strict, b, enrol, { code: '000000' }),
      422,
    );
    const secret = /id="totp-secret"[^>]*>([^<]+)</.exec(enrol.body)?.[1]?.replace(/\s/g, '') ?? '';
    const codes = await send(strict, b, enrol, { code: totpCodeAt(secret) });
    record('recovery codes after enrolment', '/interaction/:uid', codes, 200);
  });
  await step('signup', async () => {
    const b = browser();
    const login = await loginPage(auth, b);
    const signup = record(
      'sign-up page',
      '/interaction/:uid/signup',
      await open(auth, b, `${auth.issuer}${interactionOf(login)}/signup`),
      200,
    );
    record(
      'sign-up with problems',
      '/interaction/:uid/signup',
      await send(auth, b, signup, { email: 'not an address', password: 'short' }),
      422,
    );
  });
  await step('forgot and reset', async () => {
    const who = await auth.createUser('sweep-reset@example.org'); // no second factor: the reset completes
    const b = browser();
    const login = await loginPage(auth, b);
    const forgot = record(
      'forgot password page',
      '/interaction/:uid/forgot',
      await open(auth, b, `${auth.issuer}${interactionOf(login)}/forgot`),
      200,
    );
    record(
      'forgot password, asked',
      '/interaction/:uid/forgot',
      await send(auth, b, forgot, { email: who.email }),
      200,
    );
    const isReset = (m: (typeof mail.messages)[number]) => m.to === who.email && m.text.includes('/reset/');
    await eventually(() => Promise.resolve(mail.messages.some(isReset)));
    const link = resetLinkIn(mail.messages.find(isReset)!, auth.issuer);
    const reset = record('reset page', '/reset/:token', await open(auth, b, link), 200);
    record(
      'reset, passwords differ',
      '/reset/:token',
      await send(auth, b, reset, {
        new_password: 'a new long passphrase',
        repeat_password: 'another one entirely',
      }),
      422,
    );
    record(
      'reset, done',
      '/reset/:token',
      await send(auth, b, reset, {
        new_password: 'a new long passphrase',
        repeat_password: 'a new long passphrase',
      }),
      200,
    );
    record('reset, link used up', '/reset/:token', await open(auth, b, link), 410);
  });
  await step('429', async () => {
    const b = browser();
    let last: Page | undefined;
    for (let i = 0; i < 4; i++) {
      last = await send(auth, b, await loginPage(auth, b), { email: who.email, password: 'wrong again' });
    }
    record('login throttled (429)', '/interaction/:uid', last!, 429);
  });
}

/** The page with only the form posting to `action` (for {@link send}, which posts the first form). */
function formNamed(page: Page, action: string): Page {
  const form = [...page.body.matchAll(/<form method="post" action="([^"]*)"[\s\S]*?<\/form>/g)].find(
    (f) => f[1] === action,
  );
  if (!form) throw new Error(`no form to ${action} on ${page.url}`);
  return { ...page, body: form[0] };
}

async function providerStates(): Promise<void> {
  await step('logout', async () => {
    const who = await auth.createUser('sweep-logout@example.org');
    const b = browser();
    await send(auth, b, await loginPage(auth, b), { email: who.email, password: who.password });
    const confirm = record(
      'logout confirmation',
      '(provider)',
      await b.get(`${auth.issuer}/connect/endsession`),
      200,
    );
    const done = await b.follow(
      '',
      origin(auth),
      b.post(new URL(formAction(confirm.body)!, auth.issuer), {
        xsrf: hiddenInput(confirm.body, 'xsrf')!,
        logout: 'yes',
      }),
    );
    record('signed out', '(provider)', done, 200);
  });
  await step('provider error', async () => {
    const b = browser();
    const url = `${auth.issuer}/connect/authorize?client_id=sweep-unknown&response_type=code&scope=openid&redirect_uri=https%3A%2F%2Fexample.org%2Fcb`;
    record('provider error page (unknown client)', '(provider)', await b.get(url), 400);
  });
  await step('404', async () => {
    record('page not found (404)', '(none)', await browser().get(`${auth.issuer}/no-such-page`), 404);
    record(
      'reset link unknown (410)',
      '/reset/:token',
      await browser().get(`${auth.issuer}/reset/${'A'.repeat(43)}`),
      410,
    );
  });
  await step('sign-up off (404)', async () => {
    const b = browser();
    const login = await loginPage(strict, b);
    record(
      'sign-up off (404)',
      '/interaction/:uid/signup',
      await b.get(`${strict.issuer}${interactionOf(login)}/signup`),
      404,
    );
    record(
      'forgot password without email (404)',
      '/interaction/:uid/forgot',
      await b.get(`${strict.issuer}${interactionOf(login)}/forgot`),
      404,
    );
  });
  await step('503', async () => {
    const noDb = await auth.startReplica({
      env: { AUTH_DATABASE_URL: `postgres://nobody@127.0.0.1:${await freePort()}/none` },
    });
    try {
      const b = browser();
      const who = await auth.createUser('sweep-503@example.org');
      await send(auth, b, await loginPage(auth, b), { email: who.email, password: who.password });
      record('account unavailable (503)', '/account', await b.get(`${noDb.url}/account`), 503);
    } finally {
      await noDb.close();
    }
  });
}

beforeAll(async () => {
  await signInStates();
  await providerStates();
}, 120_000);

test('every page state was reached with its status', () => {
  expect(broken).toEqual([]);
});

test('en-XA: no page shows text that bypasses the catalogues', () => {
  const found = seen
    .map((p) => ({
      state: p.state,
      at: `${p.status} ${p.path}`,
      words: untranslatedText(withoutValues(p.body), ALLOW).join(' '),
    }))
    .filter((p) => p.words.length > 0);
  expect(found).toEqual([]);
});

test('en-XA: every page says lang="en-XA"', () => {
  const wrong = seen
    .filter((p) => !/<html\b[^>]*\blang="en-XA"/.test(p.body))
    .map((p) => `${p.state}: ${p.path}`);
  expect(wrong).toEqual([]);
});

/** The routes the routers' source declares with a literal path (`router.get('/…'`, `router.all('/…'`). */
function declaredRoutes(): Set<string> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.ts$/.test(name) && !/\.test\.ts$/.test(name)) files.push(full);
    }
  };
  walk(path.resolve(__dirname, '../interactions'));
  const out = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/router\.(?:get|all)\(\s*'([^']+)'/g)) out.add(m[1]!);
    // A route whose path is a constant: `const path = '/reset/:token'`.
    for (const m of text.matchAll(/const path = '([^']+)'/g)) out.add(m[1]!);
  }
  return out;
}

test('the sweep visits every page route the routers declare', () => {
  const routes = [...declaredRoutes()].filter((r) => !r.startsWith('/static/'));
  expect(routes.length).toBeGreaterThan(4);
  const visited = new Set(seen.map((p) => p.route));
  expect(routes.filter((r) => !visited.has(r)).sort()).toEqual([]);
});
