// A copy of services/push/src/test/support/chromium.ts (a service's tests do not import the other's test support).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (scripts/ensure-chromium.sh installs it), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a headless Chromium in a container: no sandbox, no GPU, no first-run or background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];

/** Fails the suite with the way to install Chromium when it is missing. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: bash scripts/ensure-chromium.sh installs it.`);
  }
}

/**
 * A headless Chromium with a profile of its own in a temporary folder (`label` names it), with
 * `options` (e.g. `bypassCSP` to load axe, a viewport); `close()` ends it and removes the profile.
 */
export async function launchProfile(
  label: string,
  options: Parameters<typeof chromium.launchPersistentContext>[1] = {},
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  requireChromium();
  const profile = await mkdtemp(path.join(tmpdir(), `secret-push-${label}-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    ...options,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
