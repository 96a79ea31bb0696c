import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import type { ImageTarget } from './dockerfiles';
import { type CheckResult, check } from './report';

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
