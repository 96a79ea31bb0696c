import type { TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { Browser } from './support/browser';

/*
 * The account page of the web app (`/account`) against the local auth service as provider:
 * signing out the person's other sessions, deleting the account (every push of theirs expires at
 * once, their tokens stop working, the account is gone at the provider too), and a user disabled
 * at the provider losing its personal API tokens within the re-check interval (1 s here).
 */
let stack: TestWebStack;
let auth: TestAuth;
let push: TestPush;
let user: { email: string; password: string };

beforeAll(async () => {
  stack = await startWebStack({
    pushEnv: { PUSH_SESSION_RECHECK_SECONDS: '1', PUSH_PERSONAL_TOKEN_CACHE_SECONDS: '0' },
  });
  ({ auth, push, user } = stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const csrfOf = (body: string) => /name="csrf" value="([^"]+)"/.exec(body)![1]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function newUser(email: string): Promise<{ email: string; password: string }> {
  const made = await auth.cli('users', 'create', '--email', email, '--json');
  expect(made.code).toBe(0);
  return JSON.parse(made.out) as { email: string; password: string };
}

async function signedIn(who: { email: string; password: string }): Promise<{ b: Browser; csrf: string }> {
  const b = new Browser();
  const landed = await b.signIn(push.url, auth.issuer, { email: who.email, password: who.password });
  expect(landed.body).toContain(`Signed in as <strong>${who.email}</strong>`);
  return { b, csrf: csrfOf(landed.body) };
}

async function tokenOf(b: Browser, csrf: string): Promise<string> {
  const made = await b.fetch(`${push.url}/users/token`, {
    method: 'POST',
    headers: form,
    body: `csrf=${csrf}&name=t${Math.random()}&scopes=pushes:read&scopes=pushes:write`,
  });
  expect(made.status).toBe(201);
  return /id="new-token"[^>]*value="(spu_[^"]+)"/s.exec(await made.text())![1]!;
}

