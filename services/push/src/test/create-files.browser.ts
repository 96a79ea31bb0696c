import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { expectAccessible } from './support/axe';

/*
 * Files in the web app's create form, end to end in Chromium with the pages' CSP on (as people
 * get it): a signed-in person chooses Files, picks two files, sends the form; the upload's progress
 * bar is shown and reaches its end; the created page replaces the form with the link; a recipient
 * in another browser context opens the link and downloads both files, byte for byte. And the form
 * without JavaScript: a text secret, and files, as plain form posts.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.resolve(__dirname, '../../../../test-artifacts/screenshots');
const ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];

let stack: TestWebStack;
let push: TestPush;
let browser: Browser;
const cspViolations: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: bash scripts/ensure-chromium.sh installs it.`);
  }
  await mkdir(SHOTS, { recursive: true });
  stack = await startWebStack({ files: true });
  ({ push } = stack);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

afterEach(() => {
  expect(cspViolations).toEqual([]);
});

async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) cspViolations.push(msg.text());
  });
  return page;
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${push.url}/`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL(`${stack.auth.issuer}/**`);
  await page.getByLabel('Email').fill(stack.user.email);
  await page.getByLabel('Password').fill(stack.user.password);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.getByText('Signed in as').waitFor();
}

/** Opens a file push's link in `context` and downloads each file; returns their bytes by name. */
async function downloadAll(context: BrowserContext, link: string, names: string[]) {
  const page = await newPage(context);
  await page.goto(link);
  await page.getByRole('button', { name: 'Show the files' }).click();
  await page.getByRole('heading', { name: 'Files', exact: true }).waitFor();
  const got = new Map<string, Buffer>();
  for (const name of names) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name }).click(),
    ]);
    got.set(download.suggestedFilename(), await readFile(await download.path()));
  }
  await page.close();
  return got;
}

/** What the progress bar showed, recorded as it changed (the created page then replaces it). */
interface Seen {
  value: number;
  max: number;
  hidden: boolean;
  percent: string;
}

/** Run in the page (by the test's driver, not subject to its CSP): records into `window.seen`. */
const RECORD_PROGRESS = `(() => {
  const seen = (window.seen = []);
  const bar = document.getElementById('upload-progress');
  const block = document.getElementById('upload');
  const percent = document.getElementById('upload-percent');
  const record = () =>
    seen.push({ value: bar.value, max: bar.max, hidden: block.hidden, percent: percent.textContent });
  const observer = new MutationObserver(record);
  observer.observe(bar, { attributes: true });
  observer.observe(block, { attributes: true });
  observer.observe(percent, { childList: true, characterData: true, subtree: true });
})()`;

test('signed in: two files with a progress bar that reaches 100 %, the link in place of the form, both files download intact', async () => {
  const context = await browser.newContext();
  const page = await newPage(context);
  await signIn(page);
  await expect(page.getByLabel('Choose the files').isVisible()).resolves.toBe(false); // Text is chosen
  await page.getByLabel('Files', { exact: true }).check();
  await expect(page.getByLabel('Choose the files').isVisible()).resolves.toBe(true);
  await expect(page.locator('#upload').isVisible()).resolves.toBe(false); // until the upload starts
  const files = [
    { name: 'keys.bin', mimeType: 'application/octet-stream', buffer: randomBytes(3_000_000) },
    { name: 'notes été.txt', mimeType: 'text/plain', buffer: Buffer.from('two files, one push\n') },
  ];
  await page.getByLabel('Choose the files').setInputFiles(files);
  await page.getByLabel('Secret', { exact: true }).fill('the files of the quarter');
  await page.getByText('More options').click();
  await page.getByLabel('Name (optional)').fill('Quarterly files');
  await page.screenshot({ path: path.join(SHOTS, '39-files-form.png'), fullPage: true });
  await page.evaluate(RECORD_PROGRESS);
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: 'Your secret link' }).waitFor();

  const seen = await page.evaluate<Seen[]>('window.seen');
  expect(seen.some((s) => !s.hidden)).toBe(true); // the bar was shown
  expect(seen.at(-1)).toMatchObject({ value: 100, max: 100, percent: '100 %' }); // and reached its end
  // Still the form's address (nothing to reload or go back to), the page's own title, and the
  // created page's script behaviour (the copy button) in place.
  expect(page.url()).toBe(`${push.url}/`);
  await expect(page.title()).resolves.toBe('Your secret link · secret-push');
  await expect(page.getByRole('button', { name: 'Copy the link' }).isVisible()).resolves.toBe(true);
  await expect(page.getByRole('link', { name: 'Expire now' }).isVisible()).resolves.toBe(true);
  await page.screenshot({ path: path.join(SHOTS, '40-files-created.png'), fullPage: true });
  const link = await page.locator('#link').inputValue();
  expect(link).toMatch(new RegExp(`^${push.url}/p/[\\w-]{22}/r$`)); // click to reveal (the default)

  // The recipient, in another browser context (no cookies of the sender).
  const recipient = await browser.newContext();
  const got = await downloadAll(
    recipient,
    link,
    files.map((f) => f.name),
  );
  for (const f of files) expect(got.get(f.name)?.equals(f.buffer)).toBe(true);
  await recipient.close();
  await context.close();
}, 90_000);

