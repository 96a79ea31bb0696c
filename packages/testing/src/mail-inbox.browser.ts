/**
 * The local inbox in a real browser (Debian's Chromium, headless, driven by playwright-core): an
 * email's HTML part shows with its own inline styles, inside the sandboxed frame, while its
 * scripts never run, it cannot touch the inbox page and its remote image is never fetched.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { type BrowserContext, chromium } from 'playwright-core';
import { type MailCatcher, startMailCatcher } from './mail-catcher';
import { type MailInbox, startMailInbox } from './mail-inbox';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface BrowserWindow {
  getComputedStyle(el: unknown): { color: string };
}

let catcher: MailCatcher;
let inbox: MailInbox;
let beacon: { server: Server; hits: string[]; url: string };
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: bash scripts/ensure-chromium.sh installs it.`);
  }
  catcher = await startMailCatcher();
  inbox = await startMailInbox(catcher);
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  beacon = { server, hits, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  profile = await mkdtemp(join(tmpdir(), 'secret-push-inbox-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
});

afterAll(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  await new Promise((resolve) => beacon?.server.close(resolve));
  await inbox?.close();
  await catcher?.close();
});

it('renders the HTML part styled and inert: no script runs, the inbox is untouched, no remote load', async () => {
  const smtp = createTransport({ host: '127.0.0.1', port: catcher.port, secure: false, ignoreTLS: true });
  await smtp.sendMail({
    from: 'secret-push <no-reply@secret-push.local>',
    to: 'alice@example.org',
    subject: 'Your secret',
    text: 'Open https://push.example/p/tok',
    html:
      '<p id="styled" style="color: rgb(200, 0, 0)">Open <a href="https://push.example/p/tok">the secret</a></p>' +
      `<script>document.body.dataset.ran = "yes"; parent.document.title = "pwned"; fetch("${beacon.url}/script")</script>` +
      `<img src="${beacon.url}/pixel.png" alt="">` +
      '<p><img src="x" onerror="parent.document.body.innerHTML = \'gone\'"></p>',
  });
  smtp.close();

  const page = await context.newPage();
  const scriptErrors: string[] = [];
  page.on('pageerror', (err) => scriptErrors.push(err.message));
  await page.goto(`${inbox.url}/`);
  await page.getByRole('link', { name: 'Your secret' }).click();
  await page.waitForURL(`${inbox.url}/messages/1`);

  const frame = page.frameLocator('iframe[title="HTML part (sandboxed)"]');
  // Runs in the page (the tests compile without the DOM's types).
  const color = await frame
    .locator('#styled')
    .evaluate((el) => (globalThis as unknown as BrowserWindow).getComputedStyle(el).color);
  expect(color).toBe('rgb(200, 0, 0)');
  expect(await frame.locator('a').getAttribute('href')).toBe('https://push.example/p/tok');
  expect(await frame.locator('body').getAttribute('data-ran')).toBeNull();

  await page.waitForTimeout(500);
  expect(await page.title()).toBe('Your secret · secret-push local inbox');
  expect(await page.locator('h1').textContent()).toBe('Your secret');
  expect(await page.locator('pre a').getAttribute('href')).toBe('https://push.example/p/tok');
  expect(beacon.hits).toEqual([]);
  expect(scriptErrors).toEqual([]);
  await page.close();
});
