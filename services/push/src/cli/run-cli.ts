import { parseArgs } from 'node:util';
import { ConfigError } from '@secret-push/config';
import { createKysely } from '@secret-push/db-kit';
import { loadPushCliConfig } from '../config';
import { PersonalTokenNotFound, UserDisabled, UserInputRejected, UserNotFound } from '../domain/errors';
import { type PersonalToken, type User, type UserSummary, isId } from '../domain/user';
import { type UserTokenService, createUserTokenService } from '../domain/user-tokens';
import { runPushMigrations } from '../main-migrate';
import type { PushDatabase } from '../storage/database';
import { createUserRepository } from '../storage/user.repository';

export interface CliIo {
  /** The environment to configure from: the process's own, passed in by main.ts (tests pass theirs). */
  env: NodeJS.ProcessEnv;
  out(line: string): void;
  err(line: string): void;
}

const USAGE = `usage: secret-push-push <command>
  users list [--json]            users (issuer, sub, email, verified, disabled, token count)
  users disable USER_ID|EMAIL    disable a user and revoke all of its tokens at once
  users enable USER_ID           let a disabled user sign in again (its tokens stay revoked)
  tokens create --user USER_ID --name NAME [--scopes "pushes:read pushes:write"]
                [--expires-days N] [--json]
                                 a personal API token; its value is printed once
  migrate                        create the database if needed and apply migrations
Environment: PUSH_DATABASE_URL (or PUSH_DATABASE_URL_FILE); the service's other variables are ignored.`;

const DEFAULT_SCOPES = 'pushes:read pushes:write';
const MAX_EXPIRY_DAYS = 3650;
const DAY_MS = 86_400_000;

/** A refusal the operator can fix: printed alone, exit code 1. */
class CliRefusal extends Error {}

const REFUSALS = [CliRefusal, UserNotFound, UserDisabled, PersonalTokenNotFound, UserInputRejected];

function refusalMessage(err: Error): string {
  if (err instanceof UserNotFound) return 'no such user';
  if (err instanceof UserDisabled) return 'this user is disabled: enable it first (users enable USER_ID)';
  if (err instanceof PersonalTokenNotFound) return 'no such token';
  if (err instanceof UserInputRejected) return `refused: ${err.message}`;
  return err.message;
}

const userJson = (u: UserSummary) => ({
  id: u.id,
  issuer: u.issuer,
  subject: u.subject,
  email: u.email,
  email_verified: u.emailVerified,
  disabled: u.disabledAt !== null,
  disabled_at: u.disabledAt?.toISOString() ?? null,
  token_count: u.tokenCount,
  created_at: u.createdAt.toISOString(),
  last_seen_at: u.lastSeenAt.toISOString(),
});

const tokenJson = (t: PersonalToken) => ({
  id: t.id,
  user_id: t.userId,
  name: t.name,
  scopes: t.scopes,
  expires_at: t.expiresAt?.toISOString() ?? null,
  created_at: t.createdAt.toISOString(),
  last_used_at: t.lastUsedAt?.toISOString() ?? null,
});

const describeUser = (u: User) => `${u.id}\t${u.issuer}\t${u.subject}\t${u.email ?? '(no email)'}`;

function printUsers(io: CliIo, users: UserSummary[], json: boolean): void {
  if (json) return io.out(JSON.stringify(users.map(userJson)));
  for (const u of users) {
    const email =
      u.email === null ? '(no email)' : `${u.email} (${u.emailVerified ? 'verified' : 'unverified'})`;
    const state = u.disabledAt === null ? 'active' : 'disabled';
    io.out(`${u.id}\t${u.issuer}\t${u.subject}\t${email}\t${state}\t${u.tokenCount} token(s)`);
  }
}

/**
 * The user an operator named: by id, or by email when exactly one user has it. An email is not an
 * identity (a person is an OpenID issuer and its `sub`, domain/user.ts): when users of several
 * issuers share it, the operator must pick one by id.
 */
