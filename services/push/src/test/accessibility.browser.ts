import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { violations } from './support/axe';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from './support/chromium';
import { createPush } from './support/helpers';

/**
 * The axe matrix (issue 29): axe-core on every page of the web app, the recipient pages and the
 * sign-in service's pages, in Chromium, at 1280 and 390 px wide, light and dark: none may have a
 * serious or critical violation of WCAG 2.1 A/AA or axe's best practices. Each page is also saved
 * as a screenshot in test-artifacts/screenshots/ (`axe-<page>-<width>-<scheme>.png`). One stack
 * and one browser, with the operator's branding set (BRAND_*: another accent colour, a notice,
 * footer links, unbranded recipient pages), so that the branded look is what is checked. The
 * pages' CSP allows no injected script, so these contexts bypass CSP to load axe.
 */
const SHOTS = path.resolve(__dirname, '../../../../test-artifacts/screenshots');
const WAIT = { timeout: 10_000 };
const BRAND = {
  BRAND_NAME: 'Acme Vault',
  BRAND_TAGLINE: 'Secrets for the Acme team',
  BRAND_ACCENT_COLOR: '#7a1fa2',
  BRAND_PRIVACY_URL: 'https://acme.example/privacy',
  BRAND_CONTACT_URL: 'mailto:it@acme.example',
  BRAND_NOTICE: 'For Acme staff only.',
  BRAND_UNBRANDED_RECIPIENT_PAGES: 'true',
};

let stack: TestWebStack;
let push: TestPush;
let browser: Browser;

