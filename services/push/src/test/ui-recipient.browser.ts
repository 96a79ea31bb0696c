import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import yauzl from 'yauzl';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { expectAccessible } from './support/axe';
import { launchProfile } from './support/chromium';

/*
 * The recipient's journey in Chromium (issue 29): a link pasted with the sentence's full stop
 * opens the push, the files are listed with readable sizes, "Download all" downloads one zip of
 * them; an unknown path (here and on the sign-in service) is an HTML page. Every page is checked
 * with axe at 1280 and 390 px, light and dark; screenshots land in test-artifacts/screenshots/.
 */
const SHOTS = path.resolve(__dirname, '../../../../test-artifacts/screenshots');

let stack: TestWebStack;
let push: TestPush;
let token: string;
let browser: { context: BrowserContext; close(): Promise<void> };

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  stack = await startWebStack({ files: true });
  ({ push } = stack);
  token = await stack.auth.token(await stack.auth.createClient('pushes:read pushes:write'));
  browser = await launchProfile('ui-recipient', {
    acceptDownloads: true,
    bypassCSP: true, // axe is injected
    viewport: { width: 1280, height: 900 },
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const FILES = [
  { name: 'report.pdf', body: randomBytes(2150) },
  { name: 'notes.txt', body: Buffer.from('the notes\n') },
];

/** A file push with a retrieval step (the recipient clicks to show the files). */
async function filePush(): Promise<string> {
  const form = new FormData();
  form.set('push[kind]', 'file');
  form.set('push[retrieval_step]', 'true');
  for (const f of FILES) {
    form.append('push[files][]', new Blob([f.body], { type: 'application/octet-stream' }), f.name);
  }
  const created = await fetch(`${push.url}/api/v2/pushes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { html_url: string }).html_url;
}

/** axe at a desktop and a phone width, light and dark, and a screenshot at each width. */
async function checkPage(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectAccessible(page, `${name}, ${width} px`);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: path.join(SHOTS, `ui-recipient-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

function zipNames(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const out = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(out));
      file.readEntry();
    });
  });
}

test('a link pasted with a full stop opens the files; "Download all" downloads one zip of them', async () => {
  const link = await filePush();
  const page = await browser.context.newPage();
  await page.goto(`${link}.`); // as pasted from "Here are the files: https://…/p/TOKEN."
  expect(page.url()).toBe(link);
  await page.getByRole('heading', { name: 'Someone shared files with you' }).waitFor();
  await checkPage(page, 'open');

  await page.getByRole('button', { name: 'Show the files' }).click();
  await page.getByRole('heading', { name: 'The shared files' }).waitFor();
  const list = page.locator('ul.files');
  expect(await list.textContent()).toContain('report.pdf');
  expect(await list.textContent()).toContain('2.1 kB');
  expect(await list.textContent()).toContain('10 bytes');
  expect(await page.content()).not.toContain('octet-stream');
  await checkPage(page, 'files');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download all (zip)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('files.zip');
  const entries = await zipNames(await readFile(await download.path()));
  expect([...entries.keys()]).toEqual(['report.pdf', 'notes.txt']);
  expect(entries.get('report.pdf')!.equals(FILES[0]!.body)).toBe(true);
  expect(entries.get('notes.txt')!.toString()).toBe('the notes\n');
  expect(page.url()).toBe(link.replace(/\/r$/, '')); // still the page, not a JSON answer or a blank tab
  await page.close();
}, 60_000);

test('an unknown path is an HTML page, on the web app and on the sign-in service', async () => {
  const page = await browser.context.newPage();
  const res = await page.goto(`${push.url}/p/`);
  expect(res?.status()).toBe(404);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  expect(await page.content()).not.toContain('"error"');
  await checkPage(page, 'not-found');

  const used = await page.goto(`${push.url}/api/v2/files/00000000-0000-4000-8000-000000000000?sig=x`);
  expect(used?.status()).toBe(404);
  await page.getByRole('heading', { name: 'This download link is invalid, used up or expired' }).waitFor();
  await checkPage(page, 'download-gone');

  const auth = await page.goto(`${stack.auth.issuer}/account/nope`);
  expect(auth?.status()).toBe(404);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  await checkPage(page, 'auth-not-found');
  await page.close();
}, 60_000);
