import { randomBytes } from 'node:crypto';
import { REDIS_URL, freePort } from '@secret-push/testing';
import { cli } from './auth-client';
import type { Proc } from './processes';

export interface ServiceStack {
  auth: Proc;
  push: Proc;
  /** The worker, when asked for (`worker: true`), ticking as in `make up`. */
  worker?: Proc;
  /** A client with pushes:read and pushes:write. */
  client: Credentials;
  /** The push service's introspection credentials. */
  resourceServer: Credentials;
  /** The push API's environment, to start another one like it (another port, another Redis). */
  pushEnv: Record<string, string>;
}

interface Credentials {
  client_id: string;
  client_secret: string;
}

/**
 * The auth service and the push API in production mode, one process each, on free ports, with
 * the push service's resource-server client and one bench client created through the operator
 * CLI. `start` launches (and records, for clean-up) each process; `pushEnv` adds to the push
 * API's environment (limits, object store, …).
 */
export async function startServiceStack(options: {
  authDb: string;
  pushDb: string;
  redisPrefix: string;
  logLevel: string;
  pushEnv?: Record<string, string>;
  /** Also start the worker (main-worker.js) on the push database. */
  worker?: boolean;
  start(script: string, env: Record<string, string>, readyUrl: string): Promise<Proc>;
}): Promise<ServiceStack> {
  const ports = { auth: await freePort(), push: await freePort() };
  const authEnv: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: options.logLevel,
    AUTH_PORT: String(ports.auth),
    AUTH_METRICS_PORT: '0', // beside a running `make up`
    AUTH_ISSUER: `http://127.0.0.1:${ports.auth}`,
    AUTH_DATABASE_URL: options.authDb,
    AUTH_REDIS_URL: REDIS_URL,
    AUTH_REDIS_PREFIX: `${options.redisPrefix}auth:`,
    AUTH_JWKS: await cli({}, 'keys', 'generate'),
    AUTH_COOKIE_KEYS: randomBytes(32).toString('hex'),
    AUTH_DATA_KEYS: `bench:${randomBytes(32).toString('base64')}`,
  };
  const json = async (...argv: string[]) => JSON.parse(await cli(authEnv, ...argv)) as Credentials;
  const rs = await json('clients', 'create-resource-server', '--name', 'push-api', '--json');
  const client = await json(
    'clients',
    'create',
    '--name',
    'bench',
    '--scopes',
    'pushes:read pushes:write',
    '--json',
  );
  const auth = await options.start(
    'services/auth/dist/main.js',
    authEnv,
    `http://127.0.0.1:${ports.auth}/healthz`,
  );
  const pushEnv: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: options.logLevel,
    PUSH_PORT: String(ports.push),
    PUSH_METRICS_PORT: '0',
    PUSH_PUBLIC_URL: `http://127.0.0.1:${ports.push}`,
    PUSH_DATABASE_URL: options.pushDb,
    PUSH_REDIS_URL: REDIS_URL,
    PUSH_REDIS_PREFIX: `${options.redisPrefix}push:`,
    PUSH_AUTH_URL: auth.url,
    PUSH_INTROSPECTION_CLIENT_ID: rs.client_id,
    PUSH_INTROSPECTION_CLIENT_SECRET: rs.client_secret,
    PUSH_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    ...options.pushEnv,
  };
  const push = await options.start(
    'services/push/dist/main-api.js',
    pushEnv,
    `http://127.0.0.1:${ports.push}/readyz`,
  );
  let worker: Proc | undefined;
  if (options.worker) {
    const port = await freePort();
    worker = await options.start(
      'services/push/dist/main-worker.js',
      { ...pushEnv, PUSH_WORKER_PORT: String(port) },
      `http://127.0.0.1:${port}/healthz`,
    );
  }
  return { auth, push, ...(worker ? { worker } : {}), client, resourceServer: rs, pushEnv };
}
