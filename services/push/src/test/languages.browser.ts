import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { violations } from './support/axe';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from './support/chromium';
import { createPush } from './support/helpers';

/*
 * Languages in a real browser (issue 30), in Chromium: a German browser (`locale: 'de-DE'`) gets
 * German pages; the header's selector switches to French with a real change of the select (JS on)
 * and with its button (JS off); the choice is remembered across a reload and a new page, and beats
 * the browser's language; the same on the auth service's login page. axe clean (no serious or
 * critical violation) in German at 390 px on the create form, the recipient's open and revealed
 * pages, /pushes and the login page; in the pseudo-locale `en-XA` (longer text) no page at 390 px
 * is wider than the screen. Screenshots in test-artifacts/screenshots/ (`lang-…`).
 */
const SHOTS = path.resolve(__dirname, '../../../../test-artifacts/screenshots');
const WAIT = { timeout: 10_000 };

let stack: TestWebStack;
let push: TestPush;
let browser: Browser;

beforeAll(async () => {
  requireChromium();
  await mkdir(SHOTS, { recursive: true });
  stack = await startWebStack();
  ({ push } = stack);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

const langOf = (page: Page) => page.locator('html').getAttribute('lang');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `lang-${name}.png`), fullPage: true });

/** A revealable push's link. */
async function pushLink(): Promise<string> {
  const created = await createPush(push.url, {
    payload: 'languages',
    retrieval_step: true,
    expire_after_views: 3,
  });
  return (created.body as { html_url: string }).html_url;
}

/** Submits the auth service's login form with the test user (labels in whatever language). */
async function signIn(page: Page): Promise<void> {
  await page.locator('input[name="email"]').fill(stack.user.email);
  await page.locator('input[name="password"]').fill(stack.user.password);
  await page.locator('form[action$="/login"] button[type="submit"]').click();
}

test('a German browser gets German pages; the selector switches to French (JS on) and remembers it', async () => {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await newPage(context);
  await page.goto(`${push.url}/`);
  await expect(langOf(page)).resolves.toBe('de');
  await shot(page, 'create-de');

  // A real change of the header's select: the script submits the form, the page comes back in French.
  const select = page.locator('header.site select[data-lang-select]');
  await expect(page.locator('header.site [data-lang-submit]').isHidden()).resolves.toBe(true);
  await Promise.all([page.waitForURL(`${push.url}/`), select.selectOption('fr')]);
  await page.waitForFunction(`document.documentElement.lang === 'fr'`, undefined, WAIT);
  await expect(page.locator('header.site select[data-lang-select]').inputValue()).resolves.toBe('fr');

  // Remembered: a reload, another page, a new tab; over the browser's German.
  await page.reload();
  await expect(langOf(page)).resolves.toBe('fr');
  await page.goto(`${push.url}/about`);
  await expect(langOf(page)).resolves.toBe('fr');
  const other = await newPage(context);
  await other.goto(`${push.url}/`);
  await expect(langOf(other)).resolves.toBe('fr');
  await shot(other, 'create-fr-chosen');

  await context.close();
}, 60_000);

test('the selector without JavaScript: its button switches, and the choice is remembered', async () => {
  const context = await browser.newContext({ locale: 'de-DE', javaScriptEnabled: false });
  const page = await newPage(context);
  await page.goto(`${push.url}/`);
  await expect(langOf(page)).resolves.toBe('de');
  const form = page.locator('header.site form.lang-form');
  await expect(form.locator('[data-lang-submit]').isVisible()).resolves.toBe(true);
  await form.locator('select').selectOption('fr');
  await expect(langOf(page)).resolves.toBe('de'); // nothing happens without the button
  await Promise.all([page.waitForURL(`${push.url}/`), form.locator('[data-lang-submit]').click()]);
  await expect(langOf(page)).resolves.toBe('fr');
  await page.reload();
  await expect(langOf(page)).resolves.toBe('fr');
  await context.close();
}, 60_000);

test('the auth service’s login page: German for a German browser, its selector switches to French', async () => {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await newPage(context);
  await page.goto(`${push.url}/sign-in`);
  await page.locator('input[name="email"]').waitFor(WAIT);
  expect(page.url().startsWith(stack.auth.issuer)).toBe(true);
  await expect(langOf(page)).resolves.toBe('de');
  const select = page.locator('header.site select[data-lang-select]');
  await select.selectOption('fr');
  await page.waitForFunction(`document.documentElement.lang === 'fr'`, undefined, WAIT);
  await page.locator('input[name="email"]').waitFor(WAIT);
  await page.reload();
  await expect(langOf(page)).resolves.toBe('fr');
  await shot(page, 'login-fr-chosen');
  await context.close();
}, 60_000);

/** The pages of the checks below, as a German (or any) browser reaches them; `visit` leaves the page on it. */
async function eachPage(page: Page, check: (name: string) => Promise<void>): Promise<void> {
  await page.goto(`${push.url}/`);
  await check('create form');
  const link = await pushLink();
  await page.goto(link);
  await check('recipient open');
  await page.locator('main form button[type="submit"]').first().click();
  await page.locator('#secret').waitFor(WAIT);
  await check('recipient revealed');
  await page.goto(`${push.url}/sign-in`);
  await page.locator('input[name="email"]').waitFor(WAIT);
  await check('login');
  await signIn(page);
  await page.waitForURL(`${push.url}/**`);
  await page.goto(`${push.url}/pushes`);
  await check('pushes');
}

test('axe in German at 390 px: the create form, the recipient pages, /pushes, the login page', async () => {
  const context = await browser.newContext({
    locale: 'de-DE',
    bypassCSP: true,
    viewport: { width: 390, height: 844 },
  });
  const page = await newPage(context);
  const found: { page: string; lang: string | null; violations: string[] }[] = [];
  await eachPage(page, async (name) => {
    found.push({ page: name, lang: await langOf(page), violations: await violations(page) });
    await shot(page, `axe-de-390-${name.replaceAll(' ', '-')}`);
  });
  expect(found).toEqual(found.map((f) => ({ ...f, lang: 'de', violations: [] })));
  await context.close();
}, 240_000);

test('en-XA at 390 px: lengthened text makes no page wider than the screen', async () => {
  const context = await browser.newContext({
    locale: 'en-XA',
    extraHTTPHeaders: { 'accept-language': 'en-XA' },
    viewport: { width: 390, height: 844 },
  });
  const page = await newPage(context);
  const found: { page: string; lang: string | null; scrollWidth: number; clientWidth: number }[] = [];
  await eachPage(page, async (name) => {
    const [scrollWidth, clientWidth] = await page.evaluate<[number, number]>(
      '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
    );
    found.push({ page: name, lang: await langOf(page), scrollWidth, clientWidth });
    await shot(page, `en-XA-390-${name.replaceAll(' ', '-')}`);
  });
  expect(found.filter((f) => f.lang !== 'en-XA' || f.scrollWidth > f.clientWidth)).toEqual([]);
  await context.close();
}, 90_000);
