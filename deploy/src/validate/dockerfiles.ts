import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import { type CheckResult, check } from './report';

/** Our rules: pinned base images, a non-root final stage, production dependencies only. */
function policyProblems(text: string): string[] {
  const p: string[] = [];
  const lines = text.split('\n');
  const args = new Map<string, string>();
  for (const m of text.matchAll(/^ARG\s+(\w+)=(\S+)/gm)) args.set(m[1]!, m[2]!);
  const stages = lines.map((l, i) => ({ l, i })).filter(({ l }) => /^FROM\s/i.test(l));
  for (const { l } of stages) {
    const image = l.split(/\s+/)[1]!.replace(/^\$\{?(\w+)\}?$/, (_m, a: string) => args.get(a) ?? _m);
    if (!/:[\w][\w.-]*$|@sha256:/.test(image) || image.endsWith(':latest')) {
      p.push(`base image "${image}" needs a pinned tag or digest (not latest)`);
    }
  }
  const finalStage = lines.slice(stages.at(-1)?.i ?? 0).join('\n');
  const user = [...finalStage.matchAll(/^USER\s+(\S+)/gm)].at(-1)?.[1];
  if (!user || /^(root|0)(:|$)/.test(user)) p.push('the final stage must switch to a non-root USER');
  if (stages.length < 2) p.push('expected a multi-stage build (build stage + runtime stage)');
  if (!/deploy\s+--prod|install\s+--prod/.test(text)) {
    p.push('the runtime must get production dependencies only (--prod)');
  }
  if (!/^HEALTHCHECK\s/m.test(finalStage)) p.push('the final stage needs a HEALTHCHECK');
  return p;
}

/** dockerfile-utils' linter (syntax, flags, durations, ports…) plus the rules above, per Dockerfile. */
export function checkDockerfiles(root: string, paths: string[]): CheckResult[] {
  return paths.map((path) => {
    const text = readFileSync(join(root, path), 'utf8');
    const lint = validate(text).map((d) => `line ${d.range.start.line + 1}: ${String(d.message as string)}`);
    return check(`dockerfile ${path}: lint and image rules`, [...lint, ...policyProblems(text)]);
  });
}

/** .dockerignore keeps local state, secrets and build output out of the build context. */
export function checkDockerignore(root: string): CheckResult {
  const entries = new Set(
    readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim()),
  );
  const needed = ['**/node_modules', '**/dist', '.git', '.env', '.local', '.tools'];
  return check(
    '.dockerignore: excludes node_modules, dist, .git, .env, .local, .tools',
    needed.filter((n) => !entries.has(n)).map((n) => `missing "${n}"`),
  );
}
