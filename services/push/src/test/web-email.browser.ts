import path from 'node:path';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { type TestPush, type TestWebStack, startTestWorker, startWebStack } from '../testing';
import type { WorkerService } from '../worker-server';
import { expectAccessible } from './support/axe';
import { CHROMIUM, CHROMIUM_ARGS, launchProfile, requireChromium } from './support/chromium';

/*
 * Email in the web app end to end, in Chromium (issue 26): a person sets their default notices on
 * the account page and finds them pre-checked in the create form, creates a secret with "Email the
 * link to", the email reaches a real SMTP server (in this process) through the worker, the link in
 * it opens the secret in another browser, and the owner's page of the push shows the recipient's
 * status. axe-core checks each changed page, at 1280 and 390 px wide, in both colour schemes.
 */
const SHOTS = path.resolve(__dirname, '../../../../test-artifacts/screenshots');

let stack: TestWebStack;
let push: TestPush;
let user: { email: string; password: string };
let mail: MailCatcher;
let worker: WorkerService;
let context: BrowserContext;
let chrome: Awaited<ReturnType<typeof launchProfile>> | undefined;

beforeAll(async () => {
  requireChromium();
  mail = await startMailCatcher();
  const smtp = { PUSH_SMTP_URL: mail.url, PUSH_MAIL_FROM: 'secret-push@example.org' };
  stack = await startWebStack({ pushEnv: smtp });
  ({ push, user } = stack);
  worker = await startTestWorker(push); // SMTP, keys and public URL from the push service's
  chrome = await launchProfile('web-email', { bypassCSP: true, viewport: { width: 1280, height: 900 } });
  context = chrome.context;
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await worker?.close();
  await stack?.stop();
  await mail?.close();
});

/** axe at a desktop and a phone width (then back to the desktop). */
async function expectAccessibleAtWidths(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectAccessible(page, `${name}, ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Reloads the owner's page until the recipient's row says Sent (the worker records the reply after sending). */
async function sentShown(page: Page, recipient: RegExp): Promise<void> {
  const row = page.locator('#email-sends').getByRole('row', { name: recipient });
  for (let i = 0; i < 50; i++) {
    if ((await row.count()) > 0 && (await row.textContent())?.includes('Sent')) return;
    await new Promise((r) => setTimeout(r, 100));
    await page.reload();
  }
  expect(await row.textContent()).toContain('Sent');
}

test('account defaults pre-checked, "Email the link to" delivers the link, the owner sees its status', async () => {
  const page = await context.newPage();
  await page.goto(`${push.url}/sign-in`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.getByText('Signed in as').waitFor();

  // The account's default notices.
  await page.getByRole('link', { name: 'Account' }).click();
  await page.getByRole('heading', { name: 'Email notices' }).waitFor();
  await expectAccessibleAtWidths(page, 'account with email notices');
  const notices = page.getByRole('group', { name: 'Email me when a secret of mine…' });
  await notices.getByLabel('…it is viewed').check();
  await notices.getByLabel('…it expires without being viewed').check();
  await page.getByRole('button', { name: 'Save email notices' }).click();
  await page.getByText('Your email notices were saved.').waitFor();
  expect(page.url()).toBe(`${push.url}/account?saved=notices`);
  await expectAccessibleAtWidths(page, 'account, notices saved');

  // The create form: the defaults pre-checked.
  await page.getByRole('link', { name: 'Share a secret' }).click();
  await page.getByText('More options').click();
  const emailMe = page.getByRole('group', { name: 'Email me when…' });
  await expect(emailMe.getByLabel('…it is viewed').isChecked()).resolves.toBe(true);
  await expect(emailMe.getByLabel('…a wrong passphrase is tried').isChecked()).resolves.toBe(false);
  await expect(emailMe.getByLabel('…it expires without being viewed').isChecked()).resolves.toBe(true);
  await expectAccessibleAtWidths(page, 'create form with email');

  // A bad address first: the problem next to the field, everything kept.
  await page.getByLabel('Secret', { exact: true }).fill('emailed by demo');
  await page.getByLabel('Click to reveal').uncheck();
  await page.getByLabel('Email the link to (optional)').fill('friend@example.net, nobody');
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: /Please correct/ }).waitFor();
  await page.locator('#notify_emails_to-error').waitFor();
  await expect(page.getByLabel('Secret', { exact: true }).inputValue()).resolves.toBe('emailed by demo');
  await expectAccessibleAtWidths(page, 'create form, bad address');
  await page.screenshot({ path: path.join(SHOTS, '60-create-email-problem.png'), fullPage: true });

  await page.getByLabel('Email the link to (optional)').fill('friend@example.net');
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: 'Your secret link' }).waitFor();
  const link = await page.locator('#link').inputValue();

  // The email reaches the SMTP server with the link and without the secret.
  const email = await mail.waitFor((m) => m.envelope.to.includes('friend@example.net'), 15_000);
  expect(email.text).toContain(link);
  expect(email.text).not.toContain('emailed by demo');
  expect(email.html).not.toContain('emailed by demo');
  const emailed = /https?:\/\/\S+\/p\/[\w-]+(?:\/r)?/.exec(email.text)![0];
  expect(emailed).toBe(link);

  // The recipient opens the link from the email in another browser.
  const recipient = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const other = await recipient.newPage();
    await other.goto(emailed);
    await expect(other.locator('#secret').textContent()).resolves.toBe('emailed by demo');
  } finally {
    await recipient.close();
  }

  // The owner's page of the push: the recipient, sent.
  await page.goto(`${push.url}/pushes`);
  await page
    .getByRole('link', { name: /Audit log/ })
    .first()
    .click();
  const sends = page.locator('#email-sends');
  await sends.waitFor();
  await sentShown(page, /friend@example\.net/);
  await expectAccessibleAtWidths(page, "owner's page with email sends");
  await page.screenshot({ path: path.join(SHOTS, '61-owner-email-sends.png'), fullPage: true });

  // "Send the link by email" from there.
  await page.getByLabel('Email the link to', { exact: true }).fill('second@example.net');
  await page.getByRole('button', { name: 'Send the link' }).click();
  await page.getByText('The link will be emailed').waitFor();
  await mail.waitFor((m) => m.envelope.to.includes('second@example.net'), 15_000);
  await sentShown(page, /second@example\.net/);
  await page.close();
}, 120_000);
