import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { BrowserContext } from 'playwright-core';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { launchProfile } from './support/chromium';

/*
 * Downloads in Chromium: a file uploaded as text/html or text/javascript is, when its link is
 * opened, a download of the same bytes: never a page or a script of the app's origin (no script
 * runs, the tab does not navigate to it).
 */

let stack: TestWebStack;
let push: TestPush;
let token: string;
let browser: { context: BrowserContext; close(): Promise<void> };

beforeAll(async () => {
  stack = await startWebStack({ files: true });
  ({ push } = stack);
  token = await stack.auth.token(await stack.auth.createClient('pushes:read pushes:write'));
  browser = await launchProfile('downloads', { acceptDownloads: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

interface FileLink {
  filename: string;
  content_type: string;
  url: string;
}

async function filePush(files: { name: string; type: string; body: string }[]): Promise<FileLink[]> {
  const form = new FormData();
  form.set('push[kind]', 'file');
  for (const f of files) form.append('push[files][]', new Blob([f.body], { type: f.type }), f.name);
  const created = await fetch(`${push.url}/api/v2/pushes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(created.status).toBe(201);
  const { url_token } = (await created.json()) as { url_token: string };
  const retrieved = (await (await fetch(`${push.url}/api/v2/pushes/${url_token}`)).json()) as {
    files: FileLink[];
  };
  return retrieved.files;
}

test('opening the link of a text/html or text/javascript file downloads it; nothing of it runs', async () => {
  const marker = randomBytes(6).toString('hex');
  const files = [
    {
      name: 'page.html',
      type: 'text/html',
      body: `<script>document.title = "ran-${marker}"; alert(1)</script>`,
    },
    { name: 'app.js', type: 'text/javascript', body: `document.title = "ran-${marker}"; alert(1);` },
  ];
  const links = await filePush(files);
  expect(links.map((l) => [l.filename, l.content_type])).toEqual([
    ['page.html', 'text/html'],
    ['app.js', 'text/javascript'],
  ]);
  const page = await browser.context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(`${push.url}/`);
  for (const [i, link] of links.entries()) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      // A navigation that turns into a download is aborted (net::ERR_ABORTED): expected.
      page.goto(link.url).catch(() => undefined),
    ]);
    expect(download.suggestedFilename()).toBe(files[i]!.name);
    expect((await readFile(await download.path())).toString()).toBe(files[i]!.body);
    expect(page.url()).toBe(`${push.url}/`); // still the app's page, not the file
    expect(await page.title()).not.toContain(marker);
  }
  expect(dialogs).toEqual([]);
  await page.close();
}, 60_000);
