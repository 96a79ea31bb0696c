import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import type { PushDatabase } from '../../storage/database';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook';
import { createWebhook, direct, requestToken, viaProxy } from './api';
import { DEADLINE_ENV } from './deadlines';
import { json } from './http-client';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres';
import { type PrivateRedis, startPrivateRedis } from './private-redis';
import { type PrivateS3, S3_BUCKET, startPrivateS3 } from './private-s3';
import { reservePorts } from './ports';
import { Child, httpAnswers, runOnce, signalTree, waitFor } from './processes';
import { type TcpProxy, startTcpProxy } from './proxy';
import { type WebhookReceiver, startWebhookReceiver } from './webhook-receiver';

/*
 * Everything the fault suite runs, started once: a private PostgreSQL, Redis and s3rver, the auth
 * service, two push API replicas and one expiry worker, all child processes run from their dist/
 * builds (`tsc -b` first) with production settings and the suite's short deadlines; TCP proxies
 * in front of the auth service, the push replicas (round robin) and s3rver. The services reach
 * auth and S3 through those proxies; the load generator reaches the push API and the token endpoint
 * through them too. A webhook receiver in this process, and one enabled endpoint of the suite's
 * client (the owner of the pushes the load creates with a token) subscribed to every event type,
 * created before the load starts; the worker may send to 127.0.0.1 over http.
 */

export const ROOT = resolve(__dirname, '../../../../..');

export interface Credentials {
  client_id: string;
  client_secret: string;
}

export interface NodeService {
  name: string;
  port: number;
  url: string;
  child: Child;
  /** Starts the process (again) and waits until it answers /healthz (listening). */
  start(): Promise<void>;
  ready(): Promise<boolean>;
}

export interface Stack {
  workDir: string;
  logDir: string;
  pg: PrivatePostgres;
  redis: PrivateRedis;
  s3: PrivateS3;
  auth: NodeService;
  /** The two push API replicas: index i is the push proxy's upstream i. */
  push: [NodeService, NodeService];
  worker: NodeService;
  proxies: { push: TcpProxy; auth: TcpProxy; s3: TcpProxy };
  /** A client with pushes:read pushes:write (client credentials). */
  client: Credentials;
  /**
   * The owner of the requests (issue 28) the load makes, and of nothing else: every push it owns
   * is an answer push, so answers can be counted (never lost, never doubled).
   */
  requester: Credentials;
  /** The webhook receiver; the client's endpoint sends it every event of the client's pushes. */
  receiver: WebhookReceiver;
  /** That endpoint. */
  webhook: { id: string; owner: string };
  /** The suite's own connection to the push database (checks only). */
  db: Kysely<PushDatabase>;
  children(): Child[];
  /** Stops everything; the work folder (logs) is kept when `keep`. */
  stop(keep: boolean): Promise<void>;
}

const nodeService = (
  name: string,
  script: string,
  port: number,
  env: Record<string, string>,
  logDir: string,
): NodeService => {
  const child = new Child(
    { name, command: process.execPath, args: [join(ROOT, script)], env, cwd: ROOT },
    logDir,
  );
  const url = `http://127.0.0.1:${port}`;
  return {
    name,
    port,
    url,
    child,
    async start() {
      child.start();
      const up = await waitFor(
        async () => !child.running || (await httpAnswers(`${url}/healthz`, (s) => s === 200, 1000)),
        30_000,
      );
      if (!child.running) throw new Error(`${name} exited at start-up (see ${logDir}/${name}.log)`);
      if (!up) throw new Error(`${name} did not start (see ${logDir}/${name}.log)`);
    },
    ready: () => httpAnswers(`${url}/readyz`, (s) => s === 200, 2000),
  };
};

function generateJwks(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `faults-${randomBytes(4).toString('hex')}`;
  return JSON.stringify({
    keys: [{ ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }],
  });
}

const SCRIPTS = [
  'services/auth/dist/main.js',
  'services/auth/dist/main-migrate.js',
  'services/auth/dist/cli/main.js',
  'services/push/dist/main-api.js',
  'services/push/dist/main-worker.js',
  'services/push/dist/main-migrate.js',
  'packages/testing/dist/local-s3.js',
];

