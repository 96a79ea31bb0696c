// The unit tier alone (`pnpm test:unit`): `*.test.ts` that are not `*.int.test.ts`, no PostgreSQL,
// Redis, S3 or auth service needed, in seconds. The same project as in the main run (jest.config.cjs).
const { tiers, mainRun } = require('./jest.base.cjs');

module.exports = { ...tiers.unit, ...mainRun };
