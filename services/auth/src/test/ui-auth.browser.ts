import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { type TestAuth, type TestUser, startAuth } from '../testing';
import { totpCodeAt } from '../users/totp';
import { expectAccessible } from './support/axe';
import { launchProfile, requireChromium } from './support/chromium';
import { mailEnv } from './support/mail';

/*
 * The sign-in service's pages as a person walks them in Chromium (issue 29): the login page with
 * "Forgot password?" and Cancel (a calm "Sign-in cancelled" with the way back to the web app,
 * AUTH_APP_URL), then two-factor set-up from the account page, and the recovery codes copied (the
 * clipboard), downloaded (a .txt, no JavaScript needed) and printed (a print stylesheet that
 * prints the codes alone). axe at 1280 and 390 px, light and dark, on every page; screenshots in
 * test-artifacts/screenshots/ (this context bypasses CSP to load axe).
 */
const SHOTS = path.resolve(__dirname, '../../../../test-artifacts/screenshots');
const APP_URL = 'http://127.0.0.1:3997/';

let auth: TestAuth;
let catcher: MailCatcher;
let user: TestUser;
let context: BrowserContext;
let chrome: Awaited<ReturnType<typeof launchProfile>> | undefined;

beforeAll(async () => {
  requireChromium();
  mkdirSync(SHOTS, { recursive: true });
  catcher = await startMailCatcher();
  auth = await startAuth({ env: { ...mailEnv(catcher), AUTH_APP_URL: APP_URL } });
  user = await auth.createUser('walker@example.org', 'a long walk through the sign-in pages');
  chrome = await launchProfile('ui-auth', {
    bypassCSP: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 800 },
  });
  context = chrome.context;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: auth.issuer });
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await auth?.stop();
  await catcher?.close();
});

/** axe at 1280 and 390 px, light and dark; a screenshot at each width. */
async function check(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await expectAccessible(page, `${name} at ${width} px`);
    const file = `ui-auth-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}-${width}.png`;
    await page.screenshot({ path: path.join(SHOTS, file), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('login: "Forgot password?" and Cancel, back to the app without signing in', async () => {
  const page = await context.newPage();
  await page.goto(`${auth.issuer}/account`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await expect(page.getByLabel('Email').getAttribute('autocomplete')).resolves.toBe('username');
  await expect(page.getByLabel('Password').getAttribute('autocomplete')).resolves.toBe('current-password');
  await check(page, 'login');

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();

  // What was typed is not sent: Cancel is a form of its own.
  await page.getByLabel('Password').fill('never sent anywhere');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('heading', { name: 'Sign-in cancelled' }).waitFor();
  expect(page.url()).toMatch(new RegExp(`^${auth.issuer}/account/callback\\?`));
  await expect(page.getByRole('link', { name: 'Back to secret-push' }).getAttribute('href')).resolves.toBe(
    APP_URL,
  );
  await check(page, 'sign-in cancelled');
  expect((await context.cookies(auth.issuer)).some((c) => c.name === 'auth_session')).toBe(false);
  await page.close();
}, 60_000);

test('two-factor set-up, then the recovery codes copied, downloaded and printed', async () => {
  const page = await context.newPage();
  await page.goto(`${auth.issuer}/account`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  await expect(page.getByRole('link', { name: 'Back to secret-push' }).getAttribute('href')).resolves.toBe(
    APP_URL,
  );
  await check(page, 'account');

  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
  const code = page.getByLabel('Code from the app');
  await expect(code.getAttribute('inputmode')).resolves.toBe('numeric');
  await expect(code.getAttribute('autocomplete')).resolves.toBe('one-time-code');
  await check(page, 'enrol');
  // The pattern stops what can never be a code before it is sent.
  await code.fill('12345');
  await expect(
    code.evaluate((e) => (e as unknown as { validity: { valid: boolean } }).validity.valid),
  ).resolves.toBe(false);
  const secret = (await page.locator('#totp-secret').textContent())!.replace(/\s+/g, '');
  await code.fill(totpCodeAt(secret, Date.now()));
  await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
  const codes = (await page.locator('#recovery-codes code').allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  await check(page, 'recovery codes');

  // Copy: the codes on the clipboard, one a line, and "Copied" announced.
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
  const copied = await page.evaluate<string>('navigator.clipboard.readText()');
  expect(copied.trim().split('\n')).toEqual(codes);

  // Download: a .txt with the codes.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download', exact: true }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('secret-push-recovery-codes.txt');
  const text = readFileSync(await download.path(), 'utf8');
  for (const c of codes) expect(text.split('\n')).toContain(c);

  // Print: the browser's print, and a print stylesheet that prints the codes alone.
  await page.evaluate('window.print = () => { window.printed = true; }');
  await page.getByRole('button', { name: 'Print' }).click();
  await expect(page.evaluate('window.printed')).resolves.toBe(true);
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('#recovery-codes').isVisible()).resolves.toBe(true);
  await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(false);
  await expect(page.getByRole('link', { name: 'Back to your account' }).isVisible()).resolves.toBe(false);
  await page.screenshot({ path: path.join(SHOTS, 'ui-auth-recovery-codes-print.png'), fullPage: true });
  await page.emulateMedia({ media: 'screen' });

  await page.getByRole('link', { name: 'Back to your account' }).click();
  await page.getByText('10 recovery codes left.').waitFor();
  await page.close();
}, 60_000);

test('without its script, the codes page offers the download only (no Copy or Print that do nothing)', async () => {
  const page = await context.newPage();
  await page.route('**/static/recovery-codes.js', (route) => route.abort());
  await page.goto(`${auth.issuer}/account`);
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  await page.getByLabel('Password or a code from your authenticator app').fill(user.password);
  await page.getByRole('button', { name: 'Generate new recovery codes' }).click();
  await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
  await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(false);
  await expect(page.getByRole('button', { name: 'Print' }).isVisible()).resolves.toBe(false);
  const codes = (await page.locator('#recovery-codes code').allTextContents()).map((c) => c.trim());
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download', exact: true }).click(),
  ]);
  const text = readFileSync(await download.path(), 'utf8');
  expect(text.split('\n').filter((l) => /^[a-z2-7]{5}-[a-z2-7]{5}$/.test(l))).toEqual(codes);
  await page.close();
}, 60_000);
