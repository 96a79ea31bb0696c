import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Thrown at start-up; its message lists every missing or bad variable at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment variables:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Secrets may come from mounted files: for each name listed, `NAME_FILE=/path` is read into `NAME`
 * (trailing newline removed). Setting both is an error.
 */
export function readSecretFiles(env: Env, names: readonly string[]): { env: Env; problems: string[] } {
  const out: Env = { ...env };
  const problems: string[] = [];
  for (const name of names) {
    const file = env[`${name}_FILE`];
    if (file === undefined || file === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      problems.push(`${name}: set either ${name} or ${name}_FILE, not both`);
      continue;
    }
    try {
      out[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      problems.push(`${name}_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return { env: out, problems };
}

/**
 * Parses `env` with a flat zod object schema keyed by variable name and returns the deeply frozen
 * result of `shape(parsed)`. Empty strings count as unset, so `FOO=` falls back to the default.
 */
export function parseEnv<S extends z.ZodObject, T extends object>(
  schema: S,
  env: Env,
  shape: (vars: z.infer<S>) => T,
  options: { secretFiles?: readonly string[]; check?: (vars: z.infer<S>) => string[] } = {},
): Readonly<T> {
  const { env: withFiles, problems } = readSecretFiles(env, options.secretFiles ?? []);
  const input = Object.fromEntries(Object.entries(withFiles).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(input);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = issue.path.join('.') || '(environment)';
      problems.push(`${name}: ${issue.message}`);
    }
  } else if (options.check) {
    problems.push(...options.check(result.data));
  }
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return deepFreeze(shape(result.data));
}

function deepFreeze<T>(value: T, seen = new WeakSet<object>()): T {
  // Buffers (keys) cannot be frozen; they are never handed out for writing. An object already
  // frozen is still walked: its children may not be.
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value) && !seen.has(value)) {
    seen.add(value);
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v, seen);
  }
  return value;
}
