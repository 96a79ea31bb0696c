/**
 * The multi-replica rehearsal (scripts/rehearse.sh builds the images' file trees first): 2 auth,
 * 2 push API and 2 worker processes, started with the commands and environment of the rendered
 * k8s/base manifests, behind one round-robin proxy per Service, on local PostgreSQL (fresh
 * databases), Redis (a unique prefix) and s3rver; then the smoke checks; then everything is
 * stopped and dropped again, whatever happened.
 *   node deploy/dist/rehearsal/main.js REPO_ROOT AUTH_APP_DIR PUSH_APP_DIR WORK_DIR
 */
import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import S3rver from 's3rver';
import { freePort } from '@secret-push/testing';
import { render } from '../validate/kubernetes';
import { type CheckResult, printReport } from '../validate/report';
import { workloadOf } from './manifest-env';
import { type Service, runToCompletion, startProcess, stopProcess, waitReady } from './processes';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy';
import { runSmoke } from './smoke';

const PG = process.env.REHEARSAL_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.REHEARSAL_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = (line: string) => console.log(line);
/** The manifests' runAsUser/runAsGroup: when run as root, the services drop to it (the app trees stay root's). */
const asPodUser = process.getuid?.() === 0 ? { uid: 1000, gid: 1000 } : undefined;

