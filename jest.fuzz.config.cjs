// The hostile-input suite (services/push/src/test/fuzz): property-based inputs against both
// services, run on its own so that the main run (`*.test.ts`, jest.config.cjs) never picks it up.
// Same transform, module mapping and global set-up as the main configuration; one worker, because
// the suite compares database row counts before and after each request.
// Size: FUZZ_RUNS (total inputs across both services, default 20000); see hostile-input.fuzz.ts.
const base = require('./jest.config.cjs');

module.exports = {
  testEnvironment: base.testEnvironment,
  roots: ['<rootDir>/services'],
  testMatch: ['**/src/**/*.fuzz.ts'],
  testPathIgnorePatterns: base.testPathIgnorePatterns,
  transform: base.transform,
  moduleNameMapper: base.moduleNameMapper,
  globalSetup: base.globalSetup,
  testTimeout: 30 * 60 * 1000,
  maxWorkers: 1,
};
