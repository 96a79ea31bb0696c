import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { expectAccessible } from './support/axe';
import { launchProfile, requireChromium } from './support/chromium';

/*
 * The owner's pages in Chromium (issue 29, "confirm and tell"): a signed-in person creates a named
 * secret, sees the created page (the link in a labelled field, Copy the link the main action, the QR
 * code labelled as the link's), finds it in /pushes (cards at 390 px: nothing wider than the
 * screen; times relative, converted to the viewer's zone by /static/times.js), expires it after a
 * confirmation page that names it, and is told so. An anonymous sender keeps the private status
 * link shown beside the secret link, follows it (state, never the secret) and expires the secret
 * there, after a confirmation. axe at 1280 and 390 px, light and dark; screenshots.
 */
const SHOTS = path.resolve(__dirname, '../../../../test-artifacts/screenshots');
const WAIT = { timeout: 10_000 };
const SECRET = 'ui-owner secret 5b1e';

let stack: TestWebStack;
let push: TestPush;
let user: { email: string; password: string };
let chrome: Awaited<ReturnType<typeof launchProfile>> | undefined;
let anonymous: Awaited<ReturnType<typeof launchProfile>> | undefined;

beforeAll(async () => {
  requireChromium();
  mkdirSync(SHOTS, { recursive: true });
  stack = await startWebStack();
  ({ push, user } = stack);
  const options = { bypassCSP: true, viewport: { width: 1280, height: 900 } };
  chrome = await launchProfile('ui-owner', options);
  anonymous = await launchProfile('ui-owner-anonymous', options);
  await chrome.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: push.url });
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await anonymous?.close();
  await stack?.stop();
});

/** axe at a desktop and a phone width, light and dark; at 390 px nothing is wider than the screen. */
async function checkAtWidths(page: Page, name: string, shot: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectAccessible(page, `${name}, ${width} px`);
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect({ page: name, width, fits: scrollWidth <= width }).toEqual({ page: name, width, fits: true });
    await page.emulateMedia({ colorScheme: width === 390 ? 'dark' : 'light' });
    await page.screenshot({ path: path.join(SHOTS, `${shot}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

async function createSecret(page: Page, name?: string): Promise<string> {
  await page.goto(`${push.url}/`);
  await page.getByLabel('Secret', { exact: true }).fill(SECRET);
  if (name) {
    await page.getByText('More options').click(); // name and note are under it
    await page.locator('#name').fill(name);
  }
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: 'Your secret link' }).waitFor(WAIT);
  return page.getByLabel('Secret link').inputValue();
}

test('signed in: the created page, /pushes as cards, expire with its confirmation and the message', async () => {
  const page = await (chrome as { context: BrowserContext }).context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${push.url}/sign-in`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.getByText('Signed in as').waitFor(WAIT);

  const link = await createSecret(page, 'Vendor key');
  expect(link).toMatch(new RegExp(`^${push.url}/p/[\\w-]{22}`));
  const copy = page.getByRole('button', { name: 'Copy the link' });
  await expect(copy.getAttribute('class')).resolves.toBeNull(); // the primary, solid button
  await copy.click();
  await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(link);
  await page.getByRole('heading', { name: 'QR code of the link — not the secret' }).waitFor(WAIT);
  await page.getByRole('img', { name: 'QR code of the link — not the secret' }).waitFor(WAIT);
  await expect(page.getByRole('textbox', { name: 'Status link' }).count()).resolves.toBe(0); // no receipt: /pushes instead
  await checkAtWidths(page, 'created page, signed in', '90-owner-created');
  await createSecret(page, 'A second one with a rather long name to wrap on a phone');

  await page.goto(`${push.url}/pushes`);
  await page.getByRole('cell', { name: 'Vendor key', exact: true }).waitFor(WAIT);
  // Times are relative (the form's default, 3 days), their exact time converted by the served script.
  await expect(page.getByText('in 3 days').count()).resolves.toBeGreaterThan(0);
  await expect(page.locator('time[data-local="true"]').count()).resolves.toBeGreaterThan(0);
  await checkAtWidths(page, 'your pushes', '91-owner-pushes');

  // Expire asks first, naming the push; Cancel changes nothing.
  await page.getByRole('link', { name: 'Expire Vendor key' }).click();
  await page.getByRole('heading', { name: 'Expire “Vendor key”?' }).waitFor(WAIT);
  await checkAtWidths(page, 'expire confirmation', '92-owner-expire-confirm');
  await page.getByRole('link', { name: 'Cancel' }).click();
  await page.getByRole('cell', { name: 'Vendor key', exact: true }).waitFor(WAIT);
  await page.getByRole('link', { name: 'Expire Vendor key' }).click();
  await page.getByRole('button', { name: 'Expire “Vendor key”' }).click();
  await page.waitForURL(`${push.url}/pushes`);
  await page.getByRole('status').filter({ hasText: 'Push “Vendor key” expired' }).waitFor(WAIT);
  await expect(page.getByRole('cell', { name: 'Vendor key', exact: true }).count()).resolves.toBe(0);
  await checkAtWidths(page, 'your pushes, after expire', '93-owner-expired');
  // The recipient's link no longer opens it.
  const recipient = await (anonymous as { context: BrowserContext }).context.newPage();
  await recipient.goto(link);
  await expect(recipient.getByText(SECRET).count()).resolves.toBe(0);
  await recipient.close();
  await page.close();
}, 90_000);

test('anonymous: the private status link beside the secret link, its state, expire there', async () => {
  const page = await (anonymous as { context: BrowserContext }).context.newPage();
  page.setDefaultTimeout(10_000);
  const link = await createSecret(page);
  const receipt = await page.getByRole('textbox', { name: 'Status link' }).inputValue();
  expect(receipt).toMatch(new RegExp(`^${push.url}/receipt/[\\w-]{22}$`));
  await checkAtWidths(page, 'created page, anonymous', '94-owner-created-anonymous');

  await page.goto(receipt);
  await page.getByRole('heading', { name: 'Your secret’s status' }).waitFor(WAIT);
  await expect(page.locator('#receipt-state').textContent()).resolves.toContain('Active');
  await expect(page.content()).resolves.not.toContain(SECRET);
  await checkAtWidths(page, 'receipt, active', '95-owner-receipt');

  await page.getByRole('link', { name: 'Expire now' }).click();
  await page.getByRole('heading', { name: 'Expire this secret?' }).waitFor(WAIT);
  await checkAtWidths(page, 'receipt, expire confirmation', '96-owner-receipt-confirm');
  await page.getByRole('button', { name: 'Expire this secret' }).click();
  await page.getByRole('status').filter({ hasText: 'The secret expired' }).waitFor(WAIT);
  await expect(page.locator('#receipt-state').textContent()).resolves.toContain('Expired');
  await checkAtWidths(page, 'receipt, expired', '97-owner-receipt-expired');

  await page.goto(link);
  await expect(page.getByText(SECRET).count()).resolves.toBe(0);
  await page.close();
}, 90_000);
