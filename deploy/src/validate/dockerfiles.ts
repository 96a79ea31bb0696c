import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import { type CheckResult, check } from './report';

/** One image the Dockerfile builds: its `--target`, the image name compose and k8s use, its package. */
export interface ImageTarget {
  target: string;
  image: string;
  /** The workspace package whose production tree the image holds. */
  pkg: string;
  /** That package's directory: the image's `dist/X.js` entry points come from `<dir>/src/X.ts`. */
  dir: string;
}

interface Instruction {
  keyword: string;
  args: string;
  /** 1-based line of the instruction's first line. */
  line: number;
}

interface Stage {
  name?: string;
  /** The FROM image with global ARG defaults substituted, or the name of an earlier stage. */
  base: string;
  parent?: Stage;
  line: number;
  instructions: Instruction[];
}

/** Instructions (continuation lines joined, comment lines dropped), global ARG defaults, stages. */
export function parseDockerfile(text: string): { args: Map<string, string>; stages: Stage[] } {
  const instructions: Instruction[] = [];
  let current: Instruction | undefined;
  text.split('\n').forEach((raw, i) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith('#') || (trimmed === '' && !current)) return;
    const continued = trimmed.endsWith('\\');
    const body = continued ? trimmed.slice(0, -1).trim() : trimmed;
    if (current) {
      current.args = `${current.args} ${body}`.trim();
    } else {
      const m = /^(\S+)\s*(.*)$/.exec(body)!;
      current = { keyword: m[1]!.toUpperCase(), args: m[2]!, line: i + 1 };
      instructions.push(current);
    }
    if (!continued) current = undefined;
  });

  const args = new Map<string, string>();
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const words = ins.args.split(/\s+/).filter((w) => !w.startsWith('--'));
      const base = words[0]!.replace(/\$\{?(\w+)\}?/g, (all, a: string) => args.get(a) ?? all);
      const name = words[1]?.toUpperCase() === 'AS' ? words[2] : undefined;
      const parent = stages.find((s) => s.name !== undefined && s.name.toLowerCase() === base.toLowerCase());
      stages.push({ name, base, parent, line: ins.line, instructions: [] });
    } else if (stages.length === 0) {
      const m = /^(\w+)=(\S+)/.exec(ins.args);
      if (ins.keyword === 'ARG' && m) args.set(m[1]!, m[2]!);
    } else {
      stages.at(-1)!.instructions.push(ins);
    }
  }
  return { args, stages };
}

/** The stage and the stages it is built FROM, oldest first: what its image inherits. */
function chain(stage: Stage): Stage[] {
  return stage.parent ? [...chain(stage.parent), stage] : [stage];
}
const inherited = (stage: Stage, keyword: string): Instruction[] =>
  chain(stage).flatMap((s) => s.instructions.filter((i) => i.keyword === keyword));