test('a refused upload keeps what was typed and the chosen files; the corrected form then goes through', async () => {
  const context = await browser.newContext();
  const page = await newPage(context);
  await signIn(page);
  await page.getByLabel('Files', { exact: true }).check();
  // Over the instance's count (10), the browser refuses to send: no upload at all.
  const many = Array.from({ length: 11 }, (_, i) => ({
    name: `f${i}.txt`,
    mimeType: 'text/plain',
    buffer: Buffer.from(`${i}\n`),
  }));
  await page.getByLabel('Choose the files').setInputFiles(many);
  await expect(page.evaluate<string>('document.getElementById("files").validationMessage')).resolves.toBe(
    'You can only attach up to 10 files per push.',
  );
  const file = { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('kept across the refusal\n') };
  await page.getByLabel('Choose the files').setInputFiles([file]);
  await page.getByLabel('Secret', { exact: true }).fill('typed before the refusal');
  await page.getByLabel('Passphrase (optional)').fill('kept passphrase');
  await page.locator('#views-custom').check();
  await page.getByLabel('Number of views').fill('0');
  await page.evaluate('document.querySelector("form.create").noValidate = true');
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: /Please correct/ }).waitFor();
  expect(page.url()).toBe(`${push.url}/`);
  await expect(page.getByLabel('Secret', { exact: true }).inputValue()).resolves.toBe(
    'typed before the refusal',
  );
  await expect(page.getByLabel('Passphrase (optional)').inputValue()).resolves.toBe('kept passphrase');
  await expect(page.getByLabel('Files', { exact: true }).isChecked()).resolves.toBe(true);
  await expect(page.evaluate<number>('document.getElementById("files").files.length')).resolves.toBe(1);
  await page.getByLabel('Number of views').fill('2');
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: 'Your secret link' }).waitFor();
  await context.close();
}, 60_000);

test('without JavaScript: a text secret, and files, are plain form posts answered with the link page', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await newPage(context);
  await page.goto(`${push.url}/`);
  await page.getByLabel('Secret', { exact: true }).fill('sent without JavaScript');
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: 'Your secret link' }).waitFor();
  const link = await page.locator('#link').inputValue();
  const token = /\/p\/([\w-]+)/.exec(link)![1]!;
  const got = (await (await fetch(`${push.url}/api/v2/pushes/${token}`)).json()) as { payload: string };
  expect(got.payload).toBe('sent without JavaScript');

  await signIn(page);
  await page.getByLabel('Files', { exact: true }).check();
  const file = { name: 'plain.bin', mimeType: 'application/octet-stream', buffer: randomBytes(100_000) };
  await page.getByLabel('Choose the files').setInputFiles([file]);
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: 'Your secret link' }).waitFor();
  const fileLink = await page.locator('#link').inputValue();
  await context.close();
  const recipient = await browser.newContext();
  const files = await downloadAll(recipient, fileLink, [file.name]);
  expect(files.get(file.name)?.equals(file.buffer)).toBe(true);
  await recipient.close();
}, 60_000);

test('accessible (axe): the form with Files and its progress bar, with a problem, and the created link', async () => {
  // axe is injected into the page: this context bypasses CSP (the tests above keep it on).
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await signIn(page);
  await page.getByLabel('Files', { exact: true }).check();
  await page
    .getByLabel('Choose the files')
    .setInputFiles([{ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('axe\n') }]);
  await page.evaluate('document.getElementById("upload").hidden = false'); // as during an upload
  await expectAccessible(page, 'create form with Files and the progress bar');
  await page.evaluate('document.getElementById("upload").hidden = true');
  await page.locator('#views-custom').check();
  await page.getByLabel('Number of views').fill('0');
  await page.evaluate('document.querySelector("form.create").noValidate = true');
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: /Please correct/ }).waitFor();
  await expectAccessible(page, 'create form with Files, a problem shown in place');
  await page.getByLabel('Number of views').fill('1');
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: 'Your secret link' }).waitFor();
  await expectAccessible(page, 'created link, in place of the form');
  await context.close();
}, 60_000);
