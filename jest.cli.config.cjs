// The CLI suite: the built `secret-push` binary as a child process (packages/cli/src/main.e2e.ts:
// login, push and get; a 100 MiB file with the client's RSS growth measured) and the packed
// tarballs installed into an empty directory (pack.e2e.ts). Files end in `.e2e.ts`, so the main run
// (jest.config.cjs) never picks them up; run in band after it (scripts/test.sh, capped at 4 min),
// where no other test competes for the machine while the child's memory is measured:
//   pnpm test:cli
const { base, globalSetup } = require('./jest.base.cjs');

module.exports = {
  ...base,
  roots: ['<rootDir>/packages'],
  testMatch: ['**/src/**/*.e2e.ts'],
  globalSetup,
  testTimeout: 120000,
  maxWorkers: 1,
};
