// The browser suite: Debian's Chromium, headless, driven by playwright-core. The web pages
// (services/push/src/test/*.browser.ts), the sign-in service's (services/auth/src/test/*.browser.ts),
// the SDK in a page of another origin (packages/client/src/sdk.browser.ts) and the local mail
// inbox (packages/testing/src/mail-inbox.browser.ts). Files end in `.browser.ts`, so the main run
// (jest.config.cjs) never picks them up; run in band after it (scripts/test.sh, capped at 5 min):
//   pnpm test:browser
const { base, globalSetup } = require('./jest.base.cjs');

module.exports = {
  ...base,
  roots: ['<rootDir>/packages', '<rootDir>/services'],
  testMatch: ['**/src/**/*.browser.ts'],
  globalSetup,
  testTimeout: 60000,
  maxWorkers: 1,
};