async function userNamed(users: UserTokenService, ref: string): Promise<User> {
  if (isId(ref)) return users.findUser(ref);
  const matching = await users.findUsersByEmail(ref);
  if (matching.length === 0) throw new CliRefusal(`no user with the id or email ${ref}`);
  if (matching.length > 1) {
    throw new CliRefusal(
      [
        `${matching.length} users have the email ${ref} (one per issuer); name one by its id:`,
        ...matching.map((u) => `  ${describeUser(u)}`),
      ].join('\n'),
    );
  }
  return matching[0]!;
}

function expiryOf(days: string | undefined): Date | null {
  if (days === undefined) return null;
  const n = Number(days);
  if (!/^\d+$/.test(days) || n < 1 || n > MAX_EXPIRY_DAYS) {
    throw new CliRefusal(`--expires-days must be a whole number of days from 1 to ${MAX_EXPIRY_DAYS}`);
  }
  return new Date(Date.now() + n * DAY_MS);
}

/** The operator CLI of the push service. Returns the process exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        user: { type: 'string' },
        name: { type: 'string' },
        scopes: { type: 'string' },
        'expires-days': { type: 'string' },
        json: { type: 'boolean', default: false },
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
  const known =
    group === 'migrate' ||
    (group === 'users' && ['list', 'disable', 'enable'].includes(command ?? '')) ||
    (group === 'tokens' && command === 'create');
  if (!known) {
    io.err(USAGE);
    return 2;
  }

  let config;
  try {
    config = loadPushCliConfig(io.env);
  } catch (err) {
    io.err(err instanceof ConfigError ? err.message : String(err));
    return 2;
  }
  if (group === 'migrate') {
    const applied = await runPushMigrations(config.db.url);
    io.out(applied.length ? `applied: ${applied.join(', ')}` : 'push database is up to date');
    return 0;
  }

  const db = createKysely<PushDatabase>(config.db);
  const users = createUserTokenService({ store: createUserRepository(db) });
  try {
    if (group === 'tokens') {
      if (!opts.user || !opts.name) throw new CliRefusal('tokens create needs --user and --name');
      const { token, value } = await users.createToken(opts.user, {
        name: opts.name,
        scopes: (opts.scopes ?? DEFAULT_SCOPES).split(/[\s,]+/).filter((s) => s !== ''),
        expiresAt: expiryOf(opts['expires-days']),
      });
      if (opts.json) {
        io.out(JSON.stringify({ ...tokenJson(token), token: value }));
      } else {
        io.out(`token:   ${value}`);
        io.out(`id:      ${token.id}`);
        io.out(`name:    ${token.name}`);
        io.out(`scopes:  ${token.scopes.join(' ')}`);
        io.out(`expires: ${token.expiresAt?.toISOString() ?? 'never'}`);
        io.out('The token is shown only now; it is stored as a hash.');
      }
      return 0;
    }
    switch (command) {
      case 'list':
        printUsers(io, await users.listUsers(), opts.json);
        return 0;
      case 'disable': {
        if (!arg) throw new CliRefusal('users disable needs a USER_ID or an EMAIL');
        const user = await userNamed(users, arg);
        const { tokensRevoked } = await users.disableUser(user.id);
        io.out(`disabled ${describeUser(user)}; ${tokensRevoked} token(s) revoked`);
        return 0;
      }
      case 'enable': {
        if (!arg || !isId(arg)) throw new CliRefusal('users enable needs a USER_ID (see users list)');
        const user = await users.enableUser(arg);
        io.out(`enabled ${describeUser(user)}; tokens revoked when it was disabled stay revoked`);
        return 0;
      }
      case undefined:
      default:
        io.err(USAGE);
        return 2;
    }
  } catch (err) {
    if (REFUSALS.some((cls) => err instanceof cls)) {
      io.err(refusalMessage(err as Error));
      return 1;
    }
    throw err;
  } finally {
    await db.destroy();
  }
}
