// The fault suite (services/push/src/test/faults): a private PostgreSQL, Redis and s3rver, the auth
// service, two push API replicas and the worker as child processes from their dist/ builds (run
// `pnpm build` first), faulted one at a time under load. Its files end in `.fault.ts`, so the
// main run (jest.config.cjs) never picks them up. One file, run alone, ~4 minutes:
//   pnpm test:faults
const { base, globalSetup } = require('./jest.base.cjs');

module.exports = {
  ...base,
  roots: ['<rootDir>/services'],
  testMatch: ['**/src/**/*.fault.ts'],
  globalSetup,
  // Each phase is its own test; the slowest (a frozen dependency, its recovery, the drain) is well under this.
  testTimeout: 180000,
  maxWorkers: 1,
};
