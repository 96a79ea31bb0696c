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

module.exports = { base, globalSetup };
