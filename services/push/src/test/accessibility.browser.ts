import { type BrowserContext } from 'playwright-core';
import { type LocalS3, startS3 } from '@secret-push/testing';
import { expectAccessible } from './support/axe';
import { launchProfile, requireChromium } from './support/chromium';
import { type Harness, createPush, harness } from './support/helpers';

/**
 * axe-core (the accessibility engine of browsers' audit tools) on every page of the web app and
 * the recipient pages, in Chromium, in each state a person sees: none may have a serious or
 * critical violation of WCAG 2.1 A/AA or axe's best practices. The pages' CSP allows no injected
 * script, so this context bypasses CSP to load axe (the other browser tests keep it on).
 */

let h: Harness;
let s3: LocalS3;
let context: BrowserContext;
let chrome: Awaited<ReturnType<typeof launchProfile>> | undefined;

beforeAll(async () => {
  requireChromium();
  s3 = await startS3();
  h = await harness({ env: s3.env });
  chrome = await launchProfile('axe', {
    bypassCSP: true,
  });
  context = chrome.context;
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await h?.stop();
  await s3?.close();
});

async function htmlUrl(fields: Record<string, unknown>): Promise<string> {
  const res = await createPush(h.push.url, fields, h.token);
  if (res.status !== 201) throw new Error(`create failed: ${res.status}`);
  return (res.body as { html_url: string }).html_url;
}

test('the create form, its problems and the created link', async () => {
  const page = await context.newPage();
  await page.goto(`${h.push.url}/`);
  await expectAccessible(page, 'create form');
  await page.getByLabel('Secret', { exact: true }).fill('x');
  await page.locator('#views-custom').check();
  await page.getByLabel('Number of views').fill('0');
  // The browser's own validation would stop the submit: send the form as typed.
  await page.evaluate('document.querySelector("form.create").noValidate = true');
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: /Please correct/ }).waitFor();
  await expectAccessible(page, 'create form with a problem');
  await page.getByLabel('Number of views').fill('2');
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: 'Your secret link' }).waitFor();
  await expectAccessible(page, 'created link');
  await page.close();
}, 60_000);

test('the recipient pages: open, passphrase problem, revealed text and QR, deleted, gone', async () => {
  const page = await context.newPage();
  const text = await htmlUrl({ payload: 'axe', retrieval_step: true, deletable_by_viewer: true });
  await page.goto(text);
  await expectAccessible(page, 'open');
  await page.getByRole('button', { name: 'Reveal the secret' }).click();
  await page.locator('#secret').waitFor();
  await expectAccessible(page, 'revealed text');
  await page.getByRole('button', { name: 'Delete this secret now' }).click();
  await page.getByRole('heading', { name: 'The secret has been deleted' }).waitFor();
  await expectAccessible(page, 'deleted');
  await page.goto(text);
  await expectAccessible(page, 'gone');

  const locked = await htmlUrl({ payload: 'axe', passphrase: 'right one', retrieval_step: true });
  await page.goto(locked);
  await page.getByLabel('Passphrase').fill('wrong one');
  await page.getByRole('button', { name: 'Reveal the secret' }).click();
  await page.getByRole('alert').waitFor();
  await expectAccessible(page, 'wrong passphrase');

  const qr = await htmlUrl({ kind: 'qr', payload: 'WIFI:T:WPA;S:office;P:pw;;', retrieval_step: true });
  await page.goto(qr);
  await page.getByRole('button', { name: 'Show the QR code' }).click();
  await page.getByRole('img', { name: 'QR code' }).waitFor();
  await expectAccessible(page, 'revealed QR');
  await page.close();
}, 60_000);
