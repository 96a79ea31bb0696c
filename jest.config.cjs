// The main run (`pnpm test`): two projects over the whole workspace, both run by default.
// - unit: `*.test.ts` that are not `*.int.test.ts`. No PostgreSQL, Redis, S3 or auth service: pure
//   code, in-memory ports (services/push/src/test/support/in-memory-*.ts) and local HTTP servers
//   only. `pnpm test:unit` runs it alone (--selectProjects unit), in seconds.
// - integration: `*.int.test.ts`, against the local PostgreSQL and Redis (each test file gets its
//   own database and key prefix), s3rver and real services in-process.
// The slow suites have their own configurations (jest.faults/fuzz/browser/cli.config.cjs).
const { base, globalSetup } = require('./jest.base.cjs');

const roots = ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/bench', '<rootDir>/deploy'];

module.exports = {
  projects: [
    {
      ...base,
      displayName: 'unit',
      roots,
      testMatch: ['**/src/**/*.test.ts'],
      testPathIgnorePatterns: [...base.testPathIgnorePatterns, '\\.int\\.test\\.ts$'],
    },
    {
      ...base,
      displayName: 'integration',
      roots,
      testMatch: ['**/src/**/*.int.test.ts'],
      globalSetup,
    },
  ],
  testTimeout: 30000,
  maxWorkers: 2,
};
