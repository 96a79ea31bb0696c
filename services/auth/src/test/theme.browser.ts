import type { Page } from 'playwright-core';
import { type TestAuth, startAuth } from '../testing';
import { expectAccessible } from './support/axe';
import { launchProfile, requireChromium } from './support/chromium';

/*
 * The theme button on the sign-in service's pages (issue 28): `/static/theme.js`, served by this
 * service under its own CSP (`script-src 'self'`, not bypassed here), shows the footer's button,
 * which cycles system → light → dark and remembers the choice in this origin's localStorage, across
 * a reload. axe (in a context that bypasses CSP to load it) stays clean with the button shown and
 * the dark theme chosen by it.
 */
let auth: TestAuth;

beforeAll(async () => {
  requireChromium();
  auth = await startAuth();
}, 60_000);

afterAll(async () => {
  await auth?.stop();
});

const BACKGROUND = 'getComputedStyle(document.body).backgroundColor';

/** The login page (the account page asks to sign in first). */
async function openLogin(page: Page): Promise<void> {
  await page.goto(`${auth.issuer}/account`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

test('the login page: the theme button works under the CSP and the choice survives a reload', async () => {
  const chrome = await launchProfile('auth-theme', {
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
  });
  try {
    const page = await chrome.context.newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    await openLogin(page);
    const toggle = page.getByRole('button', { name: /^Theme:/ });
    await expect(toggle.isVisible()).resolves.toBe(true);
    await expect(toggle.textContent()).resolves.toBe('Theme: system');
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe(null);
    await expect(page.evaluate(BACKGROUND)).resolves.toBe('rgb(255, 255, 255)');

    await toggle.click();
    await expect(toggle.textContent()).resolves.toBe('Theme: light');
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('light');
    await toggle.click();
    await expect(toggle.textContent()).resolves.toBe('Theme: dark');
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
    await expect(page.evaluate(BACKGROUND)).resolves.toBe('rgb(18, 18, 18)');

    // Remembered: the reloaded page (a new interaction) is drawn dark at once, on a light system.
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
    await expect(page.evaluate(BACKGROUND)).resolves.toBe('rgb(18, 18, 18)');
    await expect(page.getByRole('button', { name: /^Theme:/ }).textContent()).resolves.toBe('Theme: dark');

    // Back to the system's theme: the choice is forgotten, also after a reload.
    await page.getByRole('button', { name: /^Theme:/ }).click();
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe(null);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe(null);
    await expect(page.getByRole('button', { name: /^Theme:/ }).textContent()).resolves.toBe('Theme: system');
    expect(refused).toEqual([]);
  } finally {
    await chrome.close();
  }
}, 60_000);

test('without JavaScript the button stays hidden and the page follows the system', async () => {
  const chrome = await launchProfile('auth-theme-nojs', { javaScriptEnabled: false, colorScheme: 'dark' });
  try {
    const page = await chrome.context.newPage();
    await openLogin(page);
    await expect(page.getByRole('button', { name: /^Theme:/ }).count()).resolves.toBe(0);
    await expect(page.locator('[data-theme-toggle]').isHidden()).resolves.toBe(true);
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe(null);
    await expect(
      page
        .locator('body')
        .evaluate(
          (b) =>
            (
              globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
            ).getComputedStyle(b).backgroundColor,
        ),
    ).resolves.toBe('rgb(18, 18, 18)');
  } finally {
    await chrome.close();
  }
}, 60_000);

test('axe stays clean with the button shown and the dark theme chosen', async () => {
  const chrome = await launchProfile('auth-theme-axe', {
    bypassCSP: true,
    viewport: { width: 1280, height: 800 },
  });
  try {
    const page = await chrome.context.newPage();
    await openLogin(page);
    await expectAccessible(page, 'login, theme: system');
    await page.emulateMedia({ colorScheme: 'light' });
    const toggle = page.getByRole('button', { name: /^Theme:/ });
    await toggle.click();
    await toggle.click();
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
    await expectAccessible(page, 'login, theme: dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'login, theme: dark at 390 px');
  } finally {
    await chrome.close();
  }
}, 60_000);
