import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import type { TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { expectAccessible } from './support/axe';
import { CHROMIUM, launchProfile, requireChromium } from './support/chromium';

/*
 * The web app end to end in Chromium, wired as `make up` wires it: the auth service is the OpenID
 * provider (its login page, a web client from `clients create-web`, a user from `users create`).
 * A person signs in, shares a secret, makes a personal API token that a script then uses, sees the
 * push in /pushes with its audit log, expires it, and signs out at both ends; a recipient opens
 * the link in another browser. axe-core checks every page on the way (this context bypasses CSP
 * to load axe; the recipient page tests keep CSP on).
 */
const SHOTS = path.resolve(__dirname, '../../../../test-artifacts/screenshots');

let stack: TestWebStack;
let auth: TestAuth;
let push: TestPush;
let user: { email: string; password: string };
let context: BrowserContext;
let chrome: Awaited<ReturnType<typeof launchProfile>> | undefined;

beforeAll(async () => {
  requireChromium();
  stack = await startWebStack({ pushEnv: { PUSH_PERSONAL_TOKEN_CACHE_SECONDS: '0' } });
  ({ auth, push, user } = stack);
  chrome = await launchProfile('web-app', {
    bypassCSP: true,
    viewport: { width: 1024, height: 800 },
  });
  context = chrome.context;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: push.url });
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await stack?.stop();
});

const api = (p: string, headers: Record<string, string>) => fetch(`${push.url}/api/v2${p}`, { headers });

test('sign in, share, make and use a token, list, audit, expire, sign out; every page accessible', async () => {
  const page = await context.newPage();
  await page.goto(`${push.url}/`);
  await expectAccessible(page, 'create form, signed out');

  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL(`${auth.issuer}/**`);
  await expectAccessible(page, 'auth login page');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.getByText('Incorrect email or password.').waitFor();
  await expectAccessible(page, 'auth login page, wrong password');
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.getByText('Signed in as').waitFor();
  await expectAccessible(page, 'create form, signed in');

  await page.getByLabel('Secret', { exact: true }).fill('shared by demo');
  await page.getByText('More options').click();
  await page.getByLabel('Click to reveal').uncheck();
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: 'Your secret link' }).waitFor();
  await expectAccessible(page, 'created link, signed in');
  const link = await page.locator('#link').inputValue();
  await page.screenshot({ path: path.join(SHOTS, '30-created-signed-in.png'), fullPage: true });

  // A recipient in another browser.
  const recipient = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const other = await recipient.newPage();
  await other.goto(link);
  await expect(other.locator('#secret').textContent()).resolves.toBe('shared by demo');
  await recipient.close();

  // A personal API token, used by a script as Bearer and as Password Pusher's legacy pair.
  await page.getByRole('link', { name: 'API tokens' }).click();
  await expectAccessible(page, 'API tokens, none yet');
  await page.getByRole('button', { name: 'Create token' }).click();
  const field = page.getByLabel('Your new API token');
  await field.waitFor();
  await expectAccessible(page, 'API tokens, a new one shown');
  const token = await field.inputValue();
  expect(token).toMatch(/^spu_[A-Za-z0-9_-]{43}$/);
  await page.getByRole('button', { name: 'Copy the token' }).click();
  await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(token);
  await page.screenshot({ path: path.join(SHOTS, '31-new-api-token.png'), fullPage: true });
  expect((await api('/pushes/active', { authorization: `Bearer ${token}` })).status).toBe(200);
  const legacy = { 'x-user-email': user.email, 'x-user-token': token };
  const listed = (await (await api('/pushes/active', legacy)).json()) as { url_token: string }[];
  expect(listed.map((p) => link.endsWith(`/p/${p.url_token}`))).toContain(true);
  // Regenerated: the old value is refused at once (cache 0 here).
  await page.getByRole('link', { name: /^Regenerate/ }).click();
  await page.getByRole('heading', { name: /^Regenerate the token/ }).waitFor();
  await page.getByRole('button', { name: /^Regenerate/ }).click();
  await field.waitFor();
  expect(await field.inputValue()).not.toBe(token);
  expect((await api('/pushes/active', { authorization: `Bearer ${token}` })).status).toBe(401);

  await page.getByRole('link', { name: 'Your pushes' }).click();
  await expectAccessible(page, 'your pushes');
  await page
    .getByRole('link', { name: /^Audit log/ })
    .first()
    .click();
  await page.getByRole('heading', { name: /^Audit log/ }).waitFor();
  await expect(page.getByRole('cell', { name: 'Viewed' }).count()).resolves.toBe(1);
  await expectAccessible(page, 'audit log');
  await page.goBack();
  // Expire asks first (its page names the push), then /pushes says it was done.
  await page
    .getByRole('link', { name: /^Expire\s/ }) // not the "Expired" tab
    .first()
    .click();
  await page.getByRole('heading', { name: /^Expire .*\?$/ }).waitFor();
  await page.getByRole('button', { name: /^Expire/ }).click();
  await page.waitForURL(`${push.url}/pushes`);
  await page.getByRole('status').filter({ hasText: 'expired: nobody can open it' }).waitFor();
  await expect(page.getByText('No active pushes').isVisible()).resolves.toBe(true);

  // The account page: the provider's console linked, other sessions signed out, a deletion that
  // is not confirmed refused (the int tests delete accounts; the demo user stays).
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await page.getByRole('heading', { name: 'Your account', exact: true }).waitFor();
  await expect(page.getByRole('link', { name: 'manage them there' }).getAttribute('href')).resolves.toBe(
    `${auth.issuer}/account`,
  );
  await expectAccessible(page, 'account page');
  await page.getByRole('button', { name: 'Sign out other sessions' }).click();
  await page.getByRole('status').filter({ hasText: 'signed out' }).waitFor();
  await page.getByLabel(/^Type .* to confirm/).fill('not my email');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await page.getByText(/exactly to delete your account/).waitFor();
  await expectAccessible(page, 'account page, deletion not confirmed');

  // Sign out: confirmed at the auth service, then back here, signed out at both ends.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(`${auth.issuer}/**`);
  await expectAccessible(page, 'auth sign-out confirmation');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(`${push.url}/signed-out`);
  await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
  await expectAccessible(page, 'signed out');
  await expect(page.getByRole('link', { name: 'Sign in', exact: true }).isVisible()).resolves.toBe(true);
  await page.goto(`${push.url}/pushes`);
  await page.waitForURL(`${auth.issuer}/**`); // /pushes → /sign-in → the provider's login page
  await expect(page.getByLabel('Password').isVisible()).resolves.toBe(true);
  await page.close();
}, 90_000);
