import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AuditContext, AuditEntry, AuditKind, Push, PushKind, PushSnapshot } from '../domain/push';
import type { PushDatabase } from './database';
import type { NewPushRow, PushRow } from './push.table';
import { PAST_WINDOW, PURGE_FILES_NOW, VIEWABLE, WIPE_SECRETS } from './push.sql';

type Db = Kysely<PushDatabase>;
type RowWithNow = PushRow & { db_now: Date };

export const PAGE_SIZE = 50;

export function pushRowToPush(row: PushRow): Push {
  return {
    id: row.id,
    kind: row.kind as PushKind,
    owner: row.owner,
    name: row.name,
    expireAfterDays: row.expire_after_days,
    expireAfterViews: row.expire_after_views,
    views: row.views,
    expiresAt: row.expires_at,
    expired: row.expired,
    expiredOn: row.expired_on,
    deleted: row.deleted,
    deletableByViewer: row.deletable_by_viewer,
    retrievalStep: row.retrieval_step,
    passphraseProtected: row.passphrase_protected,
    filesPurgeAfter: row.files_purge_after,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const snapshot = (row: RowWithNow): PushSnapshot => ({ push: pushRowToPush(row), now: row.db_now });

function auditValues(kind: AuditKind, ctx: AuditContext | null) {
  return sql`${kind}, ${ctx?.ip ?? null}, ${ctx?.userAgent ?? ''}, ${ctx?.referrer ?? ''}`;
}

/** Inserts the push and its `creation` entry in one statement; the window starts at the database's now(). */
export async function insertPush(
  db: Db,
  row: NewPushRow,
  ttlSeconds: number,
  ctx: AuditContext,
): Promise<PushSnapshot> {
  const { rows } = await sql<RowWithNow>`
    with p as (
      insert into push (id, token_hash, token_sealed, key_id, kind, owner, name, payload_sealed, note_sealed,
                        passphrase_hash, passphrase_protected, expire_after_days, expire_after_views, expires_at,
                        deletable_by_viewer, retrieval_step, audit_entries)
      values (${row.id}, ${row.token_hash}, ${row.token_sealed}, ${row.key_id}, ${row.kind}, ${row.owner ?? null},
              ${row.name ?? null}, ${row.payload_sealed ?? null}, ${row.note_sealed ?? null}, ${row.passphrase_hash ?? null},
              ${row.passphrase_protected}, ${row.expire_after_days}, ${row.expire_after_views},
              now() + make_interval(secs => ${ttlSeconds}), ${row.deletable_by_viewer ?? null}, ${row.retrieval_step}, 1)
      returning *
    ), a as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('creation', ctx)} from p
    )
    select p.*, now() as db_now from p`.execute(db);
  return snapshot(rows[0]!);
}

export async function findPushByTokenHash(
  db: Db,
  tokenHash: Buffer,
): Promise<(PushSnapshot & { row: PushRow }) | undefined> {
  const { rows } =
    await sql<RowWithNow>`select *, now() as db_now from push where token_hash = ${tokenHash}`.execute(db);
  const row = rows[0];
  return row && { ...snapshot(row), row };
}

/**
 * Claims one view in one statement (DESIGN §5): lock the row in a CTE where it is viewable, count
 * the view, expire and wipe it when this was the last view, audit, and return the *old* sealed
 * payload from the CTE (the updated row has it wiped). Concurrent claims serialize on the row
 * lock and re-check the predicate, so N readers of V remaining views get exactly min(N, V) payloads.
 * A passphrase-protected push is claimable only with `passphraseVerified`.
 */
export interface ClaimedView extends PushSnapshot {
  payloadSealed: Buffer | null;
  keyId: string;
  /** The `view` audit entry's id: file download links are bound to it. */
  viewId: string;
}

export async function claimView(
  db: Db,
  tokenHash: Buffer,
  ctx: AuditContext,
  passphraseVerified: boolean,
  fileGraceSeconds: number,
): Promise<ClaimedView | undefined> {
  const { rows } = await sql<RowWithNow & { claimed_payload: Buffer | null; view_id: string }>`
    with target as (
      select id, payload_sealed from push
      where token_hash = ${tokenHash} and ${VIEWABLE} and (passphrase_hash is null or ${passphraseVerified})
      for update
    ), claimed as (
      update push p set
        views = p.views + 1,
        expired = p.views + 1 >= p.expire_after_views,
        expired_on = case when p.views + 1 >= p.expire_after_views then now() end,
        payload_sealed = case when p.views + 1 >= p.expire_after_views then null else p.payload_sealed end,
        note_sealed = case when p.views + 1 >= p.expire_after_views then null else p.note_sealed end,
        passphrase_hash = case when p.views + 1 >= p.expire_after_views then null else p.passphrase_hash end,
        files_purge_after = case when p.views + 1 >= p.expire_after_views and p.kind = 'file'
                                 then now() + make_interval(secs => ${fileGraceSeconds}) end,
        audit_entries = p.audit_entries + case when p.views + 1 >= p.expire_after_views then 2 else 1 end,
        updated_at = now()
      from target where p.id = target.id
      returning p.*
    ), view_audit as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('view', ctx)} from claimed
      returning id
    ), expiry_audit as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('expire_by_views', ctx)} from claimed where expired
    )
    select claimed.*, target.payload_sealed as claimed_payload, view_audit.id as view_id, now() as db_now
    from claimed join target on target.id = claimed.id cross join view_audit`.execute(db);
  const row = rows[0];
  return (
    row && { ...snapshot(row), payloadSealed: row.claimed_payload, keyId: row.key_id, viewId: row.view_id }
  );
}

/**
 * Expires one push in one statement when `condition` holds: flags it (and `deleted` for a manual
 * expiry), wipes the secrets, records `expired_on` and the audit entry. Undefined when the
 * condition did not hold (already expired, or not yet past its window).
 */
async function expireOne(
  db: Db,
  pushId: string,
  how: { condition: RawBuilder<unknown>; deleted: boolean; kind: AuditKind; ctx: AuditContext | null },
): Promise<PushSnapshot | undefined> {
  const { rows } = await sql<RowWithNow>`
    with e as (
      update push set expired = true, deleted = deleted or ${how.deleted}, expired_on = now(), ${WIPE_SECRETS},
                      ${PURGE_FILES_NOW},
                      audit_entries = audit_entries + 1, updated_at = now()
      where id = ${pushId} and ${how.condition}
      returning *
    ), a as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues(how.kind, how.ctx)} from e
    )
    select e.*, now() as db_now from e`.execute(db);
  const row = rows[0];
  return row && snapshot(row);
}

/** Expires the push if its window has passed (by the database's clock); audited `expire_by_time`. */
export function expireIfPastWindow(db: Db, pushId: string): Promise<PushSnapshot | undefined> {
  return expireOne(db, pushId, { condition: PAST_WINDOW, deleted: false, kind: 'expire_by_time', ctx: null });
}

/** Manual expiry (DELETE): expired and deleted, secrets wiped, audited `expire`; undefined if already expired. */
export function expireByOwnerOrViewer(
  db: Db,
  pushId: string,
  ctx: AuditContext,
): Promise<PushSnapshot | undefined> {
  return expireOne(db, pushId, { condition: sql`not expired`, deleted: true, kind: 'expire', ctx });
}

/**
 * Records a noise entry (failed_view, failed_passphrase, link_opened, …) unless the push already
 * holds `max` entries; then it is only counted (`audit_dropped`). The conditional UPDATE re-checks
 * the cap on the locked row, so the cap is exact under concurrency.
 */
export async function recordCappedAudit(
  db: Db,
  pushId: string,
  kind: AuditKind,
  ctx: AuditContext,
  max: number,
): Promise<void> {
  await sql`
    with room as (
      update push set audit_entries = audit_entries + 1 where id = ${pushId} and audit_entries < ${max} returning id
    ), dropped as (
      update push set audit_dropped = audit_dropped + 1
      where id = ${pushId} and not exists (select 1 from room)
    )
    insert into audit_entry (push_id, kind, ip, user_agent, referrer)
    select id, ${auditValues(kind, ctx)} from room`.execute(db);
}

export async function listOwnedPushes(
  db: Db,
  owner: string,
  state: 'active' | 'expired',
  page: number,
): Promise<{ rows: PushRow[]; now: Date }> {
  const filter = state === 'active' ? VIEWABLE : sql`not (${VIEWABLE})`;
  const { rows } = await sql<RowWithNow>`
    select *, now() as db_now from push
    where owner = ${owner} and ${filter}
    order by created_at desc, id desc
    limit ${PAGE_SIZE} offset ${(page - 1) * PAGE_SIZE}`.execute(db);
  const { rows: clock } = rows.length
    ? { rows }
    : await sql<{ db_now: Date }>`select now() as db_now`.execute(db);
  return { rows, now: clock[0]!.db_now };
}

export async function listAuditEntries(db: Db, pushId: string, page: number): Promise<AuditEntry[]> {
  const rows = await db
    .selectFrom('audit_entry')
    .select(['kind', 'ip', 'user_agent', 'referrer', 'created_at'])
    .where('push_id', '=', pushId)
    .orderBy('id')
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .execute();
  return rows.map((r) => ({
    kind: r.kind as AuditKind,
    ip: r.ip,
    userAgent: r.user_agent,
    referrer: r.referrer,
    createdAt: r.created_at,
  }));
}

/**
 * The sweep: expires, in one statement, up to `batch` pushes that are past their window but still
 * active, oldest window first, skipping rows another sweeper or reader holds (`SKIP LOCKED`), so
 * any number of workers can sweep at once and each push is expired exactly once.
 */
export async function expireDueBatch(db: Db, batch: number): Promise<PushSnapshot[]> {
  const { rows } = await sql<RowWithNow>`
    with due as (
      select id from push where ${PAST_WINDOW} order by expires_at limit ${batch} for update skip locked
    ), e as (
      update push p set expired = true, expired_on = now(), ${WIPE_SECRETS}, ${PURGE_FILES_NOW},
                        audit_entries = p.audit_entries + 1, updated_at = now()
      from due where p.id = due.id
      returning p.*
    ), a as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('expire_by_time', null)} from e
    )
    select e.*, now() as db_now from e`.execute(db);
  return rows.map(snapshot);
}

/** Milliseconds until the push's window ends by the database's clock; undefined when gone or expired. */
export async function msUntilWindowEnds(db: Db, pushId: string): Promise<number | undefined> {
  const { rows } = await sql<{ ms: number }>`
    select (extract(epoch from (expires_at - now())) * 1000)::float8 as ms
    from push where id = ${pushId} and not expired`.execute(db);
  return rows[0]?.ms;
}
