import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { validate } from 'dockerfile-utils';
import { parse, parseAllDocuments } from 'yaml';
import { exampleEnv, interpolate } from './compose';
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
function entryPointProblems(root: string, t: ImageTarget, where: string, command: string): string[] {
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

interface ComposeService {
  build?: string | { context?: string; dockerfile?: string; target?: string };
  image?: string;
  command?: string | string[];
}

const repositoryOf = (image: string) => image.replace(/@.*$/, '').replace(/:[^:/]*$/, '');

/** Every YAML file under `dir` (relative paths), k8s/ being small. */
function yamlFiles(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f));
}

/** Containers (image, command, args) anywhere in a parsed manifest. */
function containersIn(value: unknown, out: { image: string; command: string }[] = []) {
  if (Array.isArray(value)) value.forEach((v) => containersIn(v, out));
  else if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.image === 'string' && typeof o.name === 'string') {
      const argv = [o.command, o.args].flatMap((a) => (Array.isArray(a) ? a.map(String) : []));
      out.push({ image: o.image, command: argv.join(' ') });
    }
    Object.values(o).forEach((v) => containersIn(v, out));
  }
  return out;
}

/**
 * The images compose and k8s run are the Dockerfile's targets: compose builds them from the one
 * Dockerfile with the matching --target and tag, every project image used is built there, and the
 * commands run `dist/….js` files that the image's package has.
 */
export function checkImageSources(root: string, dockerfile: string, targets: ImageTarget[]): CheckResult {
  const p: string[] = [];
  const stageNames = new Set(
    parseDockerfile(readFileSync(join(root, dockerfile), 'utf8')).stages.map((s) => s.name),
  );
  const byImage = new Map(targets.map((t) => [t.image, t]));
  const ours = (image: string) => byImage.get(repositoryOf(image));
  const projectImage = (image: string) => /^secret-push-/.test(repositoryOf(image));

  // docker-compose.yml
  const composeText = interpolate(
    readFileSync(join(root, 'docker-compose.yml'), 'utf8'),
    exampleEnv(readFileSync(join(root, '.env.example'), 'utf8')),
    new Set(),
  );
  const services = (parse(composeText, { merge: true }) as { services?: Record<string, ComposeService> })
    .services;
  const built = new Set<string>();
  for (const [name, svc] of Object.entries(services ?? {})) {
    if (svc.build === undefined) continue;
    const b = typeof svc.build === 'string' ? { context: svc.build } : svc.build;
    const file = normalize(join(b.context ?? '.', b.dockerfile ?? 'Dockerfile'));
    if (normalize(b.context ?? '.') !== '.' || file !== normalize(dockerfile)) {
      p.push(`compose ${name}: must build from context "." with dockerfile ${dockerfile} (has ${file})`);
    }
    const t = targets.find((x) => x.target === b.target);
    if (!t) {
      p.push(`compose ${name}: build.target must be one of ${targets.map((x) => x.target).join(', ')}`);
    } else {
      if (!stageNames.has(t.target)) p.push(`compose ${name}: ${dockerfile} has no stage "${t.target}"`);
      if (!svc.image || repositoryOf(svc.image) !== t.image) {
        p.push(`compose ${name}: builds target ${t.target}, so its image must be tagged ${t.image}:…`);
      }
    }
    if (svc.image) built.add(svc.image);
  }
  for (const [name, svc] of Object.entries(services ?? {})) {
    if (!svc.image || !projectImage(svc.image)) continue;
    const t = ours(svc.image);
    if (!t) p.push(`compose ${name}: image ${svc.image} is none of the Dockerfile's targets`);
    else if (!built.has(svc.image)) p.push(`compose ${name}: no service builds ${svc.image}`);
    const command = Array.isArray(svc.command) ? svc.command.join(' ') : svc.command;
    if (t && command !== undefined) {
      p.push(...entryPointProblems(root, t, `compose ${name} command`, command));
    }
  }
  for (const t of targets) {
    if (![...built].some((i) => repositoryOf(i) === t.image)) {
      p.push(`compose: no service builds ${t.image} (--target ${t.target})`);
    }
  }

  // k8s/: every project image the manifests run or kustomize renames is a target's image.
  const used = new Set<string>();
  for (const file of yamlFiles(root, 'k8s')) {
    for (const doc of parseAllDocuments(readFileSync(join(root, file), 'utf8'))) {
      const o = doc.toJS() as { kind?: string; images?: { name?: string }[] } | null;
      if (o?.kind === 'Kustomization') {
        for (const { name } of o.images ?? []) {
          if (name && projectImage(name) && !ours(name)) {
            p.push(`${file}: images entry ${name} is none of the Dockerfile's targets`);
          }
        }
        continue;
      }
      for (const c of containersIn(o)) {
        if (!projectImage(c.image)) continue;
        const t = ours(c.image);
        if (!t) {
          p.push(`${file}: image ${c.image} is none of the Dockerfile's targets`);
          continue;
        }
        used.add(t.image);
        if (c.command !== '') p.push(...entryPointProblems(root, t, `${file} (${c.image})`, c.command));
      }
    }
  }
  for (const t of targets) {
    if (!used.has(t.image)) p.push(`k8s: no workload runs ${t.image}`);
  }
  return check(
    `images: compose and k8s run ${targets.map((t) => t.image).join(', ')}, built from ${dockerfile}'s targets`,
    p,
  );
}

/** A .dockerignore pattern as a RegExp: `**` spans directories, `*` and `?` stay within one. */
function globToRegExp(glob: string): RegExp {
  const body = glob
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map((part) => {
      switch (part) {
        case '**/':
          return '(?:.*/)?';
        case '**':
          return '.*';
        case '*':
          return '[^/]*';
        case '?':
          return '[^/]';
        default:
          return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
    })
    .join('');
  return new RegExp(`^${body}$`);
}

/** Whether Docker leaves `path` out of the context: the last matching pattern wins, `!` re-includes. */
function ignored(patterns: string[], path: string): boolean {
  const segments = path.split('/');
  // A pattern that matches a directory leaves out everything below it.
  const candidates = segments.map((_, i) => segments.slice(0, i + 1).join('/'));
  let excluded = false;
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const re = globToRegExp(normalize(negated ? raw.slice(1) : raw).replace(/^\/+|\/+$/g, ''));
    if (candidates.some((c) => re.test(c))) excluded = !negated;
  }
  return excluded;
}

/**
 * .dockerignore keeps local state, secrets and build output out of the build context, and keeps
 * in it what the build stage needs (manifests, lockfile, TypeScript configs, sources).
 */
export function checkDockerignore(root: string, targets: ImageTarget[]): CheckResult {
  const patterns = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const excluded = [
    'node_modules/x',
    'services/push/node_modules/x',
    'packages/config/dist/index.js',
    '.git/HEAD',
    '.env',
    '.env.local',
    '.local/x',
    '.tools/x',
  ];
  const kept = [
    'package.json',
    'pnpm-lock.yaml',
    'pnpm-workspace.yaml',
    'tsconfig.base.json',
    'packages/config/package.json',
    'packages/config/src/index.ts',
    ...targets.flatMap((t) => [`${t.dir}/package.json`, `${t.dir}/tsconfig.json`, `${t.dir}/src/index.ts`]),
  ];
  return check(
    '.dockerignore: excludes node_modules, dist, .git, .env, .local, .tools; keeps the build inputs',
    [
      ...excluded.filter((f) => !ignored(patterns, f)).map((f) => `must exclude ${f}`),
      ...kept.filter((f) => ignored(patterns, f)).map((f) => `must not exclude ${f} (the build needs it)`),
    ],
  );
}
