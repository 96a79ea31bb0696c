import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { type TestPush, type TestWebStack, startTestWorker, startWebStack } from '../testing';
import type { WorkerService } from '../worker-server';
import { expectAccessible } from './support/axe';
import { launchProfile, requireChromium } from './support/chromium';
import { type Receiver, startReceiver } from './support/webhook-receiver';

/*
 * The Webhooks pages end to end in Chromium (issue 27): a person signs in, opens Webhooks from the
 * header, is told what is wrong with a bad URL, adds an endpoint and copies its secret (shown
 * once), sends a test event that the worker delivers to a real receiver (which verifies it with
 * that secret), opens the delivery log, replays the delivery, and deletes the endpoint after its
 * confirmation. axe-core checks each page at 1280 and 390 px wide, in both colour schemes, and
 * nothing is wider than a phone's screen. Every wait has its own timeout.
 */
const SHOTS = path.resolve(__dirname, '../../../../test-artifacts/screenshots');
const WAIT = { timeout: 10_000 };

let stack: TestWebStack;
let push: TestPush;
let user: { email: string; password: string };
let worker: WorkerService;
let receiver: Receiver;
let context: BrowserContext;
let chrome: Awaited<ReturnType<typeof launchProfile>> | undefined;

beforeAll(async () => {
  requireChromium();
  stack = await startWebStack({ pushEnv: { PUSH_WEBHOOK_ALLOW_HTTP: 'true' } });
  ({ push, user } = stack);
  worker = await startTestWorker(push, {
    PUSH_WEBHOOK_ALLOW_HTTP: 'true',
    PUSH_WEBHOOK_ALLOWED_DESTINATIONS: '127.0.0.1',
    PUSH_WEBHOOK_INTERVAL_MS: '100',
  });
  receiver = await startReceiver();
  receiver.answer(() => ({ status: 200, body: '<em>received</em>' }));
  chrome = await launchProfile('web-webhooks', { bypassCSP: true, viewport: { width: 1280, height: 900 } });
  context = chrome.context;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: push.url });
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await receiver?.close();
  await worker?.close();
  await stack?.stop();
});

/** axe at a desktop and a phone width (then back to the desktop); no sideways scrolling on the phone. */
async function expectAccessibleAtWidths(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectAccessible(page, `${name}, ${width} px`);
    const wider = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect({ page: name, width, overflow: wider }).toEqual({ page: name, width, overflow: 0 });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Polls until `probe` holds, at most `ms`. */
async function until(probe: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('add an endpoint, copy its secret, send a test event, see it delivered, replay it, delete it', async () => {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${push.url}/sign-in`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.getByText('Signed in as').waitFor(WAIT);

  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor(WAIT);
  await page.getByText('You have no webhook endpoints yet.').waitFor(WAIT);
  await expectAccessibleAtWidths(page, 'webhooks, none yet');

  // A bad URL first: the problem next to the field, the URL kept.
  await page.getByLabel('URL', { exact: true }).fill('ftp://hooks.example/x');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.locator('#url-error').waitFor(WAIT);
  await expect(page.locator('#url-error').textContent()).resolves.toBe('The URL must be http(s).');
  await expect(page.getByLabel('URL', { exact: true }).inputValue()).resolves.toBe('ftp://hooks.example/x');
  await expectAccessibleAtWidths(page, 'webhooks, a bad URL');

  const url = receiver.url('/browser');
  await page.getByLabel('URL', { exact: true }).fill(url);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByRole('heading', { name: 'Endpoint added' }).waitFor(WAIT);
  const secret = await page.getByLabel('Its signing secret').inputValue();
  expect(secret).toMatch(/^whsec_/);
  await page.getByRole('button', { name: 'Copy the secret' }).click();
  await page.getByText('Copied to the clipboard.').waitFor(WAIT);
  await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(secret);
  await expectAccessibleAtWidths(page, 'webhooks, the secret shown');
  await page.screenshot({ path: path.join(SHOTS, '70-webhook-secret.png'), fullPage: true });

  // Shown once: reloading the list (a GET) shows the endpoint, never the secret.
  await page.goto(`${push.url}/users/webhooks`);
  const endpoint = page.getByRole('region', { name: url });
  await endpoint.waitFor(WAIT);
  expect(await page.content()).not.toContain(secret);

  // A test event, delivered by the worker and signed with the copied secret.
  await endpoint.getByRole('button', { name: /Send a test event/ }).click();
  await page.getByText('A test event was queued').waitFor(WAIT);
  await until(() => receiver.received.some((r) => r.path === '/browser'));
  const first = receiver.received.find((r) => r.path === '/browser')!;
  const verified = new Webhook(secret).verify(first.body, first.headers as Record<string, string>);
  expect(verified).toMatchObject({ type: 'webhook.test' });
  await until(async () => {
    await page.reload();
    return (await page.getByText('Delivered', { exact: true }).count()) > 0;
  });
  const row = page.getByRole('row', { name: /webhook\.test/ }).first();
  await expect(row.textContent()).resolves.toMatch(/Delivered\s*1 attempt\s*HTTP 200, \d+ ms/);
  await page.getByText('The receiver’s answer').click();
  await page.getByText('<em>received</em>').waitFor(WAIT); // the receiver's text, escaped
  await expectAccessibleAtWidths(page, 'webhook deliveries');
  await page.screenshot({ path: path.join(SHOTS, '71-webhook-deliveries.png'), fullPage: true });

  // Replay: the same message again.
  await row.getByRole('button', { name: /Replay/ }).click();
  await page.getByText('The delivery was queued again').waitFor(WAIT);
  await until(() => receiver.received.filter((r) => r.path === '/browser').length >= 2);
  const both = receiver.received.filter((r) => r.path === '/browser').map((r) => r.headers['webhook-id']);
  expect(both).toEqual([first.headers['webhook-id'], first.headers['webhook-id']]);
  await expectAccessibleAtWidths(page, 'webhook deliveries, replayed');

  // Delete, confirmed on its own page (which names the endpoint).
  await page.getByRole('link', { name: 'Back to your webhooks' }).click();
  const again = page.getByRole('region', { name: url });
  await again.waitFor(WAIT);
  await expect(again.getByRole('button', { name: /Delete this endpoint/ }).count()).resolves.toBe(0);
  await again.getByRole('link', { name: /^Delete/ }).click();
  await page.getByRole('heading', { name: `Delete the endpoint ${url}?` }).waitFor(WAIT);
  await expectAccessibleAtWidths(page, 'webhooks, delete confirmation');
  await page.getByRole('button', { name: /Delete this endpoint/ }).click();
  await page.getByText('The endpoint was deleted, with its delivery log.').waitFor(WAIT);
  await page.getByText('You have no webhook endpoints yet.').waitFor(WAIT);
  await expectAccessibleAtWidths(page, 'webhooks, deleted');
  await page.close();
}, 120_000);