export async function startStack(log: (line: string) => void): Promise<Stack> {
  const missing = SCRIPTS.filter((s) => !existsSync(join(ROOT, s)));
  if (missing.length > 0) throw new Error(`build first (pnpm exec tsc -b): missing ${missing.join(', ')}`);
  const workDir = mkdtempSync(join(tmpdir(), 'sp-faults-'));
  const logDir = join(workDir, 'logs');
  mkdirSync(logDir);
  const port = await reservePorts(14);
  const ports = {
    pg: port[0]!,
    redis: port[1]!,
    s3: port[2]!,
    auth: port[3]!,
    push: [port[4]!, port[5]!],
    worker: port[6]!,
    metrics: { auth: port[7]!, push: [port[8]!, port[9]!] },
    proxies: { auth: port[10]!, push: port[11]!, s3: port[12]! },
    receiver: port[13]!,
  };
  const started = Date.now();
  const children: Child[] = [];
  // Whatever happens to the test runner, no child outlives it (they run detached).
  const killAll = () => {
    for (const c of children) if (c.pid !== undefined) signalTree(c.pid, 'SIGKILL');
  };
  process.once('exit', killAll);

  const parts: Partial<Stack> = { workDir, logDir };
  const cleanUp = async (keep: boolean) => {
    process.off('exit', killAll);
    await parts.db?.destroy().catch(() => undefined);
    const services = [parts.worker, ...(parts.push ?? []), parts.auth].filter((s) => s !== undefined);
    await Promise.all(services.map((s) => s.child.stop(5000).catch(() => undefined)));
    await Promise.all([parts.pg?.destroy(), parts.redis?.destroy(), parts.s3?.destroy()]);
    await Promise.all(Object.values(parts.proxies ?? {}).map((p) => p.close()));
    await parts.receiver?.stop();
    killAll();
    if (!keep) rmSync(workDir, { recursive: true, force: true });
  };

  try {
    const [pg, redis, s3] = await Promise.all([
      startPrivatePostgres(ports.pg, logDir),
      startPrivateRedis(ports.redis, logDir),
      startPrivateS3(ROOT, ports.s3, logDir),
    ]);
    Object.assign(parts, { pg, redis, s3 });
    children.push(pg.child, redis.child, s3.child);
    log(
      `private PostgreSQL :${pg.port}, Redis :${redis.port}, s3rver :${s3.port} (${Date.now() - started} ms)`,
    );

    const proxies = {
      auth: await startTcpProxy('auth', ports.proxies.auth, [ports.auth]),
      push: await startTcpProxy('push', ports.proxies.push, ports.push),
      s3: await startTcpProxy('s3', ports.proxies.s3, [ports.s3]),
    };
    parts.proxies = proxies;

    const authDb = pg.url('faults_auth');
    const pushDb = pg.url('faults_push');
    const node = process.execPath;
    // The auth service's data key: its migrate command seals TOTP secrets with it.
    const authDataKeys = `faults:${randomBytes(32).toString('base64')}`;
    await Promise.all([
      runOnce(node, [join(ROOT, 'services/auth/dist/main-migrate.js')], {
        env: { AUTH_DATABASE_URL: authDb, AUTH_DATA_KEYS: authDataKeys },
      }),
      runOnce(node, [join(ROOT, 'services/push/dist/main-migrate.js')], {
        env: { PUSH_DATABASE_URL: pushDb },
      }),
    ]);

    const authEnv: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      AUTH_HOST: '127.0.0.1',
      AUTH_PORT: String(ports.auth),
      // The separate metrics/operations port (the suite checks the main port's /healthz, /readyz).
      AUTH_METRICS_PORT: String(ports.metrics.auth),
      AUTH_ISSUER: proxies.auth.url,
      AUTH_DATABASE_URL: authDb,
      AUTH_REDIS_URL: redis.url,
      AUTH_REDIS_PREFIX: 'faults:auth:',
      AUTH_JWKS: generateJwks(),
      AUTH_COOKIE_KEYS: randomBytes(32).toString('base64url'),
      AUTH_DATA_KEYS: authDataKeys,
      ...DEADLINE_ENV.auth,
    };
    const cli = async (...argv: string[]) =>
      JSON.parse(
        await runOnce(node, [join(ROOT, 'services/auth/dist/cli/main.js'), ...argv], { env: authEnv }),
      ) as Credentials;
    const [resourceServer, client, requester] = await Promise.all([
      cli('clients', 'create-resource-server', '--name', 'push-api', '--json'),
      cli('clients', 'create', '--name', 'faults', '--scopes', 'pushes:read pushes:write', '--json'),
      cli(
        'clients',
        'create',
        '--name',
        'faults requester',
        '--scopes',
        'pushes:read pushes:write',
        '--json',
      ),
    ]);
    log(`migrations and clients (${Date.now() - started} ms)`);

    const storage: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PUSH_DATABASE_URL: pushDb,
      PUSH_DATABASE_POOL_SIZE: '10',
      PUSH_REDIS_URL: redis.url,
      PUSH_REDIS_PREFIX: 'faults:push:',
      PUSH_S3_ENDPOINT: proxies.s3.url,
      PUSH_S3_REGION: 'us-east-1',
      PUSH_S3_BUCKET: S3_BUCKET,
      PUSH_S3_ACCESS_KEY_ID: 'S3RVER',
      PUSH_S3_SECRET_ACCESS_KEY: 'S3RVER',
      PUSH_S3_FORCE_PATH_STYLE: 'true',
      ...DEADLINE_ENV.push,
    };
    // The API accepts the receiver's http:// URL; the worker may send to it (a private address).
    const webhooks: Record<string, string> = {
      PUSH_WEBHOOK_ALLOW_HTTP: 'true',
      PUSH_WEBHOOK_ALLOWED_DESTINATIONS: '127.0.0.1',
    };
    const pushEnv = (port: number, metricsPort: number): Record<string, string> => ({
      ...storage,
      ...webhooks,
      PUSH_HOST: '127.0.0.1',
      PUSH_PORT: String(port),
      PUSH_METRICS_PORT: String(metricsPort),
      PUSH_PUBLIC_URL: proxies.push.url,
      PUSH_AUTH_URL: proxies.auth.url,
      PUSH_INTROSPECTION_CLIENT_ID: resourceServer.client_id,
      PUSH_INTROSPECTION_CLIENT_SECRET: resourceServer.client_secret,
      PUSH_ENCRYPTION_KEYS: `faults:${randomBytes(32).toString('base64')}`,
      // One load generator on one address: the general limits would only measure themselves. The
      // per-push passphrase limit (5 a minute) stays as configured by default.
      PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '1000000',
      PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE: '1000000',
      PUSH_PASSPHRASE_ATTEMPTS_PER_IP: '100000',
      // Requests: the answers per caller (the load is one address); per request stays as configured.
      PUSH_RATE_LIMIT_ANSWERS_PER_MINUTE: '1000000',
    });
    const keys = pushEnv(0, 0).PUSH_ENCRYPTION_KEYS!; // both replicas share the key ring
    const auth = nodeService('auth', 'services/auth/dist/main.js', ports.auth, authEnv, logDir);
    const push: [NodeService, NodeService] = [
      nodeService(
        'push-1',
        'services/push/dist/main-api.js',
        ports.push[0]!,
        { ...pushEnv(ports.push[0]!, ports.metrics.push[0]!), PUSH_ENCRYPTION_KEYS: keys },
        logDir,
      ),
      nodeService(
        'push-2',
        'services/push/dist/main-api.js',
        ports.push[1]!,
        { ...pushEnv(ports.push[1]!, ports.metrics.push[1]!), PUSH_ENCRYPTION_KEYS: keys },
        logDir,
      ),
    ];
    const worker = nodeService(
      'worker',
      'services/push/dist/main-worker.js',
      ports.worker,
      {
        ...storage,
        ...webhooks,
        PUSH_ENCRYPTION_KEYS: keys,
        PUSH_WORKER_HOST: '127.0.0.1',
        PUSH_WORKER_PORT: String(ports.worker),
        // The sweep every second: expiries missed while Redis was down are caught up quickly.
        PUSH_SWEEP_INTERVAL_SECONDS: '1',
      },
      logDir,
    );
    Object.assign(parts, { auth, push, worker });
    children.push(auth.child, push[0].child, push[1].child, worker.child);
    await auth.start();
    await Promise.all([push[0].start(), push[1].start(), worker.start()]);
    const allReady = await waitFor(
      async () => (await Promise.all([auth, ...push, worker].map((s) => s.ready()))).every(Boolean),
      30_000,
      200,
    );
    if (!allReady) throw new Error('the services did not become ready');
    log(`auth, 2 push replicas and the worker ready (${Date.now() - started} ms)`);

    const db = createKysely<PushDatabase>({ url: pushDb, poolSize: 2, connectTimeoutMs: 2000 });
    parts.db = db;

    const receiver = await startWebhookReceiver(ports.receiver);
    parts.receiver = receiver;
    const webhook = await clientEndpoint(proxies.auth, ports.push[0]!, client, receiver);
    log(`webhook endpoint of the client to ${receiver.url} (${Date.now() - started} ms)`);
    return {
      workDir,
      logDir,
      pg,
      redis,
      s3,
      auth,
      push,
      worker,
      proxies,
      client,
      requester,
      receiver,
      webhook,
      db,
      children: () => [...children],
      stop: cleanUp,
    };
  } catch (err) {
    await cleanUp(true);
    throw new Error(`${(err as Error).message} (logs in ${logDir})`, { cause: err });
  }
}

/** The client's webhook endpoint to `receiver`, every event type; the receiver is given its secret. */
async function clientEndpoint(
  authProxy: TcpProxy,
  pushPort: number,
  client: Credentials,
  receiver: WebhookReceiver,
): Promise<{ id: string; owner: string }> {
  const t = await requestToken(viaProxy(authProxy), client, 5000);
  const token = json(t)?.access_token;
  if (typeof token !== 'string') throw new Error(`token request failed: ${t.status ?? t.error}`);
  const made = await createWebhook(
    direct(pushPort),
    { url: receiver.url, eventTypes: WEBHOOK_EVENT_TYPES },
    token,
    5000,
  );
  const body = json(made);
  if (made.status !== 201 || typeof body?.id !== 'string' || typeof body.secret !== 'string') {
    throw new Error(`webhook endpoint not created: ${made.status ?? made.error} ${made.body.toString()}`);
  }
  receiver.secret = body.secret;
  return { id: body.id, owner: `client:${client.client_id}` };
}
