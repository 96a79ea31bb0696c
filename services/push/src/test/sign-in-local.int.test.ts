import type { TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { Browser } from './support/browser';

/*
 * The whole local set-up, as `make up` wires it: the auth service is the web app's OpenID
 * provider (its login page, a first-party web client made with `clients create-web`), a user made
 * with `users create`; the person signs in, creates a personal API token, and a client uses it the
 * way the Password Pusher CLI does. Then signs out at both ends.
 */
let stack: TestWebStack;
let auth: TestAuth;
let push: TestPush;
let user: { email: string; password: string };

beforeAll(async () => {
  stack = await startWebStack();
  ({ auth, push, user } = stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

it('signs in at the auth service, makes a token on /users/token, uses it as the Password Pusher CLI does, signs out', async () => {
  const b = new Browser();
  const wrong = await b.follow(`${push.url}/sign-in`);
  expect(wrong.url.startsWith(auth.issuer)).toBe(true);
  const refused = await b.submit(wrong, { email: user.email, password: 'not the password' });
  expect(refused.res.status).toBe(422);
  expect(refused.body).toContain('Incorrect email or password.');

  const landed = await b.signIn(push.url, auth.issuer, { email: user.email, password: user.password });
  expect(landed.url).toBe(`${push.url}/`);
  expect(landed.body).toContain('Signed in as <strong>demo@example.org</strong>');

  const csrf = /name="csrf" value="([^"]+)"/.exec(landed.body)![1]!;
  const made = await b.fetch(`${push.url}/users/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `csrf=${csrf}&name=cli&scopes=pushes:read&scopes=pushes:write`,
  });
  expect(made.status).toBe(201);
  const token = /id="new-token"[^>]*value="(spu_[^"]+)"/s.exec(await made.text())![1]!;

  // Password Pusher's CLI: Bearer + X-User-Email + X-User-Token on every call.
  const pwpush = {
    authorization: `Bearer ${token}`,
    'x-user-email': user.email,
    'x-user-token': token,
  };
  const login = await fetch(`${push.url}/api/v2/pushes/active`, { headers: pwpush });
  expect(login.status).toBe(200);
  const pushed = await fetch(`${push.url}/api/v2/pushes`, {
    method: 'POST',
    headers: { ...pwpush, 'content-type': 'application/json' },
    body: JSON.stringify({ push: { payload: 'from the pwpush CLI', expire_after_views: 2 } }),
  });
  expect(pushed.status).toBe(201);
  const { url_token } = (await pushed.json()) as { url_token: string };
  expect((await fetch(`${push.url}/api/v2/pushes/${url_token}/preview`, { headers: pwpush })).status).toBe(
    200,
  );
  expect((await fetch(`${push.url}/api/v2/pushes/${url_token}/audit`, { headers: pwpush })).status).toBe(200);
  // The person sees it in /pushes.
  expect((await b.follow(`${push.url}/pushes`)).body).toContain(`/pushes/${url_token}/audit`);
  expect(
    (await fetch(`${push.url}/api/v2/pushes/${url_token}`, { method: 'DELETE', headers: pwpush })).status,
  ).toBe(200);

  const out = await b.follow(`${push.url}/sign-out`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `csrf=${csrf}`,
  });
  // A page sends the browser on to the auth service, which asks to confirm the sign-out there (its
  // own form: "Sign out"), then comes back to "You are signed out".
  expect(out.url.startsWith(auth.issuer)).toBe(true);
  const back = await b.submit(out, { logout: 'yes' });
  expect(back.url).toBe(`${push.url}/signed-out`);
  expect(back.body).toContain('You are signed out');
  expect(back.body).toContain('<a href="/sign-in">Sign in</a>');
  // Signed out at the provider too: signing in again shows its login page.
  expect((await b.follow(`${push.url}/sign-in`)).url.startsWith(auth.issuer)).toBe(true);
}, 60_000);
