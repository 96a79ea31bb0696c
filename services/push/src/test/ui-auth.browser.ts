import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { expectAccessible } from './support/axe';
import { launchProfile, requireChromium } from './support/chromium';

/*
 * The web app and its sign-in service as one (issue 29), in Chromium: "Cancel" on the login page
 * comes back to a calm "Sign-in cancelled" page; the account page says how the person signed in
 * in words and leads to the sign-in service's settings, which lead back. axe at 1280 and 390 px,
 * light and dark; screenshots in test-artifacts/screenshots/ (this context bypasses CSP for axe).
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
  mkdirSync(SHOTS, { recursive: true });
  stack = await startWebStack();
  ({ auth, push, user } = stack);
  chrome = await launchProfile('ui-auth-web', { bypassCSP: true, viewport: { width: 1280, height: 800 } });
  context = chrome.context;
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await stack?.stop();
});

/** axe at 1280 and 390 px, light and dark; a screenshot at each width. */
async function check(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await expectAccessible(page, `${name} at ${width} px`);
    const file = `ui-auth-web-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}-${width}.png`;
    await page.screenshot({ path: path.join(SHOTS, file), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('Cancel at the login page, then the account page and the sign-in settings, and back', async () => {
  const page = await context.newPage();
  await page.goto(`${push.url}/`);
  await page.getByRole('link', { name: 'Sign in' }).first().click();
  await page.waitForURL(`${auth.issuer}/**`);
  await page.getByText('to continue to secret-push').waitFor();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('heading', { name: 'Sign-in cancelled' }).waitFor();
  expect(page.url().startsWith(`${push.url}/sign-in/callback?`)).toBe(true);
  await check(page, 'sign-in cancelled');
  await page.getByRole('link', { name: 'Back to the start page' }).click();
  await page.waitForURL(`${push.url}/`);

  await page.getByRole('link', { name: 'Sign in' }).first().click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Signed in as').waitFor();
  await page.goto(`${push.url}/account`);
  await page.getByText('the secret-push sign-in service', { exact: true }).waitFor();
  await check(page, 'account');
  await page.getByRole('link', { name: 'manage them there' }).click();
  await page.waitForURL(`${auth.issuer}/account`);
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  await page.getByRole('link', { name: 'Back to secret-push' }).click();
  await page.waitForURL(`${push.url}/`);
  await page.close();
}, 60_000);
