import { type Kysely, sql } from 'kysely';
import { type AuditEntry, type AuditKind, PAGE_SIZE } from '../../domain/push';
import type { StoredPush } from '../../domain/ports/push-store';
import type { PushDatabase } from '../database';
import { NOW, viewable } from '../view-rule.sql';
import { PUSH_COLUMNS, stored } from './rows';

type Db = Kysely<PushDatabase>;

/** The push of a URL token (by its hash), with the database's clock. */
export async function findByTokenHash(db: Db, tokenHash: Buffer): Promise<StoredPush | undefined> {
  const row = await db
    .selectFrom('push')
    .select(PUSH_COLUMNS)
    .select(NOW.as('db_now'))
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && stored(row, row.db_now);
}

/** A page of an owner's pushes, newest first: the active ones (viewable now) or the others. */
export async function listOwned(
  db: Db,
  owner: string,
  state: 'active' | 'expired',
  page: number,
): Promise<{ pushes: StoredPush[]; now: Date }> {
  const filter = state === 'active' ? viewable() : sql<boolean>`not ${viewable()}`;
  const rows = await db
    .selectFrom('push')
    .select(PUSH_COLUMNS)
    .select(NOW.as('db_now'))
    .where('owner', '=', owner)
    .where(filter)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .execute();
  const now = rows[0]?.db_now ?? (await db.selectNoFrom(NOW.as('db_now')).executeTakeFirstOrThrow()).db_now;
  return { pushes: rows.map((r) => stored(r, now)), now };
}

/** A page of a push's audit log, oldest first. */
export async function listAuditEntries(db: Db, pushId: string, page: number): Promise<AuditEntry[]> {
  const rows = await db
    .selectFrom('audit_entry')
    .select(['id', 'kind', 'ip', 'user_agent', 'referrer', 'created_at'])
    .where('push_id', '=', pushId)
    .orderBy('id')
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as AuditKind,
    ip: r.ip,
    userAgent: r.user_agent,
    referrer: r.referrer,
    createdAt: r.created_at,
  }));
}
