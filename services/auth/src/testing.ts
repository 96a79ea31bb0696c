import { Readable } from 'node:stream';
import { type Logger, createLogger } from '@secret-push/logger';
import { REDIS_URL, deleteRedisKeys, freePort, freshDatabase, uniquePrefix } from '@secret-push/testing';
import { runCli } from './cli/run-cli';
import { loadAuthConfig } from './config';
import { type AuthServer, startAuthServer } from './server';
import type { AuthDatabase } from './storage/database';
import { authMigrations } from './storage/migrations';
import type { Kysely } from 'kysely';

export interface ClientCredentials {
  client_id: string;
  client_secret: string;
  scope: string;
}

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export interface TestAuth {
  /** Issuer URL; the token endpoint is `${issuer}/connect/token`. */
  issuer: string;
  /** The running server's metrics port: `/metrics` is served there only. */
  readonly metricsUrl: string;
  env: Record<string, string>;
  db: Kysely<AuthDatabase>;
  server: AuthServer;
  /** The push service's introspection credentials. */
  resourceServer: ClientCredentials;
  createClient(scopes?: string, name?: string): Promise<ClientCredentials>;
  /** A fresh access token for the client (optionally with a narrower scope). */
  token(client: ClientCredentials, scope?: string): Promise<string>;
  /** Runs `secret-push-auth` in-process against this service's environment. */
  cli(...argv: string[]): Promise<CliResult>;
  /** The same, with `stdin` as the command's standard input (e.g. for `--password-stdin`). */
  cli(options: { stdin: string | Buffer }, ...argv: string[]): Promise<CliResult>;
  /** Stops the server only; `start()` brings it back on the same port and database. */
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real auth service in-process, on a free port, against its own database and Redis prefix.
 * Nothing of it is mocked; push tests get their tokens from it.
 */
export async function startAuth(
  options: { env?: Record<string, string>; logger?: Logger } = {},
): Promise<TestAuth> {
  const database = await freshDatabase<AuthDatabase>('auth', authMigrations);
  const port = await freePort();
  const prefix = uniquePrefix('auth');
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    AUTH_HOST: '127.0.0.1',
    AUTH_PORT: String(port),
    AUTH_METRICS_PORT: '0',
    AUTH_DATABASE_URL: database.url,
    AUTH_DATABASE_POOL_SIZE: '5',
    AUTH_REDIS_URL: REDIS_URL,
    AUTH_REDIS_PREFIX: prefix,
    ...options.env,
  };
  const config = loadAuthConfig(env);
  const logger = options.logger ?? createLogger({ name: 'auth', level: 'silent' });
  let server: AuthServer | undefined = await startAuthServer(config, logger);

  const cli = async (...args: (string | { stdin: string | Buffer })[]): Promise<CliResult> => {
    const [first] = args;
    const input = typeof first === 'object' ? first.stdin : undefined;
    const argv = args.filter((a) => typeof a === 'string');
    const out: string[] = [];
    const err: string[] = [];
    const stdin = Readable.from(input === undefined ? [] : [input]);
    const code = await runCli(argv, { env, stdin, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const createClient = async (scopes = 'pushes:read pushes:write', name = 'test client') => {
    const res = await cli('clients', 'create', '--name', name, '--scopes', scopes, '--json');
    if (res.code !== 0) throw new Error(`clients create failed: ${res.err}`);
    return JSON.parse(res.out) as ClientCredentials;
  };
  const rs = await cli('clients', 'create-resource-server', '--name', 'push-api', '--json');
  if (rs.code !== 0) throw new Error(`create-resource-server failed: ${rs.err}`);

  const issuer = config.issuer;
  return {
    issuer,
    env,
    db: database.db,
    get server() {
      if (!server) throw new Error('auth server is stopped');
      return server;
    },
    get metricsUrl() {
      if (!server) throw new Error('auth server is stopped');
      return server.metricsUrl;
    },
    resourceServer: JSON.parse(rs.out) as ClientCredentials,
    createClient,
    cli,
    async token(client, scope) {
      const body = new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
      const res = await fetch(`${issuer}/connect/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
        },
        body,
      });
      const json = (await res.json()) as { access_token?: string };
      if (!res.ok || !json.access_token) {
        throw new Error(`token request failed: ${res.status} ${JSON.stringify(json)}`);
      }
      return json.access_token;
    },
    async stopServer() {
      await server?.close();
      server = undefined;
    },
    async startServer() {
      server ??= await startAuthServer(config, logger);
    },
    async stop() {
      await server?.close();
      server = undefined;
      await database.drop();
      await deleteRedisKeys(REDIS_URL, prefix);
    },
  };
}
