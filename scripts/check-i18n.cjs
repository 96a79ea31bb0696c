#!/usr/bin/env node
// The catalogue check of `pnpm lint` (after `pnpm build`): every key in every language, no unused
// key, the same placeholders and tags as English, every plural form a language needs
// (packages/i18n/src/check.ts). It first checks itself on scripts/i18n-fixture/, where German
// lacks a key: that must be reported, or the check is broken.
'use strict';
const { join } = require('node:path');
const root = join(__dirname, '..');
const { checkCatalogues } = require(join(root, 'packages/i18n/dist/index.js'));

const fixture = checkCatalogues({
  catalogueDirs: [join(__dirname, 'i18n-fixture/locales')],
  sourceDirs: [join(__dirname, 'i18n-fixture/src')],
  languages: ['en', 'de'],
});
if (!fixture.some((p) => p.locale === 'de' && p.key === 'demo.farewell' && p.problem === 'is missing')) {
  console.error(
    'check-i18n: the missing key demo.farewell of the fixture was not reported; the check is broken',
  );
  console.error(fixture);
  process.exit(1);
}

const frame = join(root, 'packages/i18n/locales');
const shared = [join(root, 'packages/html/src'), join(root, 'packages/i18n/src')];
const services = [
  {
    name: 'push',
    catalogueDirs: [frame, join(root, 'services/push/locales')],
    sourceDirs: [...shared, join(root, 'services/push/src')],
  },
  {
    name: 'auth',
    catalogueDirs: [frame, join(root, 'services/auth/locales')],
    sourceDirs: [...shared, join(root, 'services/auth/src')],
  },
];
let failed = 0;
for (const s of services) {
  const problems = checkCatalogues(s);
  for (const p of problems) console.error(`check-i18n: ${s.name}: ${p.locale}: ${p.key} ${p.problem}`);
  failed += problems.length;
}
if (failed > 0) {
  console.error(`check-i18n: ${failed} problem(s)`);
  process.exit(1);
}
