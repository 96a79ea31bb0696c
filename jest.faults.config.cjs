// The fault suite (services/push/src/test/faults): a private PostgreSQL, Redis and s3rver, the auth
// service, two push API replicas and the worker as child processes from their dist/ builds (run
// `pnpm exec tsc -b` first), faulted one at a time under load. Its files end in `.fault.ts`, so the
// main run (`*.test.ts`, jest.config.cjs) never picks them up. One file, run alone, ~4 minutes:
//   node --experimental-vm-modules --disable-warning=ExperimentalWarning ./node_modules/jest/bin/jest.js -c jest.faults.config.cjs
const main = require('./jest.config.cjs');

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/services'],
  testMatch: ['**/src/**/*.fault.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: main.transform,
  moduleNameMapper: main.moduleNameMapper,
  globalSetup: main.globalSetup,
  // Each phase is its own test; the slowest (a frozen dependency, its recovery, the drain) is well under this.
  testTimeout: 180000,
  maxWorkers: 1,
};
