// One Jest run for the whole workspace. Tests import workspace packages from their sources, so a
// stale dist/ never hides a change. ESM-only dependencies (oidc-provider, kysely) load through
// require(esm), which Jest only allows with --experimental-vm-modules (see package.json "test").
const { readdirSync } = require('node:fs');

const workspaceModules = {};
for (const dir of ['packages', 'services']) {
  for (const name of readdirSync(`${__dirname}/${dir}`)) {
    workspaceModules[`^@secret-push/${name}$`] = `<rootDir>/${dir}/${name}/src/index.ts`;
    workspaceModules[`^@secret-push/${name}/testing$`] = `<rootDir>/${dir}/${name}/src/testing.ts`;
  }
}

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/bench', '<rootDir>/deploy'],
  testMatch: ['**/src/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }] },
  moduleNameMapper: workspaceModules,
  globalSetup: '<rootDir>/packages/testing/src/global-setup.cjs',
  testTimeout: 30000,
  maxWorkers: 2,
};
