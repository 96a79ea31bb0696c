import { type Kysely, sql } from 'kysely';
import type { AuditContext, AuditKind } from '../../domain/push';
import type { PushDatabase } from '../database';
import { ENTRY, outboxCte } from './outbox.sql';

/** The columns of an audit entry that a statement writes (its id and time are the database's). */
export const AUDIT_COLUMNS = ['push_id', 'kind', 'ip', 'user_agent', 'referrer'] as const;

/** An entry's values after its push's id, for the hand-written statements (`select id, ${auditValues(…)} from …`). */
export function auditValues(kind: AuditKind, ctx: AuditContext | null) {
  return sql`${kind}, ${ctx?.ip ?? null}, ${ctx?.userAgent ?? ''}, ${ctx?.referrer ?? ''}`;
}

/** The same values as the query builder's selection (after the push's id). */
export const auditSelection = (kind: AuditKind, ctx: AuditContext | null) => [
  sql<string>`${kind}`.as('kind'),
  sql<string | null>`${ctx?.ip ?? null}`.as('ip'),
  sql<string>`${ctx?.userAgent ?? ''}`.as('user_agent'),
  sql<string>`${ctx?.referrer ?? ''}`.as('referrer'),
];

/**
 * Records a noise entry (failed_view, link_opened, file_download) unless the push already holds
 * `max` entries; then it is only counted (`audit_dropped`). `failed_passphrase` entries are never
 * dropped: they are the evidence of guessing, and guesses are rate limited per push anyway. The conditional UPDATE re-checks
 * the cap on the locked row, so the cap is exact under concurrency. An entry that is an event
 * (failed_passphrase, file_download) of a push that wants events is also an outbox row.
 */
export async function recordCappedAudit(
  db: Kysely<PushDatabase>,
  pushId: string,
  kind: AuditKind,
  ctx: AuditContext,
  max: number,
): Promise<void> {
  await db
    .with('room', (qb) =>
      qb
        .updateTable('push')
        .set((eb) => ({ audit_entries: eb('audit_entries', '+', 1) }))
        .where('id', '=', pushId)
        .where((eb) => eb.or([eb('audit_entries', '<', max), eb.lit(kind === 'failed_passphrase')]))
        .returning(['id', 'outbox']),
    )
    .with('dropped', (qb) =>
      qb
        .updateTable('push')
        .set((eb) => ({ audit_dropped: eb('audit_dropped', '+', 1) }))
        .where('id', '=', pushId)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('room').select('room.id')))),
    )
    .with('a', (qb) =>
      qb
        .insertInto('audit_entry')
        .columns(AUDIT_COLUMNS)
        .expression((eb) =>
          eb.selectFrom('room').select(['room.id as push_id', ...auditSelection(kind, ctx)]),
        )
        .returning(ENTRY),
    )
    .with('ev', () => outboxCte('a', 'room'))
    .selectFrom('a')
    .select('a.id')
    .execute();
}
