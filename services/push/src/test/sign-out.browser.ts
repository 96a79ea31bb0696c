import type { BrowserContext, ConsoleMessage } from 'playwright-core';
import type { TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { launchProfile, requireChromium } from './support/chromium';

/*
 * Sign-out that signs out, in Chromium with every page's CSP on (no bypass): the web app's
 * "Sign out" reaches the auth service's end-session endpoint (not stopped by `form-action 'self'`),
 * the provider's session ends there, the person lands on "You are signed out", and "Sign in again"
 * asks for the password. Before that, three tabs opened at once after the re-check interval (1 s
 * here) keep the session: one refresh at a time, never a refresh token presented twice.
 */
let stack: TestWebStack;
let auth: TestAuth;
let push: TestPush;
let context: BrowserContext;
let chrome: Awaited<ReturnType<typeof launchProfile>> | undefined;

beforeAll(async () => {
  requireChromium();
  stack = await startWebStack({ pushEnv: { PUSH_SESSION_RECHECK_SECONDS: '1' } });
  ({ auth, push } = stack);
  chrome = await launchProfile('sign-out', { viewport: { width: 1024, height: 800 } });
  context = chrome.context;
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await stack?.stop();
});

test('parallel tabs keep the session; sign-out ends it at both ends; signing in again asks for the password', async () => {
  const page = await context.newPage();
  const violations: string[] = [];
  const watch = (m: ConsoleMessage) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  };
  page.on('console', watch);

  await page.goto(`${push.url}/sign-in`);
  await page.waitForURL(`${auth.issuer}/**`);
  await page.getByLabel('Email').fill(stack.user.email);
  await page.getByLabel('Password').fill(stack.user.password);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.getByText('Signed in as').waitFor();

  // Three tabs at once, after the re-check interval: each stays signed in, and so does the next.
  await new Promise((r) => setTimeout(r, 1100));
  const tabs = await Promise.all([1, 2, 3].map(() => context.newPage()));
  await Promise.all(tabs.map((t) => t.goto(`${push.url}/users/token`)));
  for (const t of tabs) {
    expect(t.url()).toBe(`${push.url}/users/token`);
    await expect(t.getByText('Signed in as').isVisible()).resolves.toBe(true);
    await t.close();
  }
  await new Promise((r) => setTimeout(r, 1100));
  await page.goto(`${push.url}/pushes`);
  await page.getByText('Signed in as').waitFor();

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(`${auth.issuer}/**`); // the provider's end-session confirmation
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(`${push.url}/signed-out`);
  await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
  expect(violations).toEqual([]);

  // The provider's session ended too: "Sign in again" shows its login page, asking for the password.
  await page.getByRole('link', { name: 'Sign in again' }).click();
  await page.waitForURL(`${auth.issuer}/**`);
  await expect(page.getByLabel('Password').isVisible()).resolves.toBe(true);
  await page.close();
}, 90_000);
