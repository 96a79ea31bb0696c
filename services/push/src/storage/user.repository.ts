import { type Kysely, sql } from 'kysely';
import { UserInputRejected } from '../domain/errors';
import type { TokenLookup, UserStore } from '../domain/ports/user-store';
import type { NoticeKind } from '../domain/email-rules';
import type { PersonalToken, TokenScope, User } from '../domain/user';
import type { PushDatabase } from './database';
import type { AppUserRow, PersonalTokenRow } from './user.table';

type Db = Kysely<PushDatabase>;

const toUser = (r: AppUserRow): User => ({
  id: r.id,
  issuer: r.issuer,
  subject: r.subject,
  email: r.email,
  emailVerified: r.email_verified,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  noticeDefaults: r.notify_owner_on as NoticeKind[],
});

const toToken = (r: PersonalTokenRow): PersonalToken => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  scopes: r.scopes as TokenScope[],
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at,
  createdAt: r.created_at,
  regeneratedAt: r.regenerated_at,
});

/** The constraint a statement broke (PostgreSQL's error fields), if any. */
function violated(err: unknown): { code: string; constraint: string } | undefined {
  const { code, constraint } = (err ?? {}) as { code?: unknown; constraint?: unknown };
  return typeof code === 'string' && typeof constraint === 'string' ? { code, constraint } : undefined;
}

/** The table's own checks, as the user's mistakes they stand for (see the migration). */
function asInputProblem(err: unknown): unknown {
  const v = violated(err);
  if (v?.constraint === 'personal_token_name_key') {
    return new UserInputRejected({ name: ['is already the name of another of your tokens'] });
  }
  if (v?.constraint === 'personal_token_expiry') {
    return new UserInputRejected({ expires_at: ['must lie in the future'] });
  }
  return err;
}

/**
 * A token for a user that exists and is not disabled, in one statement. The user's row is read
 * `for share`: a concurrent disable (an update of that row) waits for this insert to commit and
 * then deletes the new token too, or this insert waits for the disable and finds the user disabled.
 */
async function insertToken(
  db: Db,
  userId: string,
  settings: { name: string; scopes: string[]; expiresAt: Date | null },
  tokenHash: Buffer,
): Promise<PersonalToken | undefined> {
  try {
    const { rows } = await sql<PersonalTokenRow>`
      with u as (select id from app_user where id = ${userId} and disabled_at is null for share)
      insert into personal_token (user_id, name, token_hash, scopes, expires_at)
      select u.id, ${settings.name}, ${tokenHash}, ${settings.scopes}::text[], ${settings.expiresAt} from u
      returning *`.execute(db);
    return rows[0] && toToken(rows[0]);
  } catch (err) {
    throw asInputProblem(err);
  }
}

/**
 * Disables the user, then deletes its tokens, in one transaction of two statements: the delete
 * takes its snapshot after the update got the row, so it also sees a token whose insert the
 * update waited for (insertToken).
 */
async function disableUser(
  db: Db,
  userId: string,
): Promise<{ user: User; tokensRevoked: number } | undefined> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<AppUserRow>`
      update app_user set disabled_at = coalesce(disabled_at, now()) where id = ${userId} returning *`.execute(
      trx,
    );
    if (!rows[0]) return undefined;
    const deleted = await trx.deleteFrom('personal_token').where('user_id', '=', userId).executeTakeFirst();
    return { user: toUser(rows[0]), tokensRevoked: Number(deleted.numDeletedRows) };
  });
}

type LookupRow = PersonalTokenRow & {
  issuer: string;
  subject: string;
  email: string | null;
  email_verified: boolean;
  disabled_at: Date | null;
  user_created_at: Date;
  last_seen_at: Date;
  notify_owner_on: string[];
  db_now: Date;
};

async function findByTokenHash(db: Db, tokenHash: Buffer): Promise<TokenLookup | undefined> {
  const { rows } = await sql<LookupRow>`
    select t.*, u.issuer, u.subject, u.email, u.email_verified, u.disabled_at,
           u.created_at as user_created_at, u.last_seen_at, u.notify_owner_on, now() as db_now
    from personal_token t join app_user u on u.id = t.user_id
    where t.token_hash = ${tokenHash}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    token: toToken(row),
    user: toUser({ ...row, id: row.user_id, created_at: row.user_created_at }),
    now: row.db_now,
  };
}

export function createUserRepository(db: Db): UserStore {
  return {
    async upsertUser(identity) {
      const row = await db
        .insertInto('app_user')
        .values({
          issuer: identity.issuer,
          subject: identity.subject,
          email: identity.email,
          email_verified: identity.emailVerified,
        })
        .onConflict((oc) =>
          oc.columns(['issuer', 'subject']).doUpdateSet((eb) => ({
            email: eb.ref('excluded.email'),
            email_verified: eb.ref('excluded.email_verified'),
            last_seen_at: sql<Date>`now()`,
          })),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    },

    async findUser(userId) {
      const row = await db.selectFrom('app_user').selectAll().where('id', '=', userId).executeTakeFirst();
      return row && toUser(row);
    },

    async findUsersByEmail(email) {
      const rows = await db
        .selectFrom('app_user')
        .selectAll()
        .where(sql<boolean>`lower(email) = lower(${email})`)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toUser);
    },

    async listUsers() {
      const rows = await db
        .selectFrom('app_user as u')
        .selectAll('u')
        .select(
          sql<number>`(select count(*) from personal_token t where t.user_id = u.id)::int`.as('token_count'),
        )
        .orderBy('u.created_at')
        .orderBy('u.id')
        .execute();
      return rows.map((r) => ({ ...toUser(r), tokenCount: r.token_count }));
    },

    disableUser: (userId) => disableUser(db, userId),

    async deleteUser(userId) {
      const r = await db.deleteFrom('app_user').where('id', '=', userId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async enableUser(userId) {
      const row = await db
        .updateTable('app_user')
        .set({ disabled_at: null })
        .where('id', '=', userId)
        .returningAll()
        .executeTakeFirst();
      return row && toUser(row);
    },

    insertToken: (userId, settings, tokenHash) => insertToken(db, userId, settings, tokenHash),

    async listTokens(userId) {
      const rows = await db
        .selectFrom('personal_token')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toToken);
    },

    async replaceTokenHash(userId, tokenId, tokenHash) {
      const row = await db
        .updateTable('personal_token')
        .set({ token_hash: tokenHash, regenerated_at: sql<Date>`now()` })
        .where('id', '=', tokenId)
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirst();
      return row && toToken(row);
    },

    async deleteToken(userId, tokenId) {
      const result = await db
        .deleteFrom('personal_token')
        .where('id', '=', tokenId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    findByTokenHash: (tokenHash) => findByTokenHash(db, tokenHash),

    async touchToken(tokenId, resolutionSeconds) {
      await sql`
        update personal_token set last_used_at = now()
        where id = ${tokenId}
          and (last_used_at is null or last_used_at <= now() - make_interval(secs => ${resolutionSeconds}))`.execute(
        db,
      );
    },
  };
}
