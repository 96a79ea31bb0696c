import type { BrowserContext } from 'playwright-core';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { type TestAuth, startAuth } from '../testing';
import { totpCodeAt } from '../users/totp';
import { expectAccessible } from './support/axe';
import { launchProfile, requireChromium } from './support/chromium';
import { mailEnv, resetLinkIn } from './support/mail';
import { type TotpUser, userWithTotp } from './support/totp-user';

/*
 * "Forgot password?" end to end in Chromium, with the second factor on: from the login page (the
 * account console's sign-in), ask for a reset, open the link from the email the SMTP server (the
 * in-process mail catcher) caught, set a new password — the TOTP code is still asked — then sign in
 * with the new password and a code. axe-core checks every new page, in each state (this context
 * bypasses CSP to load axe).
 */
const STEP_MS = 30_000;
const NEW_PASSWORD = 'a fresh passphrase for chromium';

let auth: TestAuth;
let catcher: MailCatcher;
let user: TotpUser;
let context: BrowserContext;
let chrome: Awaited<ReturnType<typeof launchProfile>> | undefined;

beforeAll(async () => {
  requireChromium();
  catcher = await startMailCatcher();
  auth = await startAuth({ env: mailEnv(catcher) });
  user = await userWithTotp(auth, 'forgetful@example.org');
  chrome = await launchProfile('password-reset', { bypassCSP: true, viewport: { width: 1024, height: 800 } });
  context = chrome.context;
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await auth?.stop();
  await catcher?.close();
});

const code = (offsetSteps = 0) => totpCodeAt(user.secret, Date.now() + offsetSteps * STEP_MS);

function wrongCode(): string {
  const valid = new Set([-1, 0, 1].map((o) => code(o)));
  return ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
}

test('forgot password with two-factor on: the link by email, a new password with a code, then sign in with both', async () => {
  const page = await context.newPage();
  await page.goto(`${auth.issuer}/account`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await expectAccessible(page, 'login page with "Forgot password?"');

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  await expectAccessible(page, 'forgot password');
  // The way back leads to the same sign-in.
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByRole('link', { name: 'Forgot password?' }).click();

  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send the reset link' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  await expectAccessible(page, 'reset link sent');

  const mail = await catcher.waitFor((m) => m.to === user.email && /^Reset/.test(m.subject));
  const link = resetLinkIn(mail, auth.issuer);

  await page.goto(link);
  await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  await expectAccessible(page, 'choose a new password (with a code)');
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('New password again').fill(NEW_PASSWORD);
  // The second factor is still asked: a wrong code is refused, nothing changes.
  await page.getByLabel('Authentication code').fill(wrongCode());
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await page.getByText('Incorrect code.').waitFor();
  await expectAccessible(page, 'choose a new password, wrong code');
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('New password again').fill(NEW_PASSWORD);
  await page.getByLabel('Authentication code').fill(code());
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await page.getByRole('heading', { name: 'Your password has been changed' }).waitFor();
  await expectAccessible(page, 'password changed');

  // The link works once.
  const again = await context.newPage();
  await again.goto(link);
  await again.getByRole('heading', { name: 'This link no longer works' }).waitFor();
  await expectAccessible(again, 'reset link no longer works');
  await again.close();

  // Sign in with the new password, and a code (the next step's: the reset used this one).
  await page.getByRole('link', { name: 'sign in to your account page' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
  await page.getByLabel('Authentication code').fill(code(1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  expect(page.url()).toBe(`${auth.issuer}/account`);

  // The notice of the change reached the account's address.
  const notice = await catcher.waitFor((m) => m.to === user.email && /password was changed/.test(m.subject));
  expect(notice.text).toContain('with a password reset link');
  await page.close();
}, 90_000);
