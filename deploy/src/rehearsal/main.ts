/**
 * The multi-replica rehearsal (scripts/rehearse.sh builds the images' file trees first): 2 auth,
 * 2 push API and 2 worker processes, started with the commands and environment of the rendered
 * k8s/base manifests, behind one round-robin proxy per Service, on local PostgreSQL (fresh
 * databases), Redis (a unique prefix), s3rver and an SMTP catcher (the Secrets' smtp-url, as the
 * files their volumes mount); then the smoke checks; then everything is stopped and dropped again,
 * whatever happened.
 *   node deploy/dist/rehearsal/main.js REPO_ROOT AUTH_APP_DIR PUSH_APP_DIR WORK_DIR
 */
import { chownSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import S3rver from 's3rver';
import { type MailCatcher, freePort, startMailCatcher } from '@secret-push/testing';
import { type K8sObject, render } from '../validate/kubernetes';
import { type CheckResult, printReport } from '../validate/report';
import { type Workload, workloadOf } from './manifest-env';
import { type Service, runToCompletion, startProcess, stopProcess, waitReady } from './processes';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy';
import { runSmoke } from './smoke';

const PG = process.env.REHEARSAL_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.REHEARSAL_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = (line: string) => console.log(line);
/** The manifests' runAsUser/runAsGroup: when run as root, the services drop to it (the app trees stay root's). */
const asPodUser = process.getuid?.() === 0 ? { uid: 1000, gid: 1000 } : undefined;

/** One run: its directories, the names of what it creates, and when it started. */
interface Run {
  root: string;
  authDir: string;
  pushDir: string;
  workDir: string;
  logDir: string;
  name: string;
  db: { auth: string; push: string };
  redisPrefix: string;
  started: number;
}

/** What has been started so far, so that the clean-up stops exactly that. */
interface Started {
  services: Service[];
  proxies: RoundRobinProxy[];
  s3?: S3rver;
  mail?: MailCatcher;
}

/** The environment that differs from a cluster's, per service. */
interface LocalEnv {
  auth: Record<string, string>;
  push: Record<string, string>;
}

interface Ports {
  auth: number[];
  push: number[];
  worker: number[];
}

/** The command line, the run's names, its log directory and the state file for the script's trap. */
function prepareRun(argv: string[]): Run {
  const [root, authDir, pushDir, workDir] = argv.map((p) => resolve(p));
  if (!root || !authDir || !pushDir || !workDir) {
    throw new Error('usage: main.js ROOT AUTH_DIR PUSH_DIR WORK_DIR');
  }
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const name = `rehearsal_${stamp}_${Math.random().toString(36).slice(2, 6)}`;
  const db = { auth: `${name}_auth`, push: `${name}_push` };
  const redisPrefix = `${name}:`;
  const logDir = join(workDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  // For scripts/rehearse.sh's trap, should this process be killed before its own cleanup.
  writeFileSync(
    join(workDir, 'state.env'),
    `DATABASES="${db.auth} ${db.push}"\nREDIS_PREFIX="${redisPrefix}"\n`,
  );
  return { root, authDir, pushDir, workDir, logDir, name, db, redisPrefix, started: Date.now() };
}

/** s3rver with the one bucket; returns its endpoint. */
async function startS3(r: Run, started: Started): Promise<string> {
  started.s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: join(r.workDir, 's3'),
    silent: true,
    configureBuckets: [{ name: 'secret-push', configs: [] }],
  });
  const s3Address = await started.s3.run();
  return `http://127.0.0.1:${s3Address.port}`;
}

/**
 * A workload as the manifests describe it, its Secret volumes' files written (readable by the pod's
 * user) under the run's directory.
 */
function workload(
  r: Run,
  objects: K8sObject[],
  kind: 'Deployment' | 'Job',
  name: string,
  secrets: Record<string, string>,
): Workload {
  const w = workloadOf(objects, kind, name, secrets, join(r.workDir, 'secrets', name));
  for (const [path, content] of Object.entries(w.files)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content, { mode: 0o600 });
    if (asPodUser) {
      chownSync(dirname(path), asPodUser.uid, asPodUser.gid);
      chownSync(path, asPodUser.uid, asPodUser.gid);
    }
  }
  return w;
}

/** The Secrets' values known before the bootstrap: where the databases, Redis and SMTP are. */
function initialSecrets(r: Run, smtpUrl: string): Record<string, string> {
  return {
    'auth-secrets/smtp-url': smtpUrl,
    'push-secrets/smtp-url': smtpUrl,
    'auth-secrets/database-url': `${PG}/${r.db.auth}`,
    'auth-secrets/redis-url': REDIS_URL,
    // Needed by the migration Job, before the bootstrap: made here, as an operator would.
    'auth-secrets/data-keys': `k1:${randomBytes(32).toString('base64')}`,
    'push-secrets/database-url': `${PG}/${r.db.push}`,
    'push-secrets/redis-url': REDIS_URL,
    'push-secrets/s3-access-key-id': 'S3RVER',
    'push-secrets/s3-secret-access-key': 'S3RVER',
  };
}

