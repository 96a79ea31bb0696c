import type { TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { Browser } from './support/browser';

/*
 * The web app with our sign-in service: "Cancel" on its login page comes back here as a calm
 * "Sign-in cancelled" page (not an error), and the account page says how the person signed in, in
 * words, with the way to the sign-in service's settings, which lead back here.
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

/** The page's Cancel form alone, for Browser.submit (which submits a page's first form). */
function cancelFormOf(page: { url: string; body: string }) {
  const start = page.body.search(/<form method="post" action="[^"]+\/cancel"/);
  expect(start).toBeGreaterThan(0);
  return { url: page.url, body: page.body.slice(start) };
}

it('Cancel at the login page: "Sign-in cancelled" here, 200, nobody signed in; signing in still works', async () => {
  const b = new Browser();
  const login = await b.follow(`${push.url}/sign-in`);
  expect(login.url.startsWith(auth.issuer)).toBe(true);
  expect(login.body).toContain('to continue to <strong>secret-push</strong>');

  const back = await b.submit(cancelFormOf(login));
  expect(back.url.startsWith(`${push.url}/sign-in/callback?`)).toBe(true);
  expect(new URL(back.url).searchParams.get('error')).toBe('access_denied');
  expect(back.res.status).toBe(200);
  expect(back.body).toContain('<h1>Sign-in cancelled</h1>');
  expect(back.body).toContain('<a href="/">Back to the start page</a>');
  expect(back.body).not.toContain('could not be completed');
  const account = await b.follow(`${push.url}/account`);
  expect(account.url.startsWith(auth.issuer)).toBe(true);

  // The same callback again (its state is used up) is refused as before.
  const replay = await b.follow(back.url);
  expect(replay.res.status).toBe(400);

  const landed = await b.signIn(push.url, auth.issuer, { email: user.email, password: user.password });
  expect(landed.url).toBe(`${push.url}/`);
});

it('the account page: how the person signed in in words, the settings at the sign-in service and back', async () => {
  const b = new Browser();
  await b.signIn(push.url, auth.issuer, { email: user.email, password: user.password });
  const page = await b.follow(`${push.url}/account`);
  expect(page.body).toMatch(/<dt>Signed in through<\/dt>\s*<dd>the secret-push sign-in service<\/dd>/);
  expect(page.body).not.toContain(`<dd>${auth.issuer}</dd>`);
  expect(page.body).toContain(`<a href="${auth.issuer}/account">manage them there</a>`);

  const settings = await b.follow(`${auth.issuer}/account`);
  expect(settings.body).toContain('<h1>Your account</h1>');
  expect(settings.body).toContain(`<a href="${push.url}/">Back to secret-push</a>`);
});

it('Cancel at the sign-in again before deleting the account: still signed in, back to the account page', async () => {
  const b = new Browser();
  await b.signIn(push.url, auth.issuer, { email: user.email, password: user.password });
  const login = await b.follow(`${push.url}/account/delete`);
  expect(login.url.startsWith(auth.issuer)).toBe(true);
  const back = await b.submit(cancelFormOf(login));
  expect(back.res.status).toBe(200);
  expect(back.body).toContain('<h1>Sign-in cancelled</h1>');
  expect(back.body).toContain('you are still signed in');
  expect(back.body).toContain('<a href="/account">Back to your account</a>');
  const account = await b.follow(`${push.url}/account`);
  expect(account.url).toBe(`${push.url}/account`);
  expect(account.body).toContain('<h1>Your account</h1>');
});