beforeAll(async () => {
  requireChromium();
  await mkdir(SHOTS, { recursive: true });
  stack = await startWebStack({ files: true, pushEnv: BRAND, authEnv: BRAND });
  ({ push } = stack);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** axe at both widths in both schemes, with a screenshot of each; the page is left at 1280 px, light. */
async function check(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const shot = path.join(SHOTS, `axe-${name.replaceAll(' ', '-')}-${width}-${colorScheme}.png`);
      await page.screenshot({ path: shot, fullPage: true });
      expect({ page: name, width, colorScheme, violations: await violations(page) }).toEqual({
        page: name,
        width,
        colorScheme,
        violations: [],
      });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

const heading = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { name, level: 1 }).waitFor(WAIT);

test('anonymous: the create form, the created link, the recipient pages, the about page', async () => {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await newPage(context);
  await page.goto(`${push.url}/`);
  await check(page, 'create form');
  await page.getByLabel('Secret', { exact: true }).fill('x');
  await page.locator('#views-custom').check();
  await page.getByLabel('Number of views').fill('0');
  // The browser's own validation would stop the submit: send the form as typed.
  await page.evaluate('document.querySelector("form.create").noValidate = true');
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await page.getByRole('heading', { name: /Please correct/ }).waitFor(WAIT);
  await check(page, 'create form with a problem');
  await page.getByLabel('Number of views').fill('2');
  await page.getByRole('button', { name: 'Create the secret link' }).click();
  await heading(page, 'Your secret link');
  await check(page, 'created link');

  await page.goto(`${push.url}/about`);
  await heading(page, 'How Acme Vault works');
  await check(page, 'about');

  const created = await createPush(push.url, {
    payload: 'axe',
    retrieval_step: true,
    deletable_by_viewer: true,
    expire_after_views: 2,
  });
  const link = (created.body as { html_url: string }).html_url;
  await page.goto(link);
  await heading(page, /shared a secret with you/);
  await check(page, 'recipient open');
  await page.getByRole('button', { name: 'Reveal the secret' }).click();
  await page.locator('#secret').waitFor(WAIT);
  await check(page, 'recipient revealed');
  await page.getByRole('button', { name: 'Delete this secret now' }).click();
  await heading(page, 'The secret has been deleted');
  await check(page, 'recipient deleted');
  await page.goto(link);
  await heading(page, /expired or does not exist/);
  await check(page, 'recipient gone');

  const locked = await createPush(push.url, {
    payload: 'axe',
    passphrase: 'right one',
    retrieval_step: true,
  });
  await page.goto((locked.body as { html_url: string }).html_url);
  await page.getByLabel('Passphrase').fill('wrong one');
  await page.getByRole('button', { name: 'Reveal the secret' }).click();
  await page.getByRole('alert').waitFor(WAIT);
  await check(page, 'recipient wrong passphrase');

  const qr = await createPush(push.url, {
    kind: 'qr',
    payload: 'WIFI:T:WPA;S:office;P:pw;;',
    retrieval_step: true,
  });
  await page.goto((qr.body as { html_url: string }).html_url);
  await page.getByRole('button', { name: 'Show the QR code' }).click();
  await page.getByRole('img', { name: 'QR code' }).waitFor(WAIT);
  await check(page, 'recipient revealed QR');
  await context.close();
}, 120_000);

test('signed in: the sign-in pages, the owner pages, the request pages and the responder', async () => {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await newPage(context);
  await page.goto(`${push.url}/sign-in`);
  await page.getByLabel('Email').waitFor(WAIT);
  await check(page, 'sign-in login');
  await page.getByLabel('Email').fill(stack.user.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.getByRole('alert').waitFor(WAIT);
  await check(page, 'sign-in login wrong password');
  await page.getByLabel('Password').fill(stack.user.password);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.getByText('Signed in as').waitFor(WAIT);
  await check(page, 'create form signed in');

  for (const [url, title, name] of [
    ['/pushes', /pushes/i, 'pushes'],
    ['/users/token', /token/i, 'api tokens'],
    ['/users/webhooks', /webhook/i, 'webhooks'],
    ['/account', /account/i, 'account'],
    ['/requests/new', 'Request a secret', 'request form'],
  ] as const) {
    await page.goto(`${push.url}${url}`);
    await heading(page, title);
    await check(page, name);
  }

  await expect(page.locator('header.site a[aria-current="page"]').textContent()).resolves.toBe(
    'Request a secret',
  );

  // On a phone the header is compact: the name, then the navigation in one row that scrolls sideways.
  await page.setViewportSize({ width: 390, height: 900 });
  const nav = page.locator('header.site nav');
  expect((await nav.locator('a').first().boundingBox())!.x).toBeGreaterThanOrEqual(0);
  expect((await page.locator('body > header.site').boundingBox())!.height).toBeLessThan(160);
  await page.getByRole('button', { name: 'Sign out' }).scrollIntoViewIfNeeded();
  const signOut = (await page.getByRole('button', { name: 'Sign out' }).boundingBox())!;
  expect(signOut.x + signOut.width).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByLabel('Your request').fill('Please send the VPN key');
  await page.getByRole('button', { name: 'Create the request link' }).click();
  await heading(page, 'Your request link');
  await check(page, 'request created');
  const link = await page.locator('#link').inputValue();
  await page.goto(`${push.url}/requests`);
  await heading(page, /requests/i);
  await check(page, 'requests');

  const responder = await browser.newContext({ bypassCSP: true });
  const answer = await newPage(responder);
  await answer.goto(link);
  await heading(answer, 'Someone asks you for a secret');
  await check(answer, 'respond');
  await responder.close();
  await context.close();
}, 120_000);

test('the look: branding, landmarks, the skip link, the theme button remembered, unbranded recipient pages', async () => {
  const context = await browser.newContext();
  const page = await newPage(context);
  await page.goto(`${push.url}/about`);
  await expect(page.title()).resolves.toBe('How it works · Acme Vault');
  // Landmarks side by side: the header and footer are not inside main.
  await expect(page.locator('body > header.site').count()).resolves.toBe(1);
  await expect(page.locator('body > main#main').count()).resolves.toBe(1);
  await expect(page.locator('body > footer.site').count()).resolves.toBe(1);
  await expect(page.locator('main nav, main footer, main header').count()).resolves.toBe(0);
  await expect(page.locator('header.site').textContent()).resolves.toContain('For Acme staff only.');
  const footer = page.locator('footer.site');
  await expect(footer.textContent()).resolves.toContain('Secrets for the Acme team');
  await expect(footer.getByRole('link', { name: 'Privacy' }).getAttribute('href')).resolves.toBe(
    'https://acme.example/privacy',
  );
  await expect(footer.getByRole('link', { name: 'API docs' }).getAttribute('href')).resolves.toBe(
    '/api/v2/docs',
  );
  const css = await page.request.get(`${push.url}/static/brand.css`);
  expect(await css.text()).toContain('--accent: #7a1fa2');
  const logo = await page.request.get(`${push.url}/static/logo`);
  expect(logo.headers()['content-type']).toMatch(/^image\/svg\+xml/);
  expect(await logo.text()).toContain('fill="#7a1fa2"'); // the default logo, in the accent colour

  // The skip link is the first stop and leads past the header into main.
  await page.keyboard.press('Tab');
  await expect(page.evaluate('document.activeElement.textContent')).resolves.toBe('Skip to the content');
  await page.keyboard.press('Enter');
  await expect(page.evaluate('location.hash')).resolves.toBe('#main');

  // The theme button: system → light → dark, remembered across pages without a flash.
  await page.emulateMedia({ colorScheme: 'light' });
  const toggle = page.getByRole('button', { name: /^Theme:/ });
  await expect(toggle.textContent()).resolves.toBe('Theme: system');
  await toggle.click();
  await toggle.click();
  await expect(toggle.textContent()).resolves.toBe('Theme: dark');
  await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
  await page.goto(`${push.url}/`);
  await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
  const background = 'getComputedStyle(document.body).backgroundColor';
  await expect(page.evaluate(background)).resolves.toBe('rgb(18, 18, 18)');
  await page.screenshot({ path: path.join(SHOTS, 'look-theme-dark-on-light-system.png') });
  await page.getByRole('button', { name: /^Theme:/ }).click();
  await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe(null);
  await expect(page.evaluate(background)).resolves.toBe('rgb(255, 255, 255)');

  // Recipient pages: neutral, no logo, tagline, notice or footer links.
  const created = await createPush(push.url, { payload: 'brand', retrieval_step: true });
  await page.goto((created.body as { html_url: string }).html_url);
  await expect(page.title()).resolves.toBe('A secret was shared with you · Secret link');
  await expect(page.locator('img.brand-logo').count()).resolves.toBe(0);
  await expect(page.locator('footer.site a').count()).resolves.toBe(0);
  await expect(page.locator('footer.site').textContent()).resolves.not.toContain('Acme');
  await expect(page.locator('header.site').textContent()).resolves.not.toContain('Acme');

  // The sign-in service: the same frame and brand.
  await page.goto(`${push.url}/sign-in`);
  await page.getByLabel('Email').waitFor(WAIT);
  await expect(page.title()).resolves.toBe('Sign in · Acme Vault');
  await expect(page.locator('body > header.site .brand-name').textContent()).resolves.toBe('Acme Vault');
  await expect(page.locator('img.brand-logo').count()).resolves.toBe(1);
  await context.close();
}, 60_000);
