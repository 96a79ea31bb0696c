import { Secret, TOTP } from 'otpauth';
import { type BrowserContext, type Page } from 'playwright-core';
import type { TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { expectAccessible } from './support/axe';
import { launchProfile, requireChromium } from './support/chromium';

/*
 * The second factor end to end in Chromium, wired as `make up` wires it: the demo user signs in to
 * the push web app, opens the auth service's account console, turns on two-factor authentication
 * (reading the key the page shows as text and computing codes with otpauth, as an authenticator
 * app would), sees the recovery codes, signs out at both ends, and signs in again with a code.
 * axe-core checks each new auth page (this context bypasses CSP to load axe). Self sign-up is on
 * here, for the last test: its page, and a new account landing signed in at the web app.
 */
const STEP_MS = 30_000;

let stack: TestWebStack;
let auth: TestAuth;
let push: TestPush;
let user: { email: string; password: string };
let context: BrowserContext;
let chrome: Awaited<ReturnType<typeof launchProfile>> | undefined;

beforeAll(async () => {
  requireChromium();
  stack = await startWebStack({ authEnv: { AUTH_SELF_SIGNUP: 'true' } });
  ({ auth, push, user } = stack);
  chrome = await launchProfile('two-factor', {
    bypassCSP: true,
    viewport: { width: 1024, height: 800 },
  });
  context = chrome.context;
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await stack?.stop();
});

/** What an authenticator app shows for `secret` (base32), `offsetSteps` steps from now. */
function authenticatorCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offsetSteps * STEP_MS });
}

/** Six digits that are no code of `secret` for the previous, current or next step. */
function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((o) => authenticatorCode(secret, o)));
  return ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
}

async function signInWithPassword(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: /Sign in/ }).click();
}

test('turn on two-factor authentication in the account console, then sign in with a code; every page accessible', async () => {
  const page = await context.newPage();
  await page.goto(`${push.url}/`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL(`${auth.issuer}/**`);
  await signInWithPassword(page);
  await page.getByText('Signed in as').waitFor();

  // The account console: already signed in at the auth service, so no login page.
  await page.goto(`${auth.issuer}/account`);
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  expect(page.url()).toBe(`${auth.issuer}/account`);
  await expectAccessible(page, 'account console, two-factor off');

  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
  await expectAccessible(page, 'two-factor enrolment');
  const secret = (await page.locator('#totp-secret').textContent())!.replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel('Code from the app').fill(wrongCode(secret));
  await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  await page.getByText('That code does not match.').waitFor();
  await expectAccessible(page, 'two-factor enrolment, wrong code');
  await page.getByLabel('Code from the app').fill(authenticatorCode(secret));
  await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
  await expectAccessible(page, 'recovery codes');
  const codes = await page.locator('#recovery-codes li').allTextContents();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code.trim()).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  await page.getByRole('link', { name: 'Back to your account' }).click();
  await page.getByText(/10 recovery\s+codes left/).waitFor();
  await expectAccessible(page, 'account console, two-factor on');

  // Sign out at both ends (the push web app's sign-out, confirmed at the auth service).
  await page.goto(`${push.url}/`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${auth.issuer}/**`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${push.url}/signed-out`);

  // Signing in again asks for the password, then a code.
  await page.getByRole('link', { name: 'Sign in again' }).click();
  await page.waitForURL(`${auth.issuer}/**`);
  await signInWithPassword(page);
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
  await expectAccessible(page, 'sign-in second factor');
  await page.getByLabel('Authentication code').fill(wrongCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByText('Incorrect code.').waitFor();
  await expectAccessible(page, 'sign-in second factor, wrong code');
  // The enrolment used this step's code (accepted once): the next step's, as the app shows 30 s later.
  await page.getByLabel('Authentication code').fill(authenticatorCode(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(`${push.url}/**`);
  await page.getByText('Signed in as').waitFor();
  await page.close();
}, 90_000);

test('self sign-up: the page is accessible, and a new account lands signed in at the web app', async () => {
  await context.clearCookies(); // nobody signed in, at either end
  const page = await context.newPage();
  await page.goto(`${push.url}/sign-in`);
  await page.waitForURL(`${auth.issuer}/**`);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Password again').waitFor();
  await expectAccessible(page, 'self sign-up');
  await page.getByLabel('Email').fill('newcomer@example.org');
  await page.getByLabel('Password', { exact: true }).fill('a long enough passphrase');
  await page.getByLabel('Password again').fill('not the same passphrase');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('alert').waitFor();
  await expectAccessible(page, 'self sign-up, passwords differ');
  await page.getByLabel('Password', { exact: true }).fill('a long enough passphrase');
  await page.getByLabel('Password again').fill('a long enough passphrase');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${push.url}/**`);
  await page.getByText('Signed in as').waitFor();
  await expect(page.getByText('newcomer@example.org').first().isVisible()).resolves.toBe(true);
  await page.close();
}, 60_000);
