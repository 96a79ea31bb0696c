import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { KeyRing } from '@secret-push/key-ring';
import { type Logger, createLogger } from '@secret-push/logger';
import { REDIS_URL, deleteRedisKeys, freePort, freshDatabase, uniquePrefix } from '@secret-push/testing';
import { runCli } from './cli/run-cli';
import { loadAuthConfig } from './config';
import { type AuthServer, startAuthServer } from './server';
import type { AuthDatabase } from './storage/database';
import { authMigrations } from './storage/migrations';
import { type TotpSecrets, totpSecrets } from './users/totp-secrets';
import type { Kysely } from 'kysely';

export interface ClientCredentials {
  client_id: string;
  client_secret: string;
  scope: string;
}

export interface WebClientCredentials extends ClientCredentials {
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

/** Another auth process on the same database, Redis prefix, keys and issuer (a second replica). */
export interface AuthReplica {
  /** Its own base URL (a port of its own; the issuer stays the first server's). */
  url: string;
  server: AuthServer;
  close(): Promise<void>;
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
  /** A first-party web client (sign-in) through `clients create-web`. */
  createWebClient(options: {
    redirectUris: string[];
    postLogoutRedirectUris?: string[];
    name?: string;
  }): Promise<WebClientCredentials>;
  /** A user through `users create --password-stdin` (a random password when none is given). */
  createUser(email: string, password?: string): Promise<TestUser>;
  /**
   * Starts another auth server sharing everything with this one but its port (and, when given,
   * logger and extra environment), as a second replica behind a load balancer would.
   */
  startReplica(options?: { env?: Record<string, string>; logger?: Logger }): Promise<AuthReplica>;
  /** The service's TOTP secrets' sealing (its AUTH_DATA_KEYS): to write or read them as it does. */
  totpSecrets: TotpSecrets;
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

/** A signing key of the test's own (what `secret-push-auth keys generate --dev` prints). */
function testJwks(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `dev-test-${randomBytes(4).toString('hex')}`;
  return JSON.stringify({
    keys: [{ ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }],
  });
}

/** The service's environment: its own database, port, Redis prefix and keys, then the caller's. */
function testEnv(
  databaseUrl: string,
  port: number,
  prefix: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    // Keys of the test's own, in the environment, so that replicas (and the CLI) share them.
    AUTH_JWKS: testJwks(),
    AUTH_COOKIE_KEYS: randomBytes(32).toString('base64url'),
    AUTH_DATA_KEYS: `test-${randomBytes(4).toString('hex')}:${randomBytes(32).toString('base64')}`,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    AUTH_HOST: '127.0.0.1',
    AUTH_PORT: String(port),
    AUTH_METRICS_PORT: '0',
    AUTH_DATABASE_URL: databaseUrl,
    AUTH_DATABASE_POOL_SIZE: '5',
    AUTH_REDIS_URL: REDIS_URL,
    AUTH_REDIS_PREFIX: prefix,
    // The pseudo-locale `en-XA` too: tests find text that bypasses the catalogues with it.
    I18N_PSEUDO_LOCALE: 'true',
    ...extra,
  };
}

type Cli = (...args: (string | { stdin: string | Buffer })[]) => Promise<CliResult>;

/** `secret-push-auth` in-process against `env`; a leading `{ stdin }` is the command's input. */
function cliIn(env: Record<string, string>): Cli {
  return async (...args) => {
    const [first] = args;
    const input = typeof first === 'object' ? first.stdin : undefined;
    const argv = args.filter((a) => typeof a === 'string');
    const out: string[] = [];
    const err: string[] = [];
    const stdin = Readable.from(input === undefined ? [] : [input]);
    const code = await runCli(argv, { env, stdin, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}

/** Clients and users, made through the CLI as an operator would. */
function cliCommands(cli: Cli): Pick<TestAuth, 'createClient' | 'createWebClient' | 'createUser'> {
  const createClient = async (scopes = 'pushes:read pushes:write', name = 'test client') => {
    const res = await cli('clients', 'create', '--name', name, '--scopes', scopes, '--json');
    if (res.code !== 0) throw new Error(`clients create failed: ${res.err}`);
    return JSON.parse(res.out) as ClientCredentials;
  };
  const createWebClient = async (options: {
    redirectUris: string[];
    postLogoutRedirectUris?: string[];
    name?: string;
  }) => {
    const args = ['clients', 'create-web', '--name', options.name ?? 'test web app', '--json'];
    for (const uri of options.redirectUris) args.push('--redirect-uri', uri);
    for (const uri of options.postLogoutRedirectUris ?? []) args.push('--post-logout-redirect-uri', uri);
    const res = await cli(...args);
    if (res.code !== 0) throw new Error(`clients create-web failed: ${res.err}`);
    return JSON.parse(res.out) as WebClientCredentials;
  };
  const createUser = async (email: string, password = randomBytes(18).toString('base64url')) => {
    const res = await cli(
      { stdin: password },
      'users',
      'create',
      '--email',
      email,
      '--password-stdin',
      '--json',
    );
    if (res.code !== 0) throw new Error(`users create failed: ${res.err}`);
    const user = JSON.parse(res.out) as { id: string; email: string };
    return { id: user.id, email: user.email, password };
  };
  return { createClient, createWebClient, createUser };
}

/** A client-credentials token from the token endpoint. */
async function requestToken(issuer: string, client: ClientCredentials, scope?: string): Promise<string> {
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
}

/** Replicas of the first server, kept in `replicas` until closed. */
function replicaStarter(
  env: Record<string, string>,
  issuer: string,
  logger: Logger,
  replicas: Set<AuthReplica>,
): TestAuth['startReplica'] {
  return async (replicaOptions = {}) => {
    const replicaEnv = {
      ...env,
      AUTH_ISSUER: issuer,
      AUTH_PORT: String(await freePort()),
      ...replicaOptions.env,
    };
    const replicaServer = await startAuthServer(loadAuthConfig(replicaEnv), replicaOptions.logger ?? logger);
    const replica: AuthReplica = {
      url: replicaServer.url,
      server: replicaServer,
      async close() {
        if (!replicas.delete(replica)) return;
        await replicaServer.close();
      },
    };
    replicas.add(replica);
    return replica;
  };
}

/** The push service's introspection credentials, registered through the CLI. */
async function createResourceServer(cli: Cli): Promise<ClientCredentials> {
  const rs = await cli('clients', 'create-resource-server', '--name', 'push-api', '--json');
  if (rs.code !== 0) throw new Error(`create-resource-server failed: ${rs.err}`);
  return JSON.parse(rs.out) as ClientCredentials;
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
  const env = testEnv(database.url, port, prefix, options.env);
  const config = loadAuthConfig(env);
  const logger = options.logger ?? createLogger({ name: 'auth', level: 'silent' });
  let server: AuthServer | undefined = await startAuthServer(config, logger);

  const cli = cliIn(env);
  const replicas = new Set<AuthReplica>();
  const resourceServer = await createResourceServer(cli);
  const running = () => {
    if (!server) throw new Error('auth server is stopped');
    return server;
  };

  const issuer = config.issuer;
  return {
    issuer,
    env,
    db: database.db,
    get server() {
      return running();
    },
    get metricsUrl() {
      return running().metricsUrl;
    },
    resourceServer,
    totpSecrets: totpSecrets(new KeyRing(config.dataKeys)),
    ...cliCommands(cli),
    cli,
    startReplica: replicaStarter(env, issuer, logger, replicas),
    token: (client, scope) => requestToken(issuer, client, scope),
    async stopServer() {
      await server?.close();
      server = undefined;
    },
    async startServer() {
      server ??= await startAuthServer(config, logger);
    },
    async stop() {
      await Promise.all([...replicas].map((r) => r.close()));
      await server?.close();
      server = undefined;
      await database.drop();
      await deleteRedisKeys(REDIS_URL, prefix);
    },
  };
}
