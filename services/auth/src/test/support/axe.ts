// A copy of services/push/src/test/support/axe.ts (a service's tests do not import the other's test support).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/**
 * axe-core (the accessibility engine of browsers' audit tools) in a Chromium page: the serious and
 * critical violations of WCAG 2.1 A/AA and axe's best practices. Pages' CSP allows no injected
 * script, so the browser context that uses this must bypass CSP (`bypassCSP: true`); the other
 * browser tests keep it on.
 */
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** The serious and critical violations on the page as it is now. */
export async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  // A string, evaluated in the page (test files have no DOM types).
  const result = await page.evaluate<{ violations: Violation[] }>(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(TAGS)} } })`,
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Checks the page in both colour schemes (the pages have a dark palette). */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect({ page: name, colorScheme, violations: await violations(page) }).toEqual({
      page: name,
      colorScheme,
      violations: [],
    });
  }
}
