// The browser suite: Debian's Chromium, headless, driven by playwright-core. The recipient pages
// (services/push/src/test/pages.browser.ts) and the SDK in a page of another origin
// (packages/client/src/sdk.browser.ts). Files end in `.browser.ts`, so the main run (`*.test.ts`,
// jest.config.cjs) never picks them up; run in band after it (scripts/test.sh, capped at 5 min):
//   node --experimental-vm-modules --disable-warning=ExperimentalWarning ./node_modules/jest/bin/jest.js -c jest.browser.config.cjs
const main = require('./jest.config.cjs');

module.exports = {
  testEnvironment: main.testEnvironment,
  roots: ['<rootDir>/packages', '<rootDir>/services'],
  testMatch: ['**/src/**/*.browser.ts'],
  testPathIgnorePatterns: main.testPathIgnorePatterns,
  transform: main.transform,
  moduleNameMapper: main.moduleNameMapper,
  globalSetup: main.globalSetup,
  testTimeout: 60000,
  maxWorkers: 1,
};
