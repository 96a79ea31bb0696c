// The CLI suite: the built `secret-push` binary as a child process (packages/cli/src/main.e2e.ts:
// login, push and get; a 100 MiB file with the client's RSS growth measured) and the packed
// tarballs installed into an empty directory (pack.e2e.ts). Files end in `.e2e.ts`, so the main run
// never picks them up; run in band after it (scripts/test.sh, capped at 4 min), where no other test
// competes for the machine while the child's memory is measured:
//   node --experimental-vm-modules --disable-warning=ExperimentalWarning ./node_modules/jest/bin/jest.js -c jest.cli.config.cjs
const main = require('./jest.config.cjs');

module.exports = {
  testEnvironment: main.testEnvironment,
  roots: ['<rootDir>/packages'],
  testMatch: ['**/src/**/*.e2e.ts'],
  testPathIgnorePatterns: main.testPathIgnorePatterns,
  transform: main.transform,
  moduleNameMapper: main.moduleNameMapper,
  globalSetup: main.globalSetup,
  testTimeout: 120000,
  maxWorkers: 1,
};
