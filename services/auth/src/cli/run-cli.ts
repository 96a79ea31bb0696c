import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createKysely } from '@secret-push/db-kit';
import { ConfigError } from '@secret-push/config';
import { KeyRing } from '@secret-push/key-ring';
import { DEV_KEY_PREFIX, loadAuthConfig } from '../config';
import { ClientAdminError } from '../clients/client-admin';
import { createProvider } from '../provider/create-provider';
import type { AuthDatabase } from '../storage/database';
import { createKyselyAdapter } from '../storage/kysely-adapter';
import { migrationReport, runAuthMigrations } from '../storage/migrations';
import { totpResealer, totpSecrets } from '../users/totp-secrets';
import { UserAdminError } from '../users/user-admin';
import type { CliIo } from './cli-io';
import { runClientsCommand } from './clients-command';
import { runUsersCommand } from './users-command';

const USAGE = `usage: secret-push-auth <command>
  clients create --name NAME --scopes "pushes:read pushes:write" [--json]
  clients create-resource-server --name push-api [--json]
  clients create-web --name NAME --redirect-uri URL [--redirect-uri URL…]
                     [--post-logout-redirect-uri URL…] [--json]
                               a first-party web application that signs people in
                               (OpenID Connect, authorization code + PKCE S256)
  clients list [--json]
  clients rotate-secret CLIENT_ID [--json]
  clients delete CLIENT_ID
  users create --email EMAIL [--password-stdin] [--json]
                               a password is generated and printed once, unless read from stdin
  users list [--json]
  users disable EMAIL          the user can no longer sign in
  users enable EMAIL           undo users disable
  users reset-password EMAIL [--json]
                               print a new generated password; the old one stops working
  users reset-mfa EMAIL        remove the second factor (TOTP secret and recovery codes)
  users unlock-mfa EMAIL       unlock a second factor locked after too many wrong codes
  keys generate [--dev]        print a new signing JWKS (AUTH_JWKS) as JSON
  keys cookie [--dev]          print a new cookie key (AUTH_COOKIE_KEYS)
  keys data [--dev]            print a new data key (an entry of AUTH_DATA_KEYS)
  migrate                      create the database if needed, apply migrations and seal the
                               TOTP secrets with the first key of AUTH_DATA_KEYS
Environment: AUTH_DATABASE_URL, AUTH_REDIS_URL and the service's other variables.`;

/** A new key's id: the date and 4 random bytes, `dev-` first for a development key. */
const keyId = (dev: boolean) =>
  `${dev ? DEV_KEY_PREFIX : ''}${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`;

function generateJwks(dev: boolean): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = keyId(dev);
  return JSON.stringify({
    keys: [{ ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }],
  });
}

/** The operator CLI. Returns the process exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        scopes: { type: 'string' },
        email: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        'post-logout-redirect-uri': { type: 'string', multiple: true },
        'password-stdin': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        dev: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    io.err(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values: opts, positionals } = parsed;
  const [group, command, arg] = positionals;
  if (opts.help || !group) {
    io.out(USAGE);
    return opts.help ? 0 : 2;
  }
  if (group === 'keys' && command === 'generate') {
    io.out(generateJwks(opts.dev));
    return 0;
  }
  if (group === 'keys' && command === 'data') {
    io.out(`${keyId(opts.dev)}:${randomBytes(32).toString('base64')}`);
    return 0;
  }
  if (group === 'keys' && command === 'cookie') {
    io.out(`${opts.dev ? DEV_KEY_PREFIX : ''}${randomBytes(32).toString('base64url')}`);
    return 0;
  }

  let config;
  try {
    config = loadAuthConfig(io.env);
  } catch (err) {
    io.err(err instanceof ConfigError ? err.message : String(err));
    return 2;
  }
  if (group === 'migrate') {
    const reseal = totpResealer(totpSecrets(new KeyRing(config.dataKeys)));
    io.out(migrationReport(await runAuthMigrations(config.db.url, reseal)));
    return 0;
  }
  if (group !== 'clients' && group !== 'users') {
    io.err(USAGE);
    return 2;
  }

  const db = createKysely<AuthDatabase>({ url: config.db.url, poolSize: 1 });
  try {
    if (group === 'users') {
      const options = { email: opts.email, passwordStdin: opts['password-stdin'], json: opts.json };
      const code = await runUsersCommand(db, io, command, arg, options);
      if (code === 2) io.err(USAGE);
      return code;
    }
    const options = {
      name: opts.name,
      scopes: opts.scopes,
      redirectUris: opts['redirect-uri'] ?? [],
      postLogoutRedirectUris: opts['post-logout-redirect-uri'] ?? [],
      json: opts.json,
    };
    const code = await runClientsCommand(
      { db, provider: createProvider(config, createKyselyAdapter(db)) },
      io,
      command,
      arg,
      options,
    );
    if (code === 2) io.err(USAGE);
    return code;
  } catch (err) {
    if (err instanceof ClientAdminError || err instanceof UserAdminError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  } finally {
    await db.destroy();
  }
}