/**
 * What differs from a cluster: addresses, the public URLs, the Redis prefix, the S3 endpoint,
 * and a 1 s sweep so that the expiry check does not wait a minute.
 */
function localEnv(r: Run, authUrl: string, pushUrl: string, s3Url: string): LocalEnv {
  return {
    auth: { AUTH_HOST: '127.0.0.1', AUTH_ISSUER: authUrl, AUTH_REDIS_PREFIX: `${r.redisPrefix}auth:` },
    push: {
      PUSH_HOST: '127.0.0.1',
      PUSH_WORKER_HOST: '127.0.0.1',
      PUSH_PUBLIC_URL: pushUrl,
      PUSH_AUTH_URL: authUrl,
      PUSH_REDIS_PREFIX: `${r.redisPrefix}push:`,
      PUSH_S3_ENDPOINT: s3Url,
      PUSH_S3_FORCE_PATH_STYLE: 'true',
      PUSH_SWEEP_INTERVAL_SECONDS: '1',
    },
  };
}

/** Migration Jobs, each twice at once (they must be safe when two run together). */
async function migrate(r: Run, objects: K8sObject[], secrets: Record<string, string>): Promise<void> {
  const jobs = (['auth', 'push'] as const).flatMap((svc) => {
    const w = workload(r, objects, 'Job', `${svc}-migrate`, secrets);
    const dir = svc === 'auth' ? r.authDir : r.pushDir;
    return [1, 2].map((i) => runToCompletion(`${svc}-migrate-${i}`, w.command, dir, w.env, r.logDir));
  });
  await Promise.all(jobs);
  log(`migrations: done (${Date.now() - r.started} ms)`);
}

/**
 * The compose bootstrap one-shot: keys and clients as files, handed over as the Secrets' values
 * (added to `secrets`). Returns a reader of the files it wrote.
 */
async function bootstrap(
  r: Run,
  objects: K8sObject[],
  secrets: Record<string, string>,
  local: LocalEnv,
): Promise<(name: string) => string> {
  const bootstrapDir = join(r.workDir, 'bootstrap');
  const authBase = workload(r, objects, 'Deployment', 'auth', {
    ...secrets,
    'auth-secrets/jwks': '',
    'auth-secrets/cookie-keys': '',
  });
  const {
    AUTH_JWKS: _j,
    AUTH_COOKIE_KEYS: _c,
    ...bootstrapEnv
  }: Record<string, string> = { ...authBase.env, ...local.auth };
  await runToCompletion(
    'bootstrap',
    ['sh', join(r.root, 'deploy/compose/bootstrap.sh')],
    r.authDir,
    { ...bootstrapEnv, BOOTSTRAP_DIR: bootstrapDir, APP_DIR: r.authDir },
    r.logDir,
  );
  const file = (name: string) => readFileSync(join(bootstrapDir, name), 'utf8').trim();
  Object.assign(secrets, {
    'auth-secrets/jwks': file('auth-jwks.json'),
    'auth-secrets/cookie-keys': file('auth-cookie-keys'),
    'push-secrets/encryption-keys': file('push-encryption-keys'),
    'push-secrets/introspection-client-id': file('push-client-id'),
    'push-secrets/introspection-client-secret': file('push-client-secret'),
  });
  return file;
}

/** The 2 auth and 2 worker processes, then (once those are ready) the 2 push API processes. */
async function startReplicas(
  r: Run,
  started: Started,
  objects: K8sObject[],
  secrets: Record<string, string>,
  local: LocalEnv,
  ports: Ports,
): Promise<void> {
  const [auth, push, worker] = (['auth', 'push', 'push-worker'] as const).map((name) =>
    workload(r, objects, 'Deployment', name, secrets),
  ) as [Workload, Workload, Workload];
  const start = (name: string, w: Workload, dir: string, env: Record<string, string>, readyUrl: string) => {
    const s = startProcess(name, w.command, dir, { ...w.env, ...env }, r.logDir, asPodUser);
    started.services.push(s);
    return waitReady(s, readyUrl);
  };
  const ready = (p: number) => `http://127.0.0.1:${p}/readyz`;
  await Promise.all([
    ...ports.auth.map((p, i) =>
      // Two replicas on one machine: each its own metrics port (the manifests' is fixed).
      start(
        `auth-${i + 1}`,
        auth,
        r.authDir,
        { ...local.auth, AUTH_PORT: String(p), AUTH_METRICS_PORT: '0' },
        ready(p),
      ),
    ),
    ...ports.worker.map((p, i) =>
      start(`worker-${i + 1}`, worker, r.pushDir, { ...local.push, PUSH_WORKER_PORT: String(p) }, ready(p)),
    ),
  ]);
  await Promise.all(
    ports.push.map((p, i) =>
      start(
        `push-${i + 1}`,
        push,
        r.pushDir,
        { ...local.push, PUSH_PORT: String(p), PUSH_METRICS_PORT: '0' },
        ready(p),
      ),
    ),
  );
}

