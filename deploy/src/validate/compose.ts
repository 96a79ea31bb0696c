import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { composeBytes, heapProblems } from './node-heap';
import { type CheckResult, check } from './report';

type Env = Record<string, string>;
interface ComposeService {
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  mem_limit?: string | number;
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: unknown;
  volumes?: (string | { source?: string })[];
  restart?: string;
}
interface ComposeFile {
  services?: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** The compose-spec JSON schema that dclint ships (current specification, draft-07). */
const schemaPath = () => join(require.resolve('dclint/package.json'), '..', 'schemas', 'compose.schema.json');

/** Reads KEY=VALUE lines; empty values become a placeholder, as a filled-in .env would have. */
export function exampleEnv(text: string): Env {
  const env: Env = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) env[m[1]!] = m[2] || 'placeholder-value';
  }
  return env;
}

/** Compose interpolation: $$, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}. */
export function interpolate(text: string, env: Env, missing: Set<string>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g,
    (all, name?: string, op?: string) => {
      if (all === '$$') return '$';
      const value = env[name!];
      const unset = op?.startsWith(':') ? !value : value === undefined;
      if (!unset) return value!;
      if (op?.endsWith('?')) missing.add(name!);
      return op?.endsWith('-') ? all.slice(all.indexOf(op) + op.length, -1) : '';
    },
  );
}

function crossReferences(file: ComposeFile): string[] {
  const problems: string[] = [];
  const services = file.services ?? {};
  for (const [name, svc] of Object.entries(services)) {
    const deps: Record<string, { condition?: string }> = Array.isArray(svc.depends_on)
      ? Object.fromEntries(svc.depends_on.map((d) => [d, {}]))
      : (svc.depends_on ?? {});
    for (const [dep, { condition }] of Object.entries(deps)) {
      const target = services[dep];
      if (!target) problems.push(`${name}: depends_on unknown service "${dep}"`);
      else if (condition === 'service_healthy' && !target.healthcheck) {
        problems.push(`${name}: waits for "${dep}" to be healthy, but ${dep} has no healthcheck`);
      } else if (condition === 'service_completed_successfully' && target.restart !== 'no') {
        problems.push(`${name}: waits for one-shot "${dep}", which must have restart: 'no'`);
      }
    }
    for (const v of svc.volumes ?? []) {
      const source = typeof v === 'string' ? v.split(':')[0]! : (v.source ?? '');
      const named = source !== '' && !/^[./~]/.test(source);
      if (named && !(source in (file.volumes ?? {}))) {
        problems.push(`${name}: volume "${source}" is not declared under volumes:`);
      }
    }
  }
  return problems;
}

const envOf = (svc: ComposeService): Record<string, unknown> =>
  Array.isArray(svc.environment)
    ? Object.fromEntries(
        svc.environment.map((e): [string, string] => [e.split('=')[0]!, e.slice(e.indexOf('=') + 1)]),
      )
    : (svc.environment ?? {});
const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/**
 * Every long-running service of ours (a secret-push image, not a one-shot) has a memory limit and
 * NODE_OPTIONS sizing V8's heap at ~75 % of it, as its Kubernetes pod does.
 */
function heapOfServices(file: ComposeFile): string[] {
  const problems: string[] = [];
  for (const [name, svc] of Object.entries(file.services ?? {})) {
    if (!svc.image?.startsWith('secret-push-') || svc.restart === 'no') continue;
    const env = envOf(svc);
    const nodeOptions = env.NODE_OPTIONS;
    problems.push(
      ...heapProblems(
        `compose ${name}`,
        typeof nodeOptions === 'string' ? nodeOptions : undefined,
        composeBytes(svc.mem_limit),
      ),
    );
  }
  return problems;
}

/**
 * Email: auth, push and the worker have an SMTP URL (a bare host name being a service of this
 * file) and a From address; the worker has the API's key ring (from a volume it mounts) and
 * public URL, to build the links it emails.
 */
function emailProblems(file: ComposeFile): string[] {
  const services = file.services ?? {};
  const p: string[] = [];
  for (const [name, prefix] of [
    ['auth', 'AUTH'],
    ['push', 'PUSH'],
    ['worker', 'PUSH'],
  ] as const) {
    const env = services[name] ? envOf(services[name]) : {};
    const url = text(env[`${prefix}_SMTP_URL`]);
    if (!url && !text(env[`${prefix}_SMTP_URL_FILE`])) {
      p.push(`${name}: ${prefix}_SMTP_URL (or _FILE) is not set`);
    }
    const host = URL.canParse(url) ? new URL(url).hostname : '';
    if (host && !host.includes('.') && host !== 'localhost' && !(host in services)) {
      p.push(`${name}: ${prefix}_SMTP_URL names the host "${host}", which is no service of this file`);
    }
    if (!text(env[`${prefix}_MAIL_FROM`])) p.push(`${name}: ${prefix}_MAIL_FROM is not set`);
  }
  const [api, worker] = [services.push, services.worker].map((s) => (s ? envOf(s) : {}));
  for (const v of ['PUSH_ENCRYPTION_KEYS', 'PUSH_ENCRYPTION_KEYS_FILE', 'PUSH_PUBLIC_URL']) {
    if (text(api![v]) !== text(worker![v])) p.push(`worker: ${v} must be the same as push's`);
  }
  const keysFile = text(worker!.PUSH_ENCRYPTION_KEYS_FILE);
  const mounts = (services.worker?.volumes ?? []).map((v) =>
    typeof v === 'string' ? (v.split(':')[1] ?? '') : '',
  );
  if (keysFile && !mounts.some((m) => m && keysFile.startsWith(`${m}/`))) {
    p.push(`worker: PUSH_ENCRYPTION_KEYS_FILE (${keysFile}) is on no volume it mounts`);
  }
  return p;
}

/** docker-compose.yml against the compose-spec schema, interpolated with .env.example's variables. */
export function checkCompose(root: string): CheckResult[] {
  const envText = readFileSync(join(root, '.env.example'), 'utf8');
  const missing = new Set<string>();
  const text = interpolate(
    readFileSync(join(root, 'docker-compose.yml'), 'utf8'),
    exampleEnv(envText),
    missing,
  );
  const file = parse(text, { merge: true }) as ComposeFile;

  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  // The schema is draft-07 (Ajv's default) but names the meta-schema by an https URL Ajv does not know.
  const { $schema: _meta, ...schema } = JSON.parse(readFileSync(schemaPath(), 'utf8')) as Record<
    string,
    unknown
  >;
  const validate = ajv.compile(schema);
  const schemaProblems = validate(file)
    ? []
    : (validate.errors ?? []).map(
        (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
      );
  return [
    check('compose: docker-compose.yml matches the compose-spec schema', schemaProblems),
    check(
      'compose: every required ${VAR:?} is listed in .env.example',
      [...missing].map((v) => `${v} is required by docker-compose.yml but missing from .env.example`),
    ),
    check('compose: depends_on targets, conditions and named volumes are consistent', crossReferences(file)),
    check(
      'compose: each service of ours has mem_limit and NODE_OPTIONS sizing its heap by it',
      heapOfServices(file),
    ),
    check(
      "compose: email (SMTP URL and From for auth, push and the worker; the worker has the API's keys and public URL)",
      emailProblems(file),
    ),
  ];
}
