import { type Kysely, sql } from 'kysely';
import type { AuditContext, RequestAuditEntry, RequestAuditKind } from '../../domain/request';
import { PAGE_SIZE } from '../../domain/push';
import type { PushDatabase } from '../database';

type Db = Kysely<PushDatabase>;

/** The values of an entry after its request's id (`select id, ${requestAuditValues(…)} from …`). */
export const requestAuditValues = (kind: RequestAuditKind, ctx: AuditContext | null) =>
  sql`${kind}, ${ctx?.ip ?? null}, ${ctx?.userAgent ?? ''}, ${ctx?.referrer ?? ''}`;

/**
 * Records an entry unless the request already holds `max` entries (then it is only counted,
 * `audit_dropped`); `failed_passphrase` is never dropped (the evidence of guessing). One statement:
 * the conditional update re-checks the cap on the locked row.
 */
export async function recordRequestAudit(
  db: Db,
  requestId: string,
  kind: RequestAuditKind,
  ctx: AuditContext,
  max: number,
): Promise<void> {
  await sql`
    with room as (
      update request set audit_entries = audit_entries + 1
      where id = ${requestId} and (audit_entries < ${max} or ${kind === 'failed_passphrase'})
      returning id
    ), dropped as (
      update request set audit_dropped = audit_dropped + 1
      where id = ${requestId} and not exists (select 1 from room)
    )
    insert into request_audit_entry (request_id, kind, ip, user_agent, referrer)
    select id, ${requestAuditValues(kind, ctx)} from room`.execute(db);
}

export async function listRequestAudit(
  db: Db,
  requestId: string,
  page: number,
): Promise<RequestAuditEntry[]> {
  const rows = await db
    .selectFrom('request_audit_entry')
    .select(['id', 'kind', 'ip', 'user_agent', 'referrer', 'created_at'])
    .where('request_id', '=', requestId)
    .orderBy('id')
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as RequestAuditKind,
    ip: r.ip,
    userAgent: r.user_agent,
    referrer: r.referrer,
    createdAt: r.created_at,
  }));
}
