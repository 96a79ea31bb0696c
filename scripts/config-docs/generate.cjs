#!/usr/bin/env node
/*
 * Writes docs/configuration.md: configuration.template.md (beside this file) with every placeholder
 * replaced from the configuration sections of the built services (`pnpm build` first; `pnpm
 * config:docs` does both), formatted with the repository's prettier settings.
 *
 *   <!-- config: NAME -->  the variables of NAME not documented further up, one table per section,
 *                          after a line naming those it shares with what is above
 *   <!-- reads: NAME -->   NAME's variables as an inline list
 *
 * With --check, nothing is written: exits 1 when docs/configuration.md differs from what would be
 * written (scripts/test.sh runs it after the lint).
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const prettier = require('prettier');

const root = join(__dirname, '..', '..');
const { documentVariables, renderEnvTable } = require(join(root, 'packages/config/dist/index.js'));
const push = require(join(root, 'services/push/dist/config/index.js'));
const auth = require(join(root, 'services/auth/dist/config/index.js'));

const CONFIGS = {
  auth: auth.authConfig,
  'auth-migrate': auth.authMigrateConfig,
  push: push.pushConfig,
  'push-cli': push.pushCliConfig,
  'push-migrate': push.pushMigrateConfig,
  worker: push.workerConfig,
};
const TARGET = join(root, 'docs/configuration.md');

function configNamed(name) {
  const config = CONFIGS[name];
  if (!config) throw new Error(`unknown configuration "${name}" in the template`);
  return config;
}

const code = (name) => `\`${name}\``;

/** `A`, `B` and `C` (a secret file variant named with its variable). */
function inlineList(vars) {
  const names = vars.map((v) =>
    v.secretFile ? `${code(v.name)} (or ${code(`${v.name}_FILE`)})` : code(v.name),
  );
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function render(template) {
  const documented = new Set();
  return template
    .replace(/<!-- reads: ([\w-]+) -->/g, (_, name) =>
      inlineList(documentVariables(configNamed(name).sections)),
    )
    .replace(/<!-- config: ([\w-]+) -->/g, (_, name) => {
      const { sections } = configNamed(name);
      const shared = documentVariables(sections).filter((v) => documented.has(v.name));
      const parts = shared.length > 0 ? [`Also reads, as described above: ${inlineList(shared)}.`] : [];
      for (const section of sections) {
        const vars = documentVariables([section]).filter((v) => !documented.has(v.name));
        if (vars.length === 0) continue;
        for (const v of vars) documented.add(v.name);
        parts.push(`### ${section.title}`, renderEnvTable(vars));
      }
      return parts.join('\n\n');
    });
}

async function main() {
  const template = readFileSync(join(__dirname, 'configuration.template.md'), 'utf8');
  const options = { ...(await prettier.resolveConfig(TARGET)), filepath: TARGET };
  const output = await prettier.format(render(template), options);
  if (!process.argv.includes('--check')) {
    writeFileSync(TARGET, output);
    return;
  }
  let current = '';
  try {
    current = readFileSync(TARGET, 'utf8');
  } catch {
    // missing: stale
  }
  if (current !== output) {
    console.error('docs/configuration.md is stale: run `pnpm config:docs` and commit the result');
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