async function main(): Promise<boolean> {
  const [root, authDir, pushDir, workDir] = process.argv.slice(2).map((p) => resolve(p));
  if (!root || !authDir || !pushDir || !workDir) {
    throw new Error('usage: main.js ROOT AUTH_DIR PUSH_DIR WORK_DIR');
  }
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const run = `rehearsal_${stamp}_${Math.random().toString(36).slice(2, 6)}`;
  const db = { auth: `${run}_auth`, push: `${run}_push` };
  const redisPrefix = `${run}:`;
  const logDir = join(workDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  // For scripts/rehearse.sh's trap, should this process be killed before its own cleanup.
  writeFileSync(
    join(workDir, 'state.env'),
    `DATABASES="${db.auth} ${db.push}"\nREDIS_PREFIX="${redisPrefix}"\n`,
  );

  const services: Service[] = [];
  const proxies: RoundRobinProxy[] = [];
  let s3: S3rver | undefined;
  const results: CheckResult[] = [];
  const started = Date.now();
  try {
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      directory: join(workDir, 's3'),
      silent: true,
      configureBuckets: [{ name: 'secret-push', configs: [] }],
    });
    const s3Address = await s3.run();
    const s3Url = `http://127.0.0.1:${s3Address.port}`;

    const objects = render(join(root, 'k8s/base'));
    const bootstrapDir = join(workDir, 'bootstrap');
    const secrets: Record<string, string> = {
      'auth-secrets/database-url': `${PG}/${db.auth}`,
      'auth-secrets/redis-url': REDIS_URL,
      'push-secrets/database-url': `${PG}/${db.push}`,
      'push-secrets/redis-url': REDIS_URL,
      'push-secrets/s3-access-key-id': 'S3RVER',
      'push-secrets/s3-secret-access-key': 'S3RVER',
    };
    const authPorts = [await freePort(), await freePort()];
    const pushPorts = [await freePort(), await freePort()];
    const workerPorts = [await freePort(), await freePort()];
    proxies.push(await startRoundRobinProxy(authPorts.map((p) => `http://127.0.0.1:${p}`)));
    proxies.push(await startRoundRobinProxy(pushPorts.map((p) => `http://127.0.0.1:${p}`)));
    const [authProxy, pushProxy] = proxies as [RoundRobinProxy, RoundRobinProxy];

    // What differs from a cluster: addresses, the public URLs, the Redis prefix, the S3 endpoint,
    // and a 1 s sweep so that the expiry check does not wait a minute.
    const local = {
      auth: { AUTH_HOST: '127.0.0.1', AUTH_ISSUER: authProxy.url, AUTH_REDIS_PREFIX: `${redisPrefix}auth:` },
      push: {
        PUSH_HOST: '127.0.0.1',
        PUSH_WORKER_HOST: '127.0.0.1',
        PUSH_PUBLIC_URL: pushProxy.url,
        PUSH_AUTH_URL: authProxy.url,
        PUSH_REDIS_PREFIX: `${redisPrefix}push:`,
        PUSH_S3_ENDPOINT: s3Url,
        PUSH_S3_FORCE_PATH_STYLE: 'true',
        PUSH_SWEEP_INTERVAL_SECONDS: '1',
      },
    };
    log(
      `rehearsal ${run}: overrides of the manifests' environment: ${[...Object.keys(local.auth), ...Object.keys(local.push)].join(', ')}`,
    );

    // Migration Jobs, each twice at once (they must be safe when two run together).
    const jobs = (['auth', 'push'] as const).flatMap((svc) => {
      const w = workloadOf(objects, 'Job', `${svc}-migrate`, secrets);
      const dir = svc === 'auth' ? authDir : pushDir;
      return [1, 2].map((i) => runToCompletion(`${svc}-migrate-${i}`, w.command, dir, w.env, logDir));
    });
    await Promise.all(jobs);
    log(`migrations: done (${Date.now() - started} ms)`);

    // The compose bootstrap one-shot: keys and clients as files, handed over as the Secrets' values.
    const authBase = workloadOf(objects, 'Deployment', 'auth', {
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
      ['sh', join(root, 'deploy/compose/bootstrap.sh')],
      authDir,
      { ...bootstrapEnv, BOOTSTRAP_DIR: bootstrapDir, APP_DIR: authDir },
      logDir,
    );
    const file = (name: string) => readFileSync(join(bootstrapDir, name), 'utf8').trim();
    Object.assign(secrets, {
      'auth-secrets/jwks': file('auth-jwks.json'),
      'auth-secrets/cookie-keys': file('auth-cookie-keys'),
      'push-secrets/encryption-keys': file('push-encryption-keys'),
      'push-secrets/introspection-client-id': file('push-client-id'),
      'push-secrets/introspection-client-secret': file('push-client-secret'),
    });

    const auth = workloadOf(objects, 'Deployment', 'auth', secrets);
    const push = workloadOf(objects, 'Deployment', 'push', secrets);
    const worker = workloadOf(objects, 'Deployment', 'push-worker', secrets);
    const start = (
      name: string,
      w: typeof auth,
      dir: string,
      env: Record<string, string>,
      readyUrl: string,
    ) => {
      const s = startProcess(name, w.command, dir, { ...w.env, ...env }, logDir, asPodUser);
      services.push(s);
      return waitReady(s, readyUrl);
    };
    await Promise.all([
      ...authPorts.map((p, i) =>
        start(
          `auth-${i + 1}`,
          auth,
          authDir,
          // Two replicas on one machine: each its own metrics port (the manifests' is fixed).
          { ...local.auth, AUTH_PORT: String(p), AUTH_METRICS_PORT: '0' },
          `http://127.0.0.1:${p}/readyz`,
        ),
      ),
      ...workerPorts.map((p, i) =>
        start(
          `worker-${i + 1}`,
          worker,
          pushDir,
          { ...local.push, PUSH_WORKER_PORT: String(p) },
          `http://127.0.0.1:${p}/readyz`,
        ),
      ),
    ]);
    await Promise.all(
      pushPorts.map((p, i) =>
        start(
          `push-${i + 1}`,
          push,
          pushDir,
          { ...local.push, PUSH_PORT: String(p), PUSH_METRICS_PORT: '0' },
          `http://127.0.0.1:${p}/readyz`,
        ),
      ),
    );
    log(
      `6 processes ready${asPodUser ? ' (uid 1000)' : ''} (${Date.now() - started} ms); auth ${authProxy.url}, push ${pushProxy.url}`,
    );

    results.push(
      ...(await runSmoke({
        authReplicas: authPorts.map((p) => `http://127.0.0.1:${p}`),
        pushReplicas: pushPorts.map((p) => `http://127.0.0.1:${p}`),
        workerReplicas: workerPorts.map((p) => `http://127.0.0.1:${p}`),
        authProxy: authProxy.url,
        pushProxy: pushProxy.url,
        demo: { clientId: file('demo-client-id'), clientSecret: file('demo-client-secret') },
        pushDatabaseUrl: `${PG}/${db.push}`,
        redisUrl: REDIS_URL,
      })),
    );
    log(
      `proxied requests per replica: auth ${authProxy.counts.join('/')}, push ${pushProxy.counts.join('/')}`,
    );
  } catch (err) {
    results.push({ name: 'rehearsal set-up', problems: [(err as Error).message] });
  } finally {
    const codes = await Promise.all(services.map((s) => stopProcess(s)));
    const unclean = services
      .filter((_s, i) => codes[i] !== 0)
      .map((s, i) => `${s.name} exited with ${codes[i]}`);
    if (services.length > 0) {
      results.push({ name: `all ${services.length} processes stop cleanly on SIGTERM`, problems: unclean });
    }
    await Promise.all(proxies.map((p) => p.close()));
    await s3?.close().catch(() => undefined);
    await dropEverything(Object.values(db), redisPrefix).catch((err: Error) =>
      results.push({ name: 'clean-up', problems: [err.message] }),
    );
    log(
      `clean-up: stopped ${services.length} processes, dropped ${Object.values(db).join(', ')} and ${redisPrefix}* (${Date.now() - started} ms in all)`,
    );
  }
  const ok = printReport(results, log, 'rehearsal');
  if (ok) rmSync(workDir, { recursive: true, force: true });
  else log(`logs kept in ${logDir}`);
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
