import { type RawBuilder, sql } from 'kysely';
import { AUDITED_EVENT_KINDS } from '../../domain/outbox';

/*
 * The outbox rows of the hand-written statements (see domain/outbox.ts and the migration
 * 2026_11_26_0003_push_outbox): a CTE that inserts into `push_event` the audit entries just
 * written, only for a push that wants events. For a push nobody listens to (`outbox` false) it
 * inserts nothing: the statement is the same statement, with no extra row.
 */

/** The kinds that are events, as an SQL list. */
const eventKinds = sql.raw(AUDITED_EVENT_KINDS.map((k) => `'${k}'`).join(', '));

/**
 * `insert into push_event …` for the entries of the CTE `entries` (returning `id, push_id, kind`)
 * whose push, in the CTE `pushes` (returning `id, outbox`), wants events.
 */
export function outboxFrom(entries: string, pushes: string): RawBuilder<object> {
  const e = sql.table(entries);
  const p = sql.table(pushes);
  return sql<object>`insert into push_event (push_id, kind, audit_id)
      select en.push_id, en.kind, en.id from ${e} en join ${p} pu on pu.id = en.push_id
      where pu.outbox and en.kind in (${eventKinds})`;
}

/** What an audit insert returns for `outboxFrom` (the query builder's `.returning(ENTRY)`). */
export const ENTRY = ['id', 'push_id', 'kind'] as const;

/** The same as a query builder's CTE (`.with('ev', () => outboxCte('a', 'e'))`): the builder does not parenthesise raw SQL. */
export const outboxCte = (entries: string, pushes: string): RawBuilder<object> =>
  sql<object>`(${outboxFrom(entries, pushes)})`;
