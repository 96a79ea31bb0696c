// The hostile-input suite (services/push/src/test/fuzz): property-based inputs against both
// services, run on its own so that the main run (jest.config.cjs) never picks it up. One worker,
// because the suite compares database row counts before and after each request.
// Size: FUZZ_RUNS (total inputs across both services, default 20000); see hostile-input.fuzz.ts.
//   pnpm test:fuzz
const { base, globalSetup } = require('./jest.base.cjs');

module.exports = {
  ...base,
  roots: ['<rootDir>/services'],
  testMatch: ['**/src/**/*.fuzz.ts'],
  globalSetup,
  testTimeout: 30 * 60 * 1000,
  maxWorkers: 1,
};
