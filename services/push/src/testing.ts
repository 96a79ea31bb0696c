import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type ClientCredentials, type TestAuth, startAuth } from '@secret-push/auth/testing';
import { createKysely } from '@secret-push/db-kit';
import { type Logger, createLogger } from '@secret-push/logger';
import {
  type LocalS3,
  REDIS_URL,
  deleteRedisKeys,
  freePort,
  freshDatabase,
  startS3,
  uniquePrefix,
} from '@secret-push/testing';
import { runCli } from './cli/run-cli';
import { loadPushConfig } from './config';
import { type PushServer, startPushServer } from './server';
import { type WorkerService, startWorker } from './worker-server';
import { loadWorkerConfig } from './config';
import type { PushDatabase } from './storage/database';
import { pushMigrations } from './storage/migrations';

export interface TestPush {
  url: string;
  /** The metrics port: `/metrics` is served there only (the main port answers 404). */
  metricsUrl: string;
  env: Record<string, string>;
  db: Kysely<PushDatabase>;
  server: PushServer;
  /** The operator CLI (`secret-push-push`) against this push's database, in-process. */
  cli(...argv: string[]): Promise<{ code: number; out: string; err: string }>;
  stop(): Promise<void>;
}

export const testEncryptionKey = () =>
  `test-${randomBytes(3).toString('hex')}:${randomBytes(32).toString('base64')}`;

/**
 * A push API in-process on a free port, against its own database and Redis prefix, introspecting
 * tokens at a real auth service. `env` overrides any variable (a shared database, another Redis, …).
 */
export async function startPush(
  auth: Pick<TestAuth, 'issuer' | 'resourceServer'>,
  options: { env?: Record<string, string>; logger?: Logger; database?: { url: string } } = {},
): Promise<TestPush> {
  const database = options.database ? undefined : await freshDatabase<PushDatabase>('push', pushMigrations);
  const dbUrl = options.database?.url ?? database!.url;
  const port = await freePort();
  const prefix = uniquePrefix('push');
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUSH_HOST: '127.0.0.1',
    PUSH_PORT: String(port),
    PUSH_METRICS_PORT: '0',
    PUSH_DATABASE_URL: dbUrl,
    PUSH_DATABASE_POOL_SIZE: '5',
    PUSH_REDIS_URL: REDIS_URL,
    PUSH_REDIS_PREFIX: prefix,
    PUSH_AUTH_URL: auth.issuer,
    PUSH_INTROSPECTION_CLIENT_ID: auth.resourceServer.client_id,
    PUSH_INTROSPECTION_CLIENT_SECRET: auth.resourceServer.client_secret,
    PUSH_ENCRYPTION_KEYS: testEncryptionKey(),
    // Test files create many pushes from one address; tests of the limits set their own.
    PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '100000',
    PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE: '100000',
    PUSH_RATE_LIMIT_INVALID_TOKENS_PER_MINUTE: '100000',
    // The pseudo-locale `en-XA` too: tests find text that bypasses the catalogues with it.
    I18N_PSEUDO_LOCALE: 'true',
    ...options.env,
  };
  const config = loadPushConfig(env);
  const server = await startPushServer(
    config,
    options.logger ?? createLogger({ name: 'push', level: 'silent' }),
  );
  const db = database?.db ?? createKysely<PushDatabase>({ url: dbUrl, poolSize: 2 });
  return {
    url: server.url,
    metricsUrl: server.metricsUrl,
    env,
    db,
    server,
    async cli(...argv) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l) });
      return { code, out: out.join('\n'), err: err.join('\n') };
    },
    async stop() {
      await server.close();
      if (database) await database.drop();
      else await db.destroy();
      await deleteRedisKeys(REDIS_URL, prefix);
    },
  };
}

/**
 * A worker in-process on the same database, Redis prefix and object store as `push`,
 * ticking every 250 ms (the default) and sweeping stale uploads hourly unless `env` says otherwise.
 * Where `push` sends email (PUSH_SMTP_URL), so does the worker: the same SMTP settings and keys, its
 * links based on the push API's URL, a round every 200 ms.
 */
