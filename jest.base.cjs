// What every Jest configuration of the workspace shares (jest.config.cjs and the slow suites'
// jest.*.config.cjs). Tests import workspace packages from their sources, so a stale dist/ never
// hides a change. ts-jest only transpiles (tsconfig.jest.json, isolatedModules): the tests are
// type-checked by `pnpm typecheck` (tsconfig.typecheck.json). ESM-only dependencies (oidc-provider,
// kysely) load through require(esm), which Jest only allows with --experimental-vm-modules (see
// package.json "test").
const { readdirSync } = require('node:fs');

const workspaceModules = {};
for (const dir of ['packages', 'services']) {
  for (const name of readdirSync(`${__dirname}/${dir}`)) {
    workspaceModules[`^@secret-push/${name}$`] = `<rootDir>/${dir}/${name}/src/index.ts`;
    workspaceModules[`^@secret-push/${name}/testing$`] = `<rootDir>/${dir}/${name}/src/testing.ts`;
  }
}

/** The fields of one project: where, how to transform, how workspace packages resolve. */
const base = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }] },
  moduleNameMapper: workspaceModules,
};

/** Drops test databases left behind by crashed runs: for the suites that use PostgreSQL. */
const globalSetup = '<rootDir>/packages/testing/src/global-setup.cjs';

const roots = ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/bench', '<rootDir>/deploy'];

/**
 * The two tiers of the main run (jest.config.cjs runs both; jest.unit.config.cjs the first):
 * - unit: `*.test.ts` that are not `*.int.test.ts`. No PostgreSQL, Redis, S3 or auth service: pure
 *   code, in-memory ports (services/push/src/test/support/in-memory-*.ts), local HTTP servers.
 * - integration: `*.int.test.ts`, against the local PostgreSQL and Redis (each test file gets its
 *   own database and key prefix), s3rver and real services in-process.
 */
const tiers = {
  unit: {
    ...base,
    displayName: 'unit',
    roots,
    testMatch: ['**/src/**/*.test.ts'],
    testPathIgnorePatterns: [...base.testPathIgnorePatterns, '\\.int\\.test\\.ts$'],
  },
  integration: {
    ...base,
    displayName: 'integration',
    roots,
    testMatch: ['**/src/**/*.int.test.ts'],
    globalSetup,
  },
};

/** The main run's options that are not a project's. */
const mainRun = { testTimeout: 30000, maxWorkers: 2 };

module.exports = { base, globalSetup, tiers, mainRun };