/** Starts everything (recording it in `started`) and runs the smoke checks. */
async function rehearse(r: Run, started: Started): Promise<CheckResult[]> {
  const s3Url = await startS3(r, started);
  started.mail = await startMailCatcher();
  const objects = render(join(r.root, 'k8s/base'));
  const secrets = initialSecrets(r, started.mail.url);
  const ports: Ports = {
    auth: [await freePort(), await freePort()],
    push: [await freePort(), await freePort()],
    worker: [await freePort(), await freePort()],
  };
  const replicas = (list: number[]) => list.map((p) => `http://127.0.0.1:${p}`);
  started.proxies.push(await startRoundRobinProxy(replicas(ports.auth)));
  started.proxies.push(await startRoundRobinProxy(replicas(ports.push)));
  const [authProxy, pushProxy] = started.proxies as [RoundRobinProxy, RoundRobinProxy];
  const local = localEnv(r, authProxy.url, pushProxy.url, s3Url);
  log(
    `rehearsal ${r.name}: overrides of the manifests' environment: ${[...Object.keys(local.auth), ...Object.keys(local.push)].join(', ')}`,
  );

  await migrate(r, objects, secrets);
  const file = await bootstrap(r, objects, secrets, local);
  await startReplicas(r, started, objects, secrets, local, ports);
  log(
    `6 processes ready${asPodUser ? ' (uid 1000)' : ''} (${Date.now() - r.started} ms); auth ${authProxy.url}, push ${pushProxy.url}`,
  );

  const results = await runSmoke({
    authReplicas: replicas(ports.auth),
    pushReplicas: replicas(ports.push),
    workerReplicas: replicas(ports.worker),
    authProxy: authProxy.url,
    pushProxy: pushProxy.url,
    demo: { clientId: file('demo-client-id'), clientSecret: file('demo-client-secret') },
    pushDatabaseUrl: `${PG}/${r.db.push}`,
    redisUrl: REDIS_URL,
  });
  log(`proxied requests per replica: auth ${authProxy.counts.join('/')}, push ${pushProxy.counts.join('/')}`);
  log(`emails caught by the SMTP catcher (${started.mail.url}): ${started.mail.messages.length}`);
  return results;
}

/** Stops what was started and drops what was created, whatever happened; adds its own checks. */
async function cleanUp(r: Run, started: Started, results: CheckResult[]): Promise<void> {
  const { services } = started;
  const codes = await Promise.all(services.map((s) => stopProcess(s)));
  const unclean = services.flatMap((s, i) => (codes[i] === 0 ? [] : [`${s.name} exited with ${codes[i]}`]));
  if (services.length > 0) {
    results.push({ name: `all ${services.length} processes stop cleanly on SIGTERM`, problems: unclean });
  }
  await Promise.all(started.proxies.map((p) => p.close()));
  await started.s3?.close().catch(() => undefined);
  await started.mail?.close().catch(() => undefined);
  await dropEverything(Object.values(r.db), r.redisPrefix).catch((err: Error) =>
    results.push({ name: 'clean-up', problems: [err.message] }),
  );
  log(
    `clean-up: stopped ${services.length} processes, dropped ${Object.values(r.db).join(', ')} and ${r.redisPrefix}* (${Date.now() - r.started} ms in all)`,
  );
}

async function main(): Promise<boolean> {
  const r = prepareRun(process.argv.slice(2));
  const started: Started = { services: [], proxies: [] };
  const results: CheckResult[] = [];
  try {
    results.push(...(await rehearse(r, started)));
  } catch (err) {
    results.push({ name: 'rehearsal set-up', problems: [(err as Error).message] });
  } finally {
    await cleanUp(r, started, results);
  }
  const ok = printReport(results, log, 'rehearsal');
  if (ok) rmSync(r.workDir, { recursive: true, force: true });
  else log(`logs kept in ${r.logDir}`);
  return ok;
}

async function dropEverything(databases: string[], redisPrefix: string): Promise<void> {
  const pg = new Client({ connectionString: `${PG}/postgres` });
  await pg.connect();
  try {
    for (const name of databases) await pg.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await pg.end();
  }
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

main().then(
  (ok) => {
    process.exitCode = ok ? 0 : 1;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  },
);