export function startTestWorker(push: TestPush, env: Record<string, string> = {}): Promise<WorkerService> {
  const shared = Object.entries(push.env).filter(
    ([k]) =>
      k.startsWith('PUSH_S3_') ||
      k.startsWith('PUSH_SMTP_') ||
      k.startsWith('PUSH_MAIL_') ||
      ['PUSH_DATABASE_URL', 'PUSH_REDIS_URL', 'PUSH_REDIS_PREFIX', 'PUSH_ENCRYPTION_KEYS'].includes(k),
  );
  const email: Record<string, string> = push.env.PUSH_SMTP_URL
    ? { PUSH_PUBLIC_URL: push.env.PUSH_PUBLIC_URL ?? push.url, PUSH_EMAIL_SEND_INTERVAL_MS: '200' }
    : {};
  return startWorker(
    loadWorkerConfig({
      LOG_LEVEL: 'silent',
      ...Object.fromEntries(shared),
      ...email,
      PUSH_WORKER_PORT: '0',
      PUSH_SWEEP_INTERVAL_SECONDS: '3600',
      ...env,
    }),
    createLogger({ name: 'worker', level: 'silent' }),
  );
}

/** Everything a client of the API needs in a test: see {@link startStack}. */
export interface TestStack {
  auth: TestAuth;
  s3: LocalS3;
  push: TestPush;
  /** A client of the auth service with `pushes:read pushes:write`. */
  credentials: ClientCredentials;
  stop(): Promise<void>;
}

/**
 * The whole system for tests of its clients (the SDK, the CLI): a real auth service, a private
 * s3rver, a push API with file pushes on, and a client with both scopes. `authEnv` and `pushEnv`
 * override variables of either service.
 */
export async function startStack(
  options: { authEnv?: Record<string, string>; pushEnv?: Record<string, string> } = {},
): Promise<TestStack> {
  const auth = await startAuth({ env: options.authEnv ?? {} });
  const s3 = await startS3();
  const push = await startPush(auth, { env: { ...s3.env, ...options.pushEnv } });
  const credentials = await auth.createClient('pushes:read pushes:write');
  return {
    auth,
    s3,
    push,
    credentials,
    async stop() {
      await push.stop();
      await s3.close();
      await auth.stop();
    },
  };
}

/** The web app wired as `make up` wires it: see {@link startWebStack}. */
export interface TestWebStack {
  auth: TestAuth;
  push: TestPush;
  /** A user of the auth service (`users create`), to sign in with. */
  user: { email: string; password: string };
  /** The object store of file pushes, when started with `files: true`. */
  s3?: LocalS3;
  stop(): Promise<void>;
}

/**
 * The auth service as the web app's OpenID provider (a first-party web client made with
 * `clients create-web`, a user made with `users create`) and a push service signing people in
 * with it; with `files`, a private s3rver too (file pushes on). `pushEnv` overrides variables of
 * the push service; `logger` is its logger (silent by default).
 */
export async function startWebStack(
  options: {
    pushEnv?: Record<string, string>;
    authEnv?: Record<string, string>;
    files?: boolean;
    logger?: Logger;
  } = {},
): Promise<TestWebStack> {
  const port = await freePort();
  const pushUrl = `http://127.0.0.1:${port}`;
  // The sign-in service's pages lead back to the web app, as `make up` sets it.
  const auth = await startAuth({ env: { AUTH_APP_URL: `${pushUrl}/`, ...options.authEnv } });
  const s3 = options.files ? await startS3() : undefined;
  const web = await auth.cli(
    'clients',
    'create-web',
    '--name',
    'secret-push',
    '--redirect-uri',
    `${pushUrl}/sign-in/callback`,
    '--post-logout-redirect-uri',
    `${pushUrl}/signed-out`,
    '--json',
  );
  if (web.code !== 0) throw new Error(`clients create-web failed: ${web.err}`);
  const client = JSON.parse(web.out) as ClientCredentials;
  const created = await auth.cli('users', 'create', '--email', 'demo@example.org', '--json');
  if (created.code !== 0) throw new Error(`users create failed: ${created.err}`);
  const user = JSON.parse(created.out) as { email: string; password: string };
  const push = await startPush(auth, {
    env: {
      PUSH_PORT: String(port),
      PUSH_OIDC_ISSUER: auth.issuer,
      PUSH_OIDC_CLIENT_ID: client.client_id,
      PUSH_OIDC_CLIENT_SECRET: client.client_secret,
      ...s3?.env,
      ...options.pushEnv,
    },
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    auth,
    push,
    user,
    ...(s3 ? { s3 } : {}),
    async stop() {
      await push.stop();
      await s3?.close();
      await auth.stop();
    },
  };
}
