import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { AuditContext, AuditKind, PushSnapshot } from '../../domain/push';
import type { PushDatabase } from '../database';
import { EXPIRED_NOW, NOW, pastWindow } from '../view-rule.sql';
import { AUDIT_COLUMNS, auditSelection } from './audit';
import { ENTRY, outboxCte } from './outbox.sql';
import { snapshot } from './rows';

type Db = Kysely<PushDatabase>;

/**
 * Expires one push in one statement when `condition` holds: flags it (and `deleted` for a manual
 * expiry), wipes the secrets, records `expired_on` and the audit entry. Undefined when the
 * condition did not hold (already expired, or not yet past its window).
 */
export async function expireOne(
  db: Db,
  pushId: string,
  how: { condition: Expression<SqlBool>; deleted: boolean; kind: AuditKind; ctx: AuditContext | null },
): Promise<PushSnapshot | undefined> {
  const row = await db
    .with('e', (qb) =>
      qb
        .updateTable('push')
        .set((eb) => ({
          ...EXPIRED_NOW,
          ...(how.deleted && { deleted: sql<boolean>`true` }),
          audit_entries: eb('audit_entries', '+', 1),
          updated_at: NOW,
        }))
        .where('id', '=', pushId)
        .where(how.condition)
        .returningAll(),
    )
    .with('a', (qb) =>
      qb
        .insertInto('audit_entry')
        .columns(AUDIT_COLUMNS)
        .expression((eb) =>
          eb.selectFrom('e').select(['e.id as push_id', ...auditSelection(how.kind, how.ctx)]),
        )
        .returning(ENTRY),
    )
    .with('ev', () => outboxCte('a', 'e'))
    .selectFrom('e')
    .selectAll('e')
    .select(NOW.as('db_now'))
    .executeTakeFirst();
  return row && snapshot(row);
}

/** Not flagged expired yet (what a manual expiry requires). */
export const NOT_EXPIRED = sql<boolean>`not expired`;

/**
 * Every push of an owner that is still active expires now, deleted, its secrets wiped, each audited
 * `expire` (as a DELETE would); the files of its file pushes already expired but still in their
 * grace period are released for purging now. One statement: the two updates touch disjoint rows
 * (active / expired in the statement's snapshot); a concurrent view waits for the row lock and
 * re-checks `not expired`, so nothing is served after this commits.
 */
export async function expireAllOwned(db: Db, owner: string, ctx: AuditContext): Promise<PushSnapshot[]> {
  const rows = await db
    .with('e', (qb) =>
      qb
        .updateTable('push')
        .set((eb) => ({
          ...EXPIRED_NOW,
          deleted: sql<boolean>`true`,
          audit_entries: eb('audit_entries', '+', 1),
          updated_at: NOW,
        }))
        .where('owner', '=', owner)
        .where(NOT_EXPIRED)
        .returningAll(),
    )
    .with('a', (qb) =>
      qb
        .insertInto('audit_entry')
        .columns(AUDIT_COLUMNS)
        .expression((eb) => eb.selectFrom('e').select(['e.id as push_id', ...auditSelection('expire', ctx)]))
        .returning(ENTRY),
    )
    .with('ev', () => outboxCte('a', 'e'))
    .with('released', (qb) =>
      qb
        .updateTable('push')
        .set({ files_purge_after: NOW })
        .where('owner', '=', owner)
        .where((eb) =>
          eb.and([
            eb.ref('expired'),
            eb('kind', '=', 'file'),
            eb.not(eb.ref('files_purged')),
            eb('files_purge_after', '>', NOW),
          ]),
        ),
    )
    .selectFrom('e')
    .selectAll('e')
    .select(NOW.as('db_now'))
    .execute();
  return rows.map(snapshot);
}

/**
 * The worker's tick: expires, in one statement, up to `batch` pushes that are past their window but
 * still active, oldest window first, skipping rows another worker or a reader holds (`SKIP LOCKED`),
 * so any number of workers can tick at once and each push is expired exactly once. The rows are
 * found through `push_active_expires_at_idx` (`expires_at` where not expired) and locked only for
 * this statement: a backlog is drained in many short statements, never one long one.
 */
export async function expireDueBatch(db: Db, batch: number): Promise<PushSnapshot[]> {
  const rows = await db
    .with('due', (qb) =>
      qb
        .selectFrom('push')
        .select('id')
        .where(pastWindow())
        .orderBy('expires_at')
        .limit(batch)
        .forUpdate()
        .skipLocked(),
    )
    .with('e', (qb) =>
      qb
        .updateTable('push as p')
        .from('due')
        .set((eb) => ({ ...EXPIRED_NOW, audit_entries: eb('p.audit_entries', '+', 1), updated_at: NOW }))
        .whereRef('p.id', '=', 'due.id')
        .returningAll('p'),
    )
    .with('a', (qb) =>
      qb
        .insertInto('audit_entry')
        .columns(AUDIT_COLUMNS)
        .expression((eb) =>
          eb.selectFrom('e').select(['e.id as push_id', ...auditSelection('expire_by_time', null)]),
        )
        .returning(ENTRY),
    )
    .with('ev', () => outboxCte('a', 'e'))
    .selectFrom('e')
    .selectAll('e')
    .select(NOW.as('db_now'))
    .execute();
  return rows.map(snapshot);
}

/** Active pushes past their window (what the next tick will expire), counted up to `limit`. */
export async function countDue(db: Db, limit: number): Promise<number> {
  const row = await db
    .selectFrom((eb) => eb.selectFrom('push').select('id').where(pastWindow()).limit(limit).as('due'))
    .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}
