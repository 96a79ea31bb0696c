#!/usr/bin/env node
// Micro-benchmark of the per-request costs of @secret-push/i18n (after `pnpm build`): language
// negotiation with typical and hostile headers, t() plain / with values / plural, rich(), and a
// whole page (the push service's about page) in English, German and the pseudo-locale.
//   node packages/i18n/bench/i18n.bench.cjs [--quick]
// Prints µs per operation (median of 5 rounds). Uses the real catalogues (frame + push service).
'use strict';
const { join } = require('node:path');
const { existsSync } = require('node:fs');

const root = join(__dirname, '..', '..', '..');
const { I18n, FRAME_CATALOGUES, LANGUAGES, withTranslator } = require('../dist');

const quick = process.argv.includes('--quick');
const i18n = new I18n({
  dirs: [FRAME_CATALOGUES, join(root, 'services', 'push', 'locales')],
  languages: LANGUAGES,
  defaultLanguage: 'en',
  pseudo: true,
});

/** µs per call of `fn` (median of rounds; each round runs for about `ms` milliseconds). */
function bench(name, fn, { ms = quick ? 100 : 400, rounds = 5 } = {}) {
  for (let i = 0; i < 200; i++) fn(i); // warm up
  let n = 1;
  for (;;) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i);
    if (Number(process.hrtime.bigint() - t0) / 1e6 >= ms / 4) break;
    n *= 2;
  }
  n *= 4;
  const results = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i + r * n);
    results.push(Number(process.hrtime.bigint() - t0) / 1e3 / n);
  }
  results.sort((a, b) => a - b);
  const us = results[Math.floor(rounds / 2)];
  console.log(`${name.padEnd(58)} ${us.toFixed(us < 1 ? 3 : 2).padStart(10)} µs/op`);
  return us;
}

// A hostile Accept-Language: a long list of well-formed but unknown tags with weights (~1 KB), so
// that best fit measures every one of them against every offered language.
const tag = (i) => `${(i * 7 + 100).toString(36).padEnd(3, 'q')}-${['Latn', 'Cyrl', 'Zzzz'][i % 3]}-${'ZZ'}`;
const garbage = Array.from({ length: 60 }, (_, i) => `${tag(i)};q=0.${(i % 9) + 1}`).join(',');
// Fresh hostile headers (each one new: a cache can never answer them).
const fresh = (i) => `zz-${i.toString(36)},q${(i * 7919).toString(36).slice(0, 3)};q=0.5,xx-Latn-${i % 97}`;
const session = 'sp_session=' + 'a'.repeat(43) + '; theme=dark';

console.log(`node ${process.version}, ${quick ? 'quick' : 'full'} run`);
console.log('-- negotiation');
bench('negotiate: no header', () => i18n.negotiateHeaders({}));
bench('negotiate: de-DE,de;q=0.9,en;q=0.8', () =>
  i18n.negotiateHeaders({ acceptLanguage: 'de-DE,de;q=0.9,en;q=0.8' }),
);
bench('negotiate: en-US,en;q=0.9', () => i18n.negotiateHeaders({ acceptLanguage: 'en-US,en;q=0.9' }));
bench('negotiate: pt,fr-CA;q=0.8 (best fit: pt-BR)', () =>
  i18n.negotiateHeaders({ acceptLanguage: 'pt,fr-CA;q=0.8' }),
);
bench('negotiate: de-AT + session cookie', () =>
  i18n.negotiateHeaders({ acceptLanguage: 'de-AT', cookie: session }),
);
bench('negotiate: cookie sp_lang=pl', () =>
  i18n.negotiateHeaders({ acceptLanguage: 'de', cookie: `${session}; sp_lang=pl` }),
);
bench(`negotiate: garbage list (${garbage.length} B, repeated)`, () =>
  i18n.negotiateHeaders({ acceptLanguage: garbage }),
);
bench('negotiate: a new hostile header each time', (i) =>
  i18n.negotiateHeaders({ acceptLanguage: fresh(i) }),
);
bench('negotiate: a new 1 KB garbage list each time', (i) =>
  i18n.negotiateHeaders({ acceptLanguage: `q${i.toString(36)},${garbage}` }),
);

console.log('-- messages');
for (const lang of ['en', 'de', 'pl', 'en-XA']) {
  const tr = i18n.translator(lang);
  bench(`t() plain [${lang}]`, () => tr.t('about.title'));
  bench(`t() with values [${lang}]`, () => tr.t('about.heading', { name: 'Secret Push' }));
  bench(`t() plural [${lang}]`, (i) => tr.t('create.expiry.views', { count: i % 7 }));
}

let rich;
let aboutPage;
const pushDist = join(root, 'services', 'push', 'dist', 'pages', 'about.views.js');
try {
  ({ rich } = require(join(root, 'packages', 'html', 'dist')));
  if (existsSync(pushDist)) ({ aboutPage } = require(pushDist));
} catch (err) {
  console.log(`(no rich() / page: ${err.message})`);
}
if (rich) {
  for (const lang of ['en', 'en-XA']) {
    const tr = i18n.translator(lang);
    bench(`rich() with a tag [${lang}]`, () => withTranslator(tr, () => rich('about.stored.token')));
  }
}
if (aboutPage) {
  console.log('-- a whole page (push service: about)');
  for (const lang of ['en', 'de', 'en-XA']) {
    bench(
      `about page [${lang}]`,
      () => i18n.run(lang, '/about', () => aboutPage(undefined, 'https://push.example')),
      {
        ms: quick ? 200 : 600,
      },
    );
  }
}