/** ENV as the image has it: `KEY=value …` pairs (and the old `ENV KEY value` form), last one wins. */
function envOf(stage: Stage): Map<string, string> {
  const env = new Map<string, string>();
  for (const { args } of inherited(stage, 'ENV')) {
    const pairs = [...args.matchAll(/(\w+)=("[^"]*"|'[^']*'|\S*)/g)];
    if (pairs.length === 0) {
      const m = /^(\w+)\s+(.*)$/.exec(args);
      if (m) env.set(m[1]!, m[2]!);
    }
    for (const [, k, v] of pairs) env.set(k!, v!.replace(/^(["'])(.*)\1$/, '$2'));
  }
  return env;
}

/** The directory each `pnpm --filter PKG deploy --prod … DIR` of a stage (or its parents) writes. */
function productionTrees(stage: Stage): Map<string, string> {
  const trees = new Map<string, string>();
  for (const { args } of inherited(stage, 'RUN')) {
    for (const m of args.matchAll(/--filter[\s=]+["']?([^\s"']+)["']?\s+deploy\b([^&;|]*)/g)) {
      const words = m[2]!.trim().split(/\s+/);
      const out = words.filter((w) => !w.startsWith('-')).at(-1);
      if (words.includes('--prod') && out?.startsWith('/')) trees.set(m[1]!, out.replace(/\/+$/, ''));
    }
  }
  return trees;
}

const isRoot = (user: string) => /^(root|0)(:|$)/.test(user);

/** What one final image must have: non-root, production env and tree, root-owned code, health, CMD. */
function targetProblems(stages: Stage[], t: ImageTarget, root: string): string[] {
  const stage = stages.find((s) => s.name === t.target);
  if (!stage) return [`no stage "${t.target}": \`docker build --target ${t.target}\` builds no ${t.image}`];
  const p: string[] = [];
  const say = (m: string) => p.push(`target ${t.target}: ${m}`);

  const user = inherited(stage, 'USER').at(-1)?.args;
  if (!user || isRoot(user)) say('must run as a non-root USER (set in it or in a stage it is built FROM)');
  if (envOf(stage).get('NODE_ENV') !== 'production') say('needs ENV NODE_ENV=production');
  const health = inherited(stage, 'HEALTHCHECK').at(-1)?.args;
  if (!health || /^NONE\b/i.test(health)) say('needs a HEALTHCHECK');

  const cmd = inherited(stage, 'CMD').at(-1)?.args;
  let argv: unknown;
  try {
    argv = cmd === undefined ? undefined : JSON.parse(cmd);
  } catch {
    argv = undefined;
  }
  if (!Array.isArray(argv) || !/\bdist\/\S+\.js\b/.test(argv.join(' '))) {
    say('needs a CMD in exec form running its entry point (["node", "dist/….js"]), so node gets the signals');
  } else {
    p.push(...entryPointProblems(root, t, `target ${t.target} CMD`, argv.join(' ')));
  }

  // The image's code: copied from the production tree that stage built for this very package.
  const copies = inherited(stage, 'COPY')
    .map((c) => ({ c, from: /--from=(\S+)/.exec(c.args)?.[1] }))
    .filter((x): x is { c: Instruction; from: string } => x.from !== undefined);
  const own = copies.filter(({ c, from }) => {
    const source = stages.find((s) => s.name === from);
    const tree = source && productionTrees(source).get(t.pkg);
    const src = c.args
      .split(/\s+/)
      .filter((w) => !w.startsWith('--'))[0]
      ?.replace(/\/+$/, '');
    return tree !== undefined && src === tree;
  });
  if (own.length === 0) {
    const trees = copies.map(({ c }) => c.args.split(/\s+/).filter((w) => !w.startsWith('--'))[0]);
    say(
      `must COPY --from the build stage the tree "pnpm --filter ${t.pkg} deploy --prod" writes` +
        ` (production dependencies only)${trees.length ? `; it copies ${trees.join(', ')}` : ''}`,
    );
  }
  for (const { c } of own) {
    const chown = /--chown=(\S+)/.exec(c.args)?.[1];
    if (chown !== undefined && !isRoot(chown)) {
      say(
        `line ${c.line}: its code must stay owned by root (--chown=root:root), read-only for the service user`,
      );
    }
  }
  return p;
}

/** Each `dist/X.js` a command names must be the build output of `<dir>/src/X.ts` of the image's package. */
export function entryPointProblems(root: string, t: ImageTarget, where: string, command: string): string[] {
  return [...command.matchAll(/(?:^|[\s'"])(dist\/[\w./-]+)\.js\b/g)]
    .map((m) => m[1]!)
    .filter((s) => !existsSync(join(root, t.dir, s.replace(/^dist\//, 'src/') + '.ts')))
    .map(
      (s) => `${where}: ${s}.js is not built by ${t.pkg} (no ${t.dir}/${s.replace(/^dist\//, 'src/')}.ts)`,
    );
}

/** Our rules for the whole file: pinned bases, a separate build stage, a named image as last stage. */
function fileProblems(stages: Stage[], targets: ImageTarget[]): string[] {
  const p: string[] = [];
  for (const s of stages.filter((x) => !x.parent)) {
    if (!/:[\w][\w.-]*$|@sha256:/.test(s.base) || s.base.endsWith(':latest')) {
      p.push(`line ${s.line}: base image "${s.base}" needs a pinned tag or digest (not latest)`);
    }
  }
  const names = new Set(targets.map((t) => t.target));
  if (!stages.some((s) => !names.has(s.name ?? '') && productionTrees(s).size > 0)) {
    p.push('expected a multi-stage build: a build stage writing the production trees, then the images');
  }
  const last = stages.at(-1);
  if (last && !names.has(last.name ?? '')) {
    p.push(`the last stage (built without --target) must be one of the images: ${[...names].join(', ')}`);
  }
  return p;
}

/**
 * The one Dockerfile: dockerfile-utils' linter (syntax, flags, durations, ports…) and the file's
 * rules, then one check per image target.
 */
export function checkDockerfile(root: string, path: string, targets: ImageTarget[]): CheckResult[] {
  const text = readFileSync(join(root, path), 'utf8');
  const { stages } = parseDockerfile(text);
  const lint = validate(text).map((d) => `line ${d.range.start.line + 1}: ${String(d.message as string)}`);
  return [
    check(`dockerfile ${path}: lint and build rules`, [...lint, ...fileProblems(stages, targets)]),
    ...targets.map((t) =>
      check(
        `dockerfile ${path}: target ${t.target} (${t.image}) is non-root, production-only, with healthcheck and entry point`,
        targetProblems(stages, t, root),
      ),
    ),
  ];
}
