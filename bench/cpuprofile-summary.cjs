#!/usr/bin/env node
// Summarises a V8 .cpuprofile (node --cpu-prof): self time by module and by function, and
// inclusive time by function (each sample counted once per function on its stack), as percentages
// of the non-idle samples.
//   node bench/cpuprofile-summary.cjs file.cpuprofile [top=25]
// Start-up (module loading: samples under the entry script's top level) is left out, so the
// figures are the load's. Two more views: "by our function" (each sample counted for the innermost
// frame of our own code, services/ or packages/, on its stack: what a middleware or step costs
// beyond its callees in libraries) and "by library under writes" (who asked for each socket write).
'use strict';
const { readFileSync } = require('node:fs');

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/cpuprofile-summary.cjs file.cpuprofile [top]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** `node_modules/.pnpm/pino@9/node_modules/pino/lib/x.js` → `pino`; our code → its workspace path. */
function moduleOf(url) {
  if (!url) return '(native/vm)';
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?/, 'node:').split('/')[0];
  const nm = url.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const m = /\/(services|packages)\/([^/]+)\//.exec(url);
  return m ? `${m[1]}/${m[2]}` : url.replace(/^file:\/\//, '');
}
const label = (n) => {
  const f = n.callFrame;
  const where = f.url ? `${moduleOf(f.url)} ${f.url.split('/').pop()}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'} ${where}`.trim();
};

const selfFn = new Map();
const selfMod = new Map();
const incl = new Map();
let total = 0;
let idle = 0;
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
const ours = (n) =>
  /\/(services|packages)\//.test(n.callFrame.url) && !n.callFrame.url.includes('node_modules');
const isStartup = (id) => {
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const f = byId.get(cur).callFrame;
    if (f.functionName === 'executeUserEntryPoint' || f.functionName === 'wrapModuleLoad') return true;
  }
  return false;
};
const byOurs = new Map();
const writers = new Map();
let startup = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const node = byId.get(id);
  const name = node.callFrame.functionName;
  if (name === '(idle)') {
    idle += dt;
    return;
  }
  if (isStartup(id)) {
    startup += dt;
    return;
  }
  total += dt;
  let owner = '(no frame of ours: node/http/libraries)';
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    if (ours(byId.get(cur))) {
      owner = label(byId.get(cur));
      break;
    }
  }
  add(byOurs, owner, dt);
  if (
    name === 'writeUtf8String' ||
    name === 'writev' ||
    name === 'writeBuffer' ||
    name === 'writeLatin1String'
  ) {
    let lib = '(node only)';
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const url = byId.get(cur).callFrame.url;
      if (url && !url.startsWith('node:')) {
        lib = moduleOf(url);
        break;
      }
    }
    add(writers, `${name} ← ${lib}`, dt);
  }
  add(selfFn, label(node), dt);
  add(selfMod, name.startsWith('(') ? name : moduleOf(node.callFrame.url), dt);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const key = label(byId.get(cur));
    if (!seen.has(key)) {
      seen.add(key);
      add(incl, key, dt);
    }
  }
});

const pct = (v) => `${((100 * v) / total).toFixed(1).padStart(5)}%`;
const print = (title, m) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
};
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s busy after start-up (${(startup / 1e6).toFixed(1)} s start-up left out), ${(idle / 1e6).toFixed(1)} s idle`,
);
print('self time by module', selfMod);
print('self time by function', selfFn);
print('inclusive time by function', incl);
print('by our function (innermost frame of services/ or packages/)', byOurs);
print('socket writes by the library that asked', writers);
