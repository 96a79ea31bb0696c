import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { expectAccessible } from './support/axe';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from './support/chromium';

/*
 * Requests in the web app end to end in Chromium (issue 28): the requester signs in, opens
 * "Request a secret" from the header, is told what is missing, creates a request and copies its
 * link (shown once, with its QR code); a responder in another browser context (no cookies, nobody
 * signed in) opens the link, reads the request (escaped), answers with text, and gets the confirmation; the link then says it was answered. The requester
 * finds the request answered in "Your requests", opens its page (audit log), opens the answer and
 * reveals it; closes another request, whose link is then the closed page. axe-core checks every
 * new page in both colour schemes. Every wait has its own timeout.
 * Then a request that takes files: the responder attaches one (the upload with its progress bar,
 * through /static/respond-form.js), and the requester downloads it from the answer; and a request
 * only listed addresses may answer, whose code step is checked with axe (the email goes to a test
 * SMTP server).
 */
const SHOTS = path.resolve(__dirname, '../../../../test-artifacts/screenshots');
const WAIT = { timeout: 10_000 };

let stack: TestWebStack;
let push: TestPush;
let browser: Browser;
let mail: MailCatcher;

beforeAll(async () => {
  requireChromium();
  await mkdir(SHOTS, { recursive: true });
  mail = await startMailCatcher();
  stack = await startWebStack({
    files: true,
    pushEnv: { PUSH_SMTP_URL: mail.url, PUSH_MAIL_FROM: 'secret-push@example.org' },
  });
  ({ push } = stack);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await mail?.close();
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${push.url}/sign-in`);
  await page.getByLabel('Email').fill(stack.user.email);
  await page.getByLabel('Password').fill(stack.user.password);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.getByText('Signed in as').waitFor(WAIT);
}

/** Fills and sends "Request a secret"; returns the link shown on the created page. */
async function createRequest(page: Page, message: string, name: string, files: boolean): Promise<string> {
  await page.goto(`${push.url}/requests/new`);
  await page.getByRole('heading', { name: 'Request a secret', level: 1 }).waitFor(WAIT);
  await page.getByLabel('Your request').fill(message);
  await page.getByText('More options').click();
  await page.getByLabel('Name (optional)').fill(name);
  if (files) await page.getByLabel('The responder may attach files').check();
  await page.getByRole('button', { name: 'Create the request link' }).click();
  await page.getByRole('heading', { name: 'Your request link' }).waitFor(WAIT);
  return await page.locator('#link').inputValue();
}

test('request, copy the link, answer anonymously with text, open the answer; close another', async () => {
  // The requester (CSP bypassed for axe only).
  const requester = await browser.newContext({ bypassCSP: true });
  await requester.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: push.url });
  const page = await requester.newPage();
  page.setDefaultTimeout(10_000);
  await signIn(page);

  // The form refuses an empty request, next to the field (the browser's own check bypassed).
  await page.getByRole('link', { name: 'Request a secret' }).first().click();
  await page.getByRole('heading', { name: 'Request a secret', level: 1 }).waitFor(WAIT);
  await expectAccessible(page, 'request form');
  await page.getByLabel('Your request').fill('   ');
  await page.evaluate(`document.querySelector('form.request-create').noValidate = true`);
  await page.getByRole('button', { name: 'Create the request link' }).click();
  await page.locator('#request-error').waitFor(WAIT);
  await expectAccessible(page, 'request form with a problem');

  const message = 'Please send the <b>VPN</b> key & the "staging" password';
  const link = await createRequest(page, message, 'VPN key', false);
  expect(link).toMatch(new RegExp(`^${push.url}/respond/[\\w-]{22}$`));
  await page.getByRole('button', { name: 'Copy the link' }).click();
  await page.getByText('Copied to the clipboard.').waitFor(WAIT);
  await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(link);
  await expect(page.locator('.qr svg').count()).resolves.toBe(1);
  await expectAccessible(page, 'request created');
  await page.screenshot({ path: path.join(SHOTS, '80-request-created.png'), fullPage: true });

  // The responder: another context, nobody signed in.
  const responder = await browser.newContext({ bypassCSP: true });
  const answer = await responder.newPage();
  answer.setDefaultTimeout(10_000);
  const opened = await answer.goto(link);
  expect(opened!.headers()['content-security-policy']).toContain("script-src 'self'");
  await answer.getByRole('heading', { name: 'Someone asks you for a secret' }).waitFor(WAIT);
  await expect(answer.locator('#request-message').textContent()).resolves.toBe(message); // escaped, shown as text
  await expectAccessible(answer, 'respond page');
  await answer.getByLabel('Your answer').fill('vpn-key-0451');
  await answer.getByRole('button', { name: 'Send the answer' }).click();
  await answer.getByRole('heading', { name: 'Your answer was sent' }).waitFor(WAIT);
  await expectAccessible(answer, 'answer sent');
  await answer.screenshot({ path: path.join(SHOTS, '81-request-answered.png'), fullPage: true });
  await answer.goto(link);
  await answer.getByRole('heading', { name: 'This request has already been answered' }).waitFor(WAIT);
  await expectAccessible(answer, 'already answered');

  // The requester finds it answered, opens its page, then the answer (one view).
  await page.getByRole('link', { name: 'Your requests' }).click();
  await page.getByRole('link', { name: 'Answered' }).click();
  await expectAccessible(page, 'requests, answered');
  await page.getByRole('link', { name: /^VPN key/ }).click();
  await page.getByRole('heading', { name: 'Request: VPN key' }).waitFor(WAIT);
  await expect(page.locator('#request-message').textContent()).resolves.toBe(message);
  await page.getByRole('cell', { name: 'Answered', exact: true }).waitFor(WAIT);
  await expectAccessible(page, 'request detail, answered');
  await page.screenshot({ path: path.join(SHOTS, '82-request-detail.png'), fullPage: true });
  await page.getByRole('link', { name: 'Open the answer' }).click();
  await page.getByRole('button', { name: 'Reveal the secret' }).click();
  await page.getByText('vpn-key-0451').waitFor(WAIT);

  // Another request, closed from the list after its confirmation: its link is then the closed page.
  const other = await createRequest(page, 'The database password, please', 'DB password', false);
  await page.goto(`${push.url}/requests`);
  const row = page.getByRole('row', { name: /DB password/ });
  await row.getByRole('link', { name: /^Close/ }).click();
  await page.getByRole('heading', { name: 'Close the request “DB password”?' }).waitFor(WAIT);
  await page.getByRole('button', { name: 'Close “DB password”' }).click();
  await page.getByRole('status').filter({ hasText: 'Request “DB password” closed' }).waitFor(WAIT);
  await page.getByRole('link', { name: 'Closed', exact: true }).click();
  await page.getByRole('row', { name: /DB password/ }).waitFor(WAIT);
  await expectAccessible(page, 'requests, closed');
  await answer.goto(other);
  await answer.getByRole('heading', { name: 'This request is closed or does not exist' }).waitFor(WAIT);
  await expectAccessible(answer, 'request closed');
  await requester.close();
  await responder.close();
}, 90_000);

test('the responder answers with a file (progress bar), the requester downloads it; the code step of listed addresses', async () => {
  const requester = await browser.newContext({ bypassCSP: true, acceptDownloads: true });
  const page = await requester.newPage();
  page.setDefaultTimeout(10_000);
  await signIn(page);
  const link = await createRequest(page, 'The signing key, please', 'Signing key', true);

  const responder = await browser.newContext({ bypassCSP: true });
  const answer = await responder.newPage();
  answer.setDefaultTimeout(10_000);
  await answer.goto(link);
  await answer.getByLabel('Files (optional)').waitFor(WAIT);
  await expectAccessible(answer, 'respond page with files');
  // What the upload shows, as it shows it: the bar's block and the percentages said.
  await answer.evaluate(`(() => {
    window.__seen = { shown: false, percents: [] };
    const upload = document.getElementById('upload');
    new MutationObserver(() => { if (!upload.hidden) window.__seen.shown = true; })
      .observe(upload, { attributes: true });
    new MutationObserver(() => window.__seen.percents.push(document.getElementById('upload-percent').textContent))
      .observe(document.getElementById('upload-percent'), { childList: true, characterData: true, subtree: true });
  })()`);
  const key = randomBytes(400_000);
  await answer.getByLabel('Your answer').fill('the key is attached');
  await answer.getByLabel('Files (optional)').setInputFiles({
    name: 'signing.key',
    mimeType: 'application/octet-stream',
    buffer: key,
  });
  await answer.getByRole('button', { name: 'Send the answer' }).click();
  await answer.getByRole('heading', { name: 'Your answer was sent' }).waitFor(WAIT);
  const seen = await answer.evaluate<{ shown: boolean; percents: string[] }>('window.__seen');
  expect(seen.shown).toBe(true);
  expect(seen.percents).toContain('100 %');
  // Sent by the script (the page replaced in place), not by a plain post's navigation.
  expect(answer.url()).toBe(link);
  await expectAccessible(answer, 'answer with a file sent');

  await page.goto(`${push.url}/requests?state=answered`);
  await page.getByRole('link', { name: /^Signing key/ }).click();
  await page.getByRole('link', { name: 'Open the answer' }).click();
  await page.getByRole('button', { name: 'Show the files' }).click();
  await page.getByText('the key is attached').waitFor(WAIT);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'signing.key' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('signing.key');
  expect((await readFile(await download.path())).equals(key)).toBe(true);

  // Only listed addresses: the code step.
  await page.goto(`${push.url}/requests/new`);
  await page.getByLabel('Your request').fill('Your VPN password, please');
  await page.getByText('More options').click();
  await page.getByLabel('Name (optional)').fill('VPN password');
  await page.getByLabel(/Only these email addresses/).check();
  await page.getByLabel('These addresses').fill('vendor@example.org');
  await page.getByRole('button', { name: 'Create the request link' }).click();
  await page.getByRole('heading', { name: 'Your request link' }).waitFor(WAIT);
  const listed = await page.locator('#link').inputValue();
  await answer.goto(listed);
  await answer.getByRole('heading', { name: 'Prove your address' }).waitFor(WAIT);
  await expectAccessible(answer, 'respond page, code step');
  await answer.getByLabel('Email address for the code').fill('vendor@example.org');
  await answer.getByRole('button', { name: 'Send me a code' }).click();
  await answer.getByText('If that address may answer, a code was sent to it.').waitFor(WAIT);
  await expect(answer.getByLabel('Your email address').inputValue()).resolves.toBe('vendor@example.org');
  await expectAccessible(answer, 'respond page, code sent');
  await answer.screenshot({ path: path.join(SHOTS, '83-respond-code.png'), fullPage: true });
  await requester.close();
  await responder.close();
}, 90_000);
