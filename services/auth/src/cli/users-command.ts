import type { Kysely } from 'kysely';
import type { AuthDatabase } from '../storage/database';
import { PASSWORD_MAX_BYTES } from '../users/password';
import {
  UserAdminError,
  createUser,
  disableUser,
  enableUser,
  listUsers,
  resetMfa,
  resetPassword,
  unlockMfa,
} from '../users/user-admin';
import type { CliIo } from './cli-io';

export interface UsersOptions {
  email?: string;
  passwordStdin: boolean;
  json: boolean;
}

/**
 * The password on stdin, as UTF-8, without one trailing newline (what `echo` or a here-string
 * adds). Reading stops once the input is longer than any acceptable password could be.
 */
async function readPassword(io: CliIo): Promise<string> {
  if (!io.stdin) throw new UserAdminError('--password-stdin: no standard input to read from');
  const limit = PASSWORD_MAX_BYTES + 2; // the longest password, then "\r\n"
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    chunks.push(bytes);
    size += bytes.length;
    if (size > limit) throw new UserAdminError(`the password must be at most ${PASSWORD_MAX_BYTES} bytes`);
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new UserAdminError('the password on stdin is not valid UTF-8');
  }
  return text.replace(/\r?\n$/, '');
}

function printPassword(io: CliIo, user: { id: string; email: string; password?: string }, json: boolean) {
  if (json) return io.out(JSON.stringify(user));
  io.out(`id:       ${user.id}`);
  io.out(`email:    ${user.email}`);
  if (user.password === undefined) return;
  io.out(`password: ${user.password}`);
  io.out('The password is shown only now; it is stored as a hash.');
}

/** `secret-push-auth users …`. Returns the exit code; refusals throw UserAdminError (exit 1). */
export async function runUsersCommand(
  db: Kysely<AuthDatabase>,
  io: CliIo,
  command: string | undefined,
  email: string | undefined,
  opts: UsersOptions,
): Promise<number> {
  const needEmail = (): string => {
    if (!email) throw new UserAdminError(`users ${command} needs an EMAIL`);
    return email;
  };
  switch (command) {
    case 'create': {
      if (!opts.email) throw new UserAdminError('users create needs --email');
      const password = opts.passwordStdin ? await readPassword(io) : undefined;
      printPassword(io, await createUser(db, { email: opts.email, password }), opts.json);
      return 0;
    }
    case 'list': {
      const users = await listUsers(db);
      if (opts.json) io.out(JSON.stringify(users));
      else {
        for (const u of users) {
          const state = [
            u.disabled ? 'disabled' : 'active',
            u.mfa ? (u.mfa_locked ? 'mfa locked' : 'mfa') : 'no mfa',
            u.email_verified ? 'email verified' : 'email not verified',
          ];
          io.out(`${u.id}\t${u.email}\t${u.created_at}\t${state.join(', ')}`);
        }
      }
      return 0;
    }
    case 'disable': {
      const user = await disableUser(db, needEmail());
      io.out(`disabled ${user.email}; they can no longer sign in`);
      return 0;
    }
    case 'enable': {
      const user = await enableUser(db, needEmail());
      io.out(`enabled ${user.email}`);
      return 0;
    }
    case 'reset-password':
      printPassword(io, await resetPassword(db, needEmail()), opts.json);
      return 0;
    case 'reset-mfa': {
      const user = await resetMfa(db, needEmail());
      io.out(`removed the second factor of ${user.email} (TOTP secret and recovery codes)`);
      return 0;
    }
    case 'unlock-mfa': {
      const user = await unlockMfa(db, needEmail());
      io.out(`unlocked the second factor of ${user.email} (its wrong codes in a row back to 0)`);
      return 0;
    }
    case undefined:
    default:
      return 2;
  }
}
