// The main run (`pnpm test`): the unit and the integration tier of the whole workspace, as two
// projects (see `tiers` in jest.base.cjs). `pnpm test:unit` runs the unit tier alone
// (jest.unit.config.cjs). The slow suites have their own configurations
// (jest.faults/fuzz/browser/cli.config.cjs).
const { tiers, mainRun } = require('./jest.base.cjs');

module.exports = { projects: [tiers.unit, tiers.integration], ...mainRun };