async function createWith(token: string, payload: string): Promise<string> {
  const res = await fetch(`${push.url}/api/v2/pushes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ push: { payload, expire_after_views: 5 } }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { url_token: string }).url_token;
}

const listWith = (token: string) =>
  fetch(`${push.url}/api/v2/pushes/active`, { headers: { authorization: `Bearer ${token}` } });

it('shows the account with a link to the provider account page; nobody signed in is sent to sign in', async () => {
  const anonymous = await new Browser().fetch(`${push.url}/account`);
  expect(anonymous.status).toBe(303);
  expect(anonymous.headers.get('location')).toBe('/sign-in');

  const { b } = await signedIn(user);
  const page = await b.follow(`${push.url}/account`);
  expect(page.res.status).toBe(200);
  expect(page.res.headers.get('cache-control')).toContain('no-store');
  expect(page.body).toContain(user.email);
  expect(page.body).toContain(`href="${auth.issuer}/account"`);
  expect(page.body).toContain('<a href="/account" aria-current="page">Account</a>');
});

it('signs out every other session of the person at once, keeping this one; needs the CSRF token', async () => {
  const first = await signedIn(user);
  const second = await signedIn(user);
  const other = await signedIn(await newUser('someone-else@example.org'));

  const forged = await first.b.fetch(`${push.url}/account/sign-out-others`, {
    method: 'POST',
    headers: form,
    body: 'csrf=forged',
  });
  expect(forged.status).toBe(403);
  expect((await second.b.fetch(`${push.url}/pushes`)).status).toBe(200);

  const done = await first.b.fetch(`${push.url}/account/sign-out-others`, {
    method: 'POST',
    headers: form,
    body: `csrf=${first.csrf}`,
  });
  expect(done.status).toBe(200);
  expect(await done.text()).toMatch(/[1-9]\d* other sessions? (was|were) signed out/);
  expect((await first.b.fetch(`${push.url}/pushes`)).status).toBe(200);
  const signedOut = await second.b.fetch(`${push.url}/pushes`);
  expect(signedOut.status).toBe(303);
  expect(signedOut.headers.get('location')).toBe('/sign-in');
  // Another person's session is untouched.
  expect((await other.b.fetch(`${push.url}/pushes`)).status).toBe(200);
});

it('a user disabled at the provider loses its personal tokens within the re-check interval, and gets them back when enabled', async () => {
  const person = await newUser('disabled-later@example.org');
  const { b, csrf } = await signedIn(person);
  const token = await tokenOf(b, csrf);
  expect((await listWith(token)).status).toBe(200);

  expect((await auth.cli('users', 'disable', person.email)).code).toBe(0);
  await sleep(1_200); // past the 1 s interval of this test's push service
  expect((await listWith(token)).status).toBe(401);

  expect((await auth.cli('users', 'enable', person.email)).code).toBe(0);
  await sleep(1_200);
  expect((await listWith(token)).status).toBe(200);
});

it('deletes the account: its pushes expire at once, its tokens and sessions end, the provider account is gone', async () => {
  const person = await newUser('leaving@example.org');
  const { b, csrf } = await signedIn(person);
  const elsewhere = await signedIn(person);
  const token = await tokenOf(b, csrf);
  const mine = [await createWith(token, 'first secret'), await createWith(token, 'second secret')];
  // Someone else's push is not touched.
  const bystander = await signedIn(await newUser('bystander@example.org'));
  const theirs = await createWith(await tokenOf(bystander.b, bystander.csrf), 'not yours');

  const wrong = await b.fetch(`${push.url}/account/delete`, {
    method: 'POST',
    headers: form,
    body: `csrf=${csrf}&confirm=someone@example.org`,
  });
  expect(wrong.status).toBe(422);
  expect(await wrong.text()).toContain('exactly to delete your account');
  expect((await listWith(token)).status).toBe(200);

  const forged = await b.fetch(`${push.url}/account/delete`, {
    method: 'POST',
    headers: form,
    body: `csrf=forged&confirm=${encodeURIComponent(person.email)}`,
  });
  expect(forged.status).toBe(403);

  // Without a sign-in again (the ID token of a plain sign-in carries no auth_time): sent to the
  // provider's login page (prompt=login), nothing deleted.
  const notRecent = await b.fetch(`${push.url}/account/delete`, {
    method: 'POST',
    headers: form,
    body: `csrf=${csrf}&confirm=${encodeURIComponent(person.email)}`,
    redirect: 'manual',
  });
  expect(notRecent.status).toBe(303);
  const to = new URL(notRecent.headers.get('location')!);
  expect(to.origin).toBe(new URL(auth.issuer).origin);
  expect(to.searchParams.get('prompt')).toBe('login');
  expect(to.searchParams.get('max_age')).toBe('300');
  expect((await listWith(token)).status).toBe(200);

  // Signing in again (the login page although the provider session exists) comes back to the
  // confirmation, in a new session.
  const login = await b.follow(`${push.url}/account/delete`);
  expect(login.url.startsWith(auth.issuer)).toBe(true);
  expect(login.body).toContain('<h1>Sign in</h1>');
  const confirm = await b.submit(login, { email: person.email, password: person.password });
  expect(confirm.url).toBe(`${push.url}/account/delete`);
  expect(confirm.body).toContain('You signed in again.');
  const deleted = await b.fetch(`${push.url}/account/delete`, {
    method: 'POST',
    headers: form,
    body: `csrf=${csrfOf(confirm.body)}&confirm=${encodeURIComponent(person.email.toUpperCase())}`,
  });
  expect(deleted.status).toBe(200);
  const page = await deleted.text();
  expect(page).toContain('Your account was deleted');
  expect(page).toContain('2 active secrets expired');
  expect(page).not.toContain('could not be deleted');
  expect(deleted.headers.get('set-cookie')).toMatch(/Expires=Thu, 01 Jan 1970/);

  for (const urlToken of mine) {
    const res = await fetch(`${push.url}/api/v2/pushes/${urlToken}`);
    const body = (await res.json()) as { expired: boolean; payload?: unknown };
    expect(body.expired).toBe(true);
    expect(body.payload ?? null).toBeNull();
  }
  const kept = (await (await fetch(`${push.url}/api/v2/pushes/${theirs}`)).json()) as { payload: string };
  expect(kept.payload).toBe('not yours');
  expect((await listWith(token)).status).toBe(401);
  expect((await b.fetch(`${push.url}/pushes`)).status).toBe(303);
  expect((await elsewhere.b.fetch(`${push.url}/pushes`)).status).toBe(303);

  // Gone at the provider: the password signs in nobody.
  const later = new Browser();
  const again = await later.follow(`${push.url}/sign-in`);
  const refused = await later.submit(again, { email: person.email, password: person.password });
  expect(refused.body).toContain('Incorrect email or password.');
  const listed = await auth.cli('users', 'list', '--json');
  expect(listed.out).not.toContain(person.email);
});

// Last: it stops the auth service.
it('a personal token whose user cannot be confirmed (the provider does not answer) gets 503, not 401 nor 200', async () => {
  const person = await newUser('unconfirmed@example.org');
  const { b, csrf } = await signedIn(person);
  const token = await tokenOf(b, csrf);
  expect((await listWith(token)).status).toBe(200);
  await auth.stop();
  await sleep(1_200);
  const res = await listWith(token);
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).not.toBeNull();
});
