import { type Kysely, sql } from 'kysely';
import { CLOSE_BY_TIME, type ClosedByTime, type RequestClosingStore } from '../domain/request-closing';
import type { PushDatabase } from './database';

type Db = Kysely<PushDatabase>;

interface ClosedRow {
  id: string;
  owner: string;
  from_state: 'open' | 'answered';
  close_after_at: Date;
  closed_at: Date;
  announced: boolean;
}

/**
 * The worker's close by time (domain/request-closing.ts), one statement per batch: up to `batch`
 * open or answered requests past their window, oldest window first, found through
 * `request_close_after_idx` and locked `SKIP LOCKED` (an answer or an owner's close holding a row is
 * left to the next tick, which sees its outcome), each closed (`time`), its attachments released for
 * purging now, audited `close_by_time` and, for a request somebody listens to, announced with a
 * `request_closed` outbox event tied to that entry.
 */
async function closeDueBatch(db: Db, batch: number): Promise<ClosedByTime[]> {
  const { rows } = await sql<ClosedRow>`
    with due as (
      select id, state from request
      where state in ('open', 'answered') and close_after_at <= now()
      order by close_after_at
      limit ${batch}
      for update skip locked
    ), c as (
      update request r set
        state = 'closed', closed_reason = ${CLOSE_BY_TIME.reason}, closed_at = now(), updated_at = now(),
        audit_entries = r.audit_entries + 1,
        files_purge_after = case
          when not r.files_purged and exists (select 1 from request_file f where f.request_id = r.id)
          then least(coalesce(r.files_purge_after, now()), now())
          else r.files_purge_after end
      from due where r.id = due.id
      returning r.id, r.owner, r.outbox, r.close_after_at, r.closed_at, due.state as from_state
    ), a as (
      insert into request_audit_entry (request_id, kind, ip, user_agent, referrer)
      select id, ${CLOSE_BY_TIME.audit}, null, '', '' from c
      returning id, request_id
    ), ev as (
      insert into push_event (request_id, kind, audit_id)
      select a.request_id, ${CLOSE_BY_TIME.event}, a.id from a join c on c.id = a.request_id
      where c.outbox
      returning request_id
    )
    select c.id, c.owner, c.from_state, c.close_after_at, c.closed_at,
      exists (select 1 from ev where ev.request_id = c.id) as announced
    from c order by c.close_after_at`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    owner: r.owner,
    from: r.from_state,
    closeAfterAt: r.close_after_at,
    closedAt: r.closed_at,
    announced: r.announced,
  }));
}

export function createRequestClosingRepository(db: Db): RequestClosingStore {
  return { closeDueBatch: (batch) => closeDueBatch(db, batch) };
}
