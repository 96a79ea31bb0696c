import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { sql } from 'kysely';
import request from 'supertest';
import { type LocalS3, startS3 } from '@secret-push/testing';
import { type Harness, bearer, createPush, harness } from './support/helpers';

/**
 * The recipient pages in a real browser: Debian's Chromium driven by playwright-core, headless,
 * with a fresh profile. Screenshots of every state land in test-artifacts/screenshots/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.resolve(__dirname, '../../../../test-artifacts/screenshots');
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let h: Harness;
let s3: LocalS3;
let context: BrowserContext;
let profile: string;
let landing: Server;
let landingUrl: string;
const cspViolations: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}. Install Debian's package (apt-get install -y chromium; ` +
        '.ci/run does this) or point CHROMIUM_PATH at a Chromium binary.',
    );
  }
  await mkdir(SHOTS, { recursive: true });
  s3 = await startS3();
  h = await harness({ env: s3.env });
  landing = createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>Landing</title><h1>You arrived at the shared link</h1>');
  });
  await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve));
  landingUrl = `http://127.0.0.1:${(landing.address() as AddressInfo).port}/landing?from=secret`;
  profile = await mkdtemp(path.join(tmpdir(), 'secret-push-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 390, height: 844 }, // a phone
    deviceScaleFactor: 1,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.push.url });
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  await new Promise((resolve) => landing?.close(resolve));
  await h?.stop();
  await s3?.close();
});

async function newPage(): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) cspViolations.push(msg.text());
  });
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

async function htmlUrl(fields: Record<string, unknown>): Promise<string> {
  const res = await createPush(h.push.url, fields, h.token);
  if (res.status !== 201) throw new Error(`create failed: ${res.status}`);
  return (res.body as { html_url: string }).html_url;
}

async function viewsRemaining(url: string): Promise<number> {
  const t = /\/p\/([\w-]+)/.exec(url)![1]!;
  const res = await fetch(`${h.push.url}/api/v2/pushes/active`, {
    headers: { Authorization: `Bearer ${h.token}` },
  });
  const list = (await res.json()) as { url_token: string; views_remaining: number }[];
  return list.find((p) => p.url_token === t)?.views_remaining ?? 0;
}

afterEach(() => {
  expect(cspViolations).toEqual([]);
});

describe('recipient pages in Chromium', () => {
  it('retrieval step: click to reveal, copy, delete; the link is gone afterwards', async () => {
    const url = await htmlUrl({ payload: 'correct horse battery staple', expire_after_views: 3 });
    expect(url).toMatch(/\/r$/);
    const page = await newPage();
    await page.goto(url);
    await expect(page.title()).resolves.toContain('A secret was shared with you');
    await expect(page.locator('h1').textContent()).resolves.toBe('Someone shared a secret with you');
    await shot(page, '01-retrieval-step');
    expect(await viewsRemaining(url)).toBe(3);

    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    await page.waitForURL(/\/p\/[\w-]+$/);
    await expect(page.locator('#secret').textContent()).resolves.toBe('correct horse battery staple');
    await shot(page, '02-revealed');
    expect(await viewsRemaining(url)).toBe(2);

    const copy = page.getByRole('button', { name: 'Copy to clipboard' });
    await copy.click();
    await page.locator('button[data-copied="true"]').waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toBe('Copied to the clipboard.');
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(
      'correct horse battery staple',
    );
    await shot(page, '03-copied');

    await page.getByRole('button', { name: 'Delete this secret now' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('The secret has been deleted');
    await shot(page, '04-deleted');

    const again = await page.goto(url);
    expect(again?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe(
      'This secret link has expired or does not exist',
    );
    await shot(page, '05-expired-or-unknown');
    await page.close();
  }, 60_000);

  it('passphrase: a wrong one is told, the right one reveals, a second open shows the expired page', async () => {
    const url = await htmlUrl({
      payload: 'behind the passphrase',
      passphrase: 'open sesame',
      expire_after_views: 1,
    });
    const page = await newPage();
    await page.goto(url);
    const field = page.getByLabel('Passphrase');
    await expect(page.evaluate<string>('document.activeElement.id')).resolves.toBe('passphrase');
    await shot(page, '06-passphrase');

    await field.fill('not it');
    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'That passphrase is incorrect. Please try again.',
    );
    await shot(page, '07-wrong-passphrase');
    expect(await viewsRemaining(url)).toBe(1);

    await page.getByLabel('Passphrase').fill('open sesame');
    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    await expect(page.locator('#secret').textContent()).resolves.toBe('behind the passphrase');
    await expect(page.getByText('That was the last view').count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Delete this secret now' }).count()).resolves.toBe(0);
    await shot(page, '08-revealed-last-view');

    const second = await newPage();
    const res = await second.goto(url);
    expect(res?.status()).toBe(404);
    await expect(second.locator('h1').textContent()).resolves.toBe(
      'This secret link has expired or does not exist',
    );
    await page.close();
    await second.close();
  }, 60_000);

  it('passphrase: too many attempts shows the wait', async () => {
    const url = await htmlUrl({ payload: 'x', passphrase: 'open sesame' });
    const page = await newPage();
    await page.goto(url);
    for (let i = 0; i < 6; i++) {
      await page.getByLabel('Passphrase').fill(`guess ${i}`);
      await page.getByRole('button', { name: 'Reveal the secret' }).click();
      await page.getByRole('alert').waitFor();
    }
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /^Too many passphrase attempts\. Please wait \d+ seconds? and try again\.$/,
    );
    await shot(page, '09-too-many-attempts');
    await page.close();
  }, 60_000);

  it('without a retrieval step the page reveals by itself; going back does not spend another view', async () => {
    const url = await htmlUrl({ payload: 'revealed on load', retrieval_step: false, expire_after_views: 5 });
    expect(url).not.toMatch(/\/r$/);
    const page = await newPage();
    await page.goto(url);
    await page.locator('#secret').waitFor();
    await expect(page.locator('#secret').textContent()).resolves.toBe('revealed on load');
    await shot(page, '10-auto-revealed');
    expect(await viewsRemaining(url)).toBe(4);

    // The automatic submit replaces the landing page in the history; going back, and coming
    // forward again, never submits it a second time.
    await page.goBack();
    await page.waitForTimeout(500);
    expect(await viewsRemaining(url)).toBe(4);
    await page.goForward().catch(() => undefined);
    await page.waitForTimeout(500);
    expect(await viewsRemaining(url)).toBe(4);
    await page.close();
  }, 60_000);

  it('works without JavaScript: no auto-reveal, the button reveals, no copy button', async () => {
    const url = await htmlUrl({ payload: 'plain form', retrieval_step: false, expire_after_views: 5 });
    const page = await newPage();
    let blocked = 0;
    await page.route('**/static/pages.js', async (route) => {
      blocked += 1;
      await route.abort();
    });
    await page.goto(url);
    await expect(page.locator('h1').textContent()).resolves.toBe('Someone shared a secret with you');
    expect(await viewsRemaining(url)).toBe(5);
    await shot(page, '13-no-javascript');
    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    await expect(page.locator('#secret').textContent()).resolves.toBe('plain form');
    await expect(page.getByRole('button', { name: 'Copy to clipboard' }).count()).resolves.toBe(0);
    expect(blocked).toBe(2);
    expect(await viewsRemaining(url)).toBe(4);
    await page.close();
  }, 60_000);

  it('the create form: keyboard only, without JavaScript; the link it shows opens the secret', async () => {
    const page = await newPage();
    let blocked = 0;
    await page.route('**/static/pages.js', async (route) => {
      blocked += 1;
      await route.abort();
    });
    await page.goto(`${h.push.url}/`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Share a secret');
    await shot(page, '20-create-form');
    // Every field is reached by its label; the form is filled and sent from the keyboard.
    await page.getByLabel('Secret', { exact: true }).fill('made in the form');
    await page.getByLabel('2 views', { exact: true }).check();
    await page.getByText('More options').click();
    await page.getByLabel('Click to reveal').uncheck();
    await page.getByLabel('Passphrase (optional)').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your secret link' }).waitFor();
    await shot(page, '21-created');
    const link = await page.locator('#link').inputValue();
    expect(link).toMatch(/\/p\/[\w-]{22}$/);
    await expect(
      page.getByRole('img', { name: 'QR code of the link — not the secret' }).isVisible(),
    ).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Copy the link' }).isVisible()).resolves.toBe(false);
    expect(blocked).toBe(2);

    // With JavaScript the link can be copied; the recipient's page reveals it.
    const withJs = await newPage();
    await withJs.goto(`${h.push.url}/`);
    await withJs.getByLabel('Secret', { exact: true }).fill('second one');
    await withJs.getByRole('button', { name: 'Create the secret link' }).click();
    await withJs.getByRole('heading', { name: 'Your secret link' }).waitFor();
    await withJs.getByRole('button', { name: 'Copy the link' }).click();
    const copied = await withJs.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toMatch(/\/p\/[\w-]{22}\/r$/);
    await withJs.goto(link);
    await expect(withJs.locator('#secret').textContent()).resolves.toBe('made in the form');
    await expect(withJs.locator('main').textContent()).resolves.toMatch(/opened 1 more\s+time/); // of 2 views
    await page.close();
    await withJs.close();
  }, 60_000);

  it('the create form: a form error flags the passphrase; reloading the created page creates nothing', async () => {
    const page = await newPage();
    const pushCount = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from push`.execute(h.push.db)).rows[0]!.n);
    await page.goto(`${h.push.url}/`);
    await page.getByLabel('Secret', { exact: true }).fill('guarded by a passphrase');
    await page.getByLabel('Passphrase (optional)').fill('tulip');
    // Past the instance's bound: the browser lets it through once the field's own limits are off.
    await page.getByLabel('Custom').first().check();
    await page.locator('#expire_after_days').evaluate((el) => el.removeAttribute('max'));
    await page.getByLabel('Number of days').fill('365');
    await page.getByRole('button', { name: 'Create the secret link' }).click();
    await page.getByRole('heading', { name: /Please correct these/ }).waitFor();
    await expect(page.locator('#passphrase-error').textContent()).resolves.toContain(
      'Enter the passphrase again',
    );
    await expect(page.locator('#passphrase').inputValue()).resolves.toBe('');
    await expect(page.locator('#payload').inputValue()).resolves.toBe('guarded by a passphrase');
    await shot(page, '22-create-form-passphrase-again');

    // The days fixed, the passphrase not typed: the browser holds the form (the field is required).
    const before = await pushCount();
    await page.getByLabel('Number of days').fill('3');
    await page.getByRole('button', { name: 'Create the secret link' }).click();
    await expect(
      // (no DOM types in this project: the element is read as the input it is)
      page
        .locator('#passphrase')
        .evaluate((el) => (el as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing),
    ).resolves.toBe(true);
    expect(await pushCount()).toBe(before);
    await page.getByLabel('Passphrase').fill('tulip');
    await page.getByRole('button', { name: 'Create the secret link' }).click();
    await page.getByRole('heading', { name: 'Your secret link' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/created');
    const link = await page.locator('#link').inputValue();
    await expect(page.locator('main').textContent()).resolves.toContain('also needs the passphrase');
    expect(await pushCount()).toBe(before + 1);

    // Reloading the created page (twice) shows the same link and creates nothing.
    for (let i = 0; i < 2; i++) {
      await page.reload();
      await page.getByRole('heading', { name: 'Your secret link' }).waitFor();
      await expect(page.locator('#link').inputValue()).resolves.toBe(link);
    }
    expect(await pushCount()).toBe(before + 1);
    await page.close();
  }, 60_000);

  it('reloading the revealed page (the reveal form sent again) spends no other view', async () => {
    const t = (await createPush(h.push.url, { payload: 'reloaded', expire_after_views: 3 })).body
      .url_token as string;
    const page = await newPage();
    await page.goto(`${h.push.url}/p/${t}/r`);
    await page.getByRole('button', { name: /Reveal|Show/ }).click();
    await expect(page.locator('#secret').textContent()).resolves.toBe('reloaded');
    page.on('dialog', (d) => void d.accept());
    for (let i = 0; i < 2; i++) {
      await page.reload(); // Chromium resends the POST
      await expect(page.locator('#secret').textContent()).resolves.toBe('reloaded');
    }
    const res = await request(h.push.url).get(`/api/v2/pushes/${t}`);
    expect(res.body.views_remaining).toBe(1); // the page's one reveal and this GET
    await page.close();
  }, 60_000);

  it('a URL push lands on its target after the reveal', async () => {
    const url = await htmlUrl({ kind: 'url', payload: landingUrl, retrieval_step: true });
    const page = await newPage();
    await page.goto(url);
    await expect(page.getByRole('button', { name: 'Open the link' }).isVisible()).resolves.toBe(true);
    await shot(page, '11-url-push');
    await page.getByRole('button', { name: 'Open the link' }).click();
    await page.waitForURL(landingUrl);
    await expect(page.locator('h1').textContent()).resolves.toBe('You arrived at the shared link');
    const referrer = await page.evaluate<string>('document.referrer');
    expect(referrer).toBe('');
    await page.close();
  }, 60_000);

  it('a QR push shows the QR image rendered on the server', async () => {
    const url = await htmlUrl({ kind: 'qr', payload: 'WIFI:T:WPA;S:office;P:hunter2;;' });
    const page = await newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Show the QR code' }).click();
    const qr = page.getByRole('img', { name: 'QR code' });
    await qr.waitFor();
    const box = await qr.boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    await shot(page, '12-qr');
    await page.close();
  }, 60_000);

  it('a file push lists its files after the reveal, and each downloads intact', async () => {
    const files = [
      { name: 'report.pdf', data: randomBytes(200_000), type: 'application/pdf' },
      { name: 'notes été.txt', data: Buffer.from('meeting notes\n'), type: 'text/plain' },
    ];
    const req = request(h.push.url).post('/api/v2/pushes').set(bearer(h.token));
    void req.field('push[expire_after_views]', '2');
    for (const f of files) {
      void req.attach('push[files][]', f.data, { filename: f.name, contentType: f.type });
    }
    const created = await req;
    expect(created.status).toBe(201);
    const page = await newPage();
    await page.goto((created.body as { html_url: string }).html_url);
    await page.getByRole('button', { name: 'Show the files' }).click();
    await page.getByRole('heading', { name: 'Files', exact: true }).waitFor();
    await shot(page, '14-files');
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    for (const f of files) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: f.name }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(f.name);
      expect(sha(await readFile(await download.path()))).toBe(sha(f.data));
    }
    await page.close();
  }, 60_000);
});
