import { type Kysely, type RawBuilder, sql } from 'kysely';
import { UploadIntentLost } from '../domain/errors';
import {
  type AuditContext,
  type AuditEntry,
  type AuditKind,
  PAGE_SIZE,
  type Push,
  type PushKind,
  type PushSnapshot,
} from '../domain/push';
import type { NewFileRecord } from '../domain/ports/file-store';
import type {
  IdempotencyRecord,
  KeyedInsert,
  NewPushRecord,
  PushStore,
  StoredPush,
  ViewedSecrets,
  Visit,
  VisitRequest,
} from '../domain/ports/push-store';
import type { PushDatabase } from './database';
import type { PushRow } from './push.table';
import {
  type Instant,
  NOW,
  PURGE_FILES_NOW,
  WIPE_SECRETS,
  isLastView,
  pastWindow,
  viewable,
} from './view-rule.sql';

type Db = Kysely<PushDatabase>;
type RowWithNow = PushRow & { db_now: Date };

function toPush(row: PushRow): Push {
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
    auditDropped: row.audit_dropped,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const snapshot = (row: RowWithNow): PushSnapshot => ({ push: toPush(row), now: row.db_now });

const stored = (row: PushRow, now: Date): StoredPush => ({
  push: toPush(row),
  now,
  secrets: {
    keyId: row.key_id,
    tokenSealed: row.token_sealed,
    noteSealed: row.note_sealed,
    passphraseHash: row.passphrase_hash,
  },
});

function auditValues(kind: AuditKind, ctx: AuditContext | null) {
  return sql`${kind}, ${ctx?.ip ?? null}, ${ctx?.userAgent ?? ''}, ${ctx?.referrer ?? ''}`;
}

/** Inserts the push and its `creation` entry in one statement; the window starts at the database's now(). */
async function insertPush(db: Db, r: NewPushRecord, ctx: AuditContext): Promise<PushSnapshot> {
  const { rows } = await sql<RowWithNow>`/*prepared:push_insert*/
    with p as (
      insert into push (id, token_hash, token_sealed, key_id, kind, owner, name, payload_sealed, note_sealed,
                        passphrase_hash, passphrase_protected, expire_after_days, expire_after_views, expires_at,
                        deletable_by_viewer, retrieval_step, audit_entries)
      values (${r.id}, ${r.tokenHash}, ${r.tokenSealed}, ${r.keyId}, ${r.kind}, ${r.owner}, ${r.name},
              ${r.payloadSealed}, ${r.noteSealed}, ${r.passphraseHash}, ${r.passphraseHash !== null},
              ${r.expireAfterDays}, ${r.expireAfterViews}, now() + make_interval(secs => ${r.ttlSeconds}),
              ${r.deletableByViewer}, ${r.retrievalStep}, 1)
      returning *
    ), a as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('creation', ctx)} from p
    )
    select p.*, now() as db_now from p`.execute(db);
  return snapshot(rows[0]!);
}

/**
 * A file push's rows, in the transaction of its push: the file rows, and the upload intents
 * consumed. If the sweep has taken one (an upload that outlived the stale limit), nothing commits.
 */
async function insertFiles(trx: Db, record: NewPushRecord, files: NewFileRecord[]): Promise<void> {
  await trx
    .insertInto('push_file')
    .values(
      files.map((f) => ({
        id: f.id,
        push_id: record.id,
        position: f.position,
        object_key: f.objectKey,
        filename_sealed: f.filenameSealed,
        content_type: f.contentType,
        size: f.size,
        key_sealed: f.keySealed,
      })),
    )
    .execute();
  const consumed = await trx
    .deleteFrom('upload_intent')
    .where(
      'object_key',
      'in',
      files.map((f) => f.objectKey),
    )
    .executeTakeFirst();
  if (Number(consumed.numDeletedRows) !== files.length) throw new UploadIntentLost();
}

/** The push, its files and its `creation` entry in one transaction (see insertFiles). */
function insertPushWithFiles(
  db: Db,
  record: NewPushRecord,
  ctx: AuditContext,
  files: NewFileRecord[],
): Promise<PushSnapshot> {
  return db.transaction().execute(async (trx) => {
    const created = await insertPush(trx, record, ctx);
    await insertFiles(trx, record, files);
    return created;
  });
}

/** The key row a create waited for was purged before it could be read: the create tries again. */
class KeyVanished extends Error {}

/** Expired keys each keyed create deletes besides its own work, so the table holds about one lifetime of keys. */
const KEY_PURGE_BATCH = 10;

/**
 * A create under an Idempotency-Key, in one transaction whose first statement takes the key: it
 * inserts the key's row, or takes over a row older than the key's lifetime, and purges a few
 * expired keys of any scope. A row of a create still in flight makes it wait (on the primary key)
 * until that create commits or rolls back; a committed row that is still alive is not taken, and
 * the next statement reads it with its push (then nothing was written, the transaction commits
 * empty). The push's foreign key is checked at commit, so the key row can come first.
 */
function insertPushOnce(
  db: Db,
  record: NewPushRecord,
  ctx: AuditContext,
  key: IdempotencyRecord,
  files: NewFileRecord[] | undefined,
): Promise<KeyedInsert> {
  const ttl = sql`make_interval(secs => ${key.ttlSeconds})`;
  return db.transaction().execute(async (trx) => {
    const taken = await sql<{ taken: number }>`
      with purge as (
        delete from idempotency_key where ctid in (
          select ctid from idempotency_key
          where created_at < now() - ${ttl} and not (scope = ${key.scope} and key_hash = ${key.keyHash})
          order by created_at limit ${KEY_PURGE_BATCH} for update skip locked)
      )
      insert into idempotency_key as k (scope, key_hash, request_hash, push_id)
      values (${key.scope}, ${key.keyHash}, ${key.requestHash}, ${record.id})
      on conflict (scope, key_hash) do update
        set request_hash = excluded.request_hash, push_id = excluded.push_id, created_at = now()
        where k.created_at < now() - ${ttl}
      returning 1 as taken`.execute(trx);
    if (taken.rows.length === 0) {
      const { rows } = await sql<RowWithNow & { idempotency_request_hash: Buffer }>`
        select p.*, k.request_hash as idempotency_request_hash, now() as db_now
        from idempotency_key k left join push p on p.id = k.push_id
        where k.scope = ${key.scope} and k.key_hash = ${key.keyHash}`.execute(trx);
      const row = rows[0];
      // Purged as expired between the two statements (a key at the end of its lifetime): try again.
      if (!row) throw new KeyVanished();
      return {
        outcome: 'existing',
        requestHash: row.idempotency_request_hash,
        push: (row.id as string | null) === null ? undefined : stored(row, row.db_now),
      };
    }
    const created = await insertPush(trx, record, ctx);
    if (files && files.length > 0) await insertFiles(trx, record, files);
    return { outcome: 'created', snapshot: created };
  });
}

/** What a claim returns beside the row: the secrets as they were before a last view wiped them, and the files. */
interface ClaimColumns {
  old_payload: Buffer | null;
  old_note: Buffer | null;
  old_passphrase_hash: string | null;
  files: FileJson[] | null;
}

/** A push_file row as json_agg renders it (bytea as `\\x…` hex text). */
interface FileJson {
  id: string;
  object_key: string;
  filename_sealed: string;
  content_type: string;
  size: string | number;
  key_sealed: string;
}

const bytea = (hex: string) => Buffer.from(hex.slice(2), 'hex');

/** A file push's files, in order, as one JSON value of the claiming statement (no second query). */
const FILES_OF = (alias: string) => sql`(
  select coalesce(json_agg(json_build_object('id', f.id, 'object_key', f.object_key,
                                             'filename_sealed', f.filename_sealed, 'content_type', f.content_type,
                                             'size', f.size, 'key_sealed', f.key_sealed) order by f.position), '[]')
  from push_file f where f.push_id = ${sql.ref(`${alias}.id`)} and ${sql.ref(`${alias}.kind`)} = 'file')`;

function viewed(row: RowWithNow & ClaimColumns, viewId: string): Extract<Visit, { outcome: 'viewed' }> {
  return {
    outcome: 'viewed',
    snapshot: snapshot(row),
    payloadSealed: row.old_payload,
    keyId: row.key_id,
    viewId,
    files: (row.files ?? []).map((f) => ({
      id: f.id,
      objectKey: f.object_key,
      filenameSealed: bytea(f.filename_sealed),
      contentType: f.content_type,
      size: Number(f.size),
      keySealed: bytea(f.key_sealed),
    })),
    before: {
      payloadSealed: row.old_payload,
      noteSealed: row.old_note,
      passphraseHash: row.old_passphrase_hash,
    },
  };
}

/**
 * Undoes a view whose payload could not be delivered (a compensating statement): the count goes
 * back, the `view` entry becomes `view_refunded` (its download links stop working), and if that
 * view had expired the push (and nothing deleted it since), the push is active again with the
 * secrets it had, its `expire_by_views` entry removed.
 */
async function refundView(
  db: Db,
  v: { pushId: string; viewId: string; before: ViewedSecrets },
): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    with v as (
      update audit_entry set kind = 'view_refunded'
      where id = ${v.viewId} and push_id = ${v.pushId} and kind = 'view'
      returning push_id
    ), ev as (
      delete from audit_entry
      where push_id = ${v.pushId} and kind = 'expire_by_views' and id > ${v.viewId} and exists (select 1 from v)
      returning id
    ), back as (select exists (select 1 from ev) as unexpire)
    update push p set
      views = p.views - 1,
      expired = case when b.unexpire and not p.deleted then false else p.expired end,
      expired_on = case when b.unexpire and not p.deleted then null else p.expired_on end,
      payload_sealed = case when b.unexpire and not p.deleted then ${v.before.payloadSealed} else p.payload_sealed end,
      note_sealed = case when b.unexpire and not p.deleted then ${v.before.noteSealed} else p.note_sealed end,
      passphrase_hash = case when b.unexpire and not p.deleted then ${v.before.passphraseHash} else p.passphrase_hash end,
      files_purge_after = case when b.unexpire and not p.deleted then null else p.files_purge_after end,
      audit_entries = p.audit_entries - case when b.unexpire then 1 else 0 end,
      updated_at = now()
    from back b
    where p.id = ${v.pushId} and exists (select 1 from v)
    returning p.id`.execute(db);
  return rows.length > 0;
}

/** The view rule's fragments a visit uses, at `at` (built once for the database's now()). */
const ruleAt = (at: Instant) => ({ viewable: viewable(at), due: pastWindow(at), last: isLastView() });
const RULE_NOW = ruleAt(NOW);

/**
 * The common case of a visit, in the leanest statement: claims a view only if the push is viewable
 * (and not locked by a passphrase that was not verified); no row otherwise, and then nothing was
 * changed. Same claim as visitStatement's, for a fraction of its parsing and planning.
 */
export async function claimStatement(
  db: Db,
  q: VisitRequest,
  at: Instant = NOW,
): Promise<Extract<Visit, { outcome: 'viewed' }> | undefined> {
  const rule = at === NOW ? RULE_NOW : ruleAt(at);
  const { rows } = await sql<RowWithNow & ClaimColumns & { view_id: string }>`/*prepared:push_claim*/
    with target as (
      select id, payload_sealed as old_payload, note_sealed as old_note, passphrase_hash as old_passphrase_hash,
             ${rule.last} as last
      from push
      where token_hash = ${q.tokenHash} and ${rule.viewable} and (passphrase_hash is null or ${q.passphraseVerified})
      for update
    ), claimed as (
      update push p set
        views = p.views + 1,
        expired = t.last,
        expired_on = case when t.last then ${at} end,
        payload_sealed = case when t.last then null else p.payload_sealed end,
        note_sealed = case when t.last then null else p.note_sealed end,
        passphrase_hash = case when t.last then null else p.passphrase_hash end,
        files_purge_after = case when t.last and p.kind = 'file' then least(${at} + make_interval(secs => ${q.fileGraceSeconds}), p.expires_at) end,
        audit_entries = p.audit_entries + case when t.last then 2 else 1 end,
        updated_at = now()
      from target t where p.id = t.id
      returning p.*, t.old_payload, t.old_note, t.old_passphrase_hash
    ), view_audit as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('view', q.ctx)} from claimed
      returning id
    ), expiry_audit as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('expire_by_views', q.ctx)} from claimed where expired
    )
    select claimed.*, now() as db_now, view_audit.id as view_id, ${FILES_OF('claimed')} as files
    from claimed cross join view_audit`.execute(db);
  const row = rows[0];
  return row && viewed(row, row.view_id);
}

/**
 * One visit in one statement (see `Visit` in domain/ports/push-store.ts). Under the row's lock it decides,
 * with the rule of view-rule.sql.ts at `at`:
 * - claim: `view` mode, viewable, and no passphrase or a verified one. The view is counted; when it
 *   is the last, the push expires and its secrets are wiped (and a file push's purge is set after
 *   the grace period); audited `view` (+ `expire_by_views`). The *old* sealed payload is returned.
 * - due: not yet flagged but past its window: expired by time now, audited `expire_by_time`.
 * - noise: a refusal (`failed_view`, `failed_passphrase`) or a page opening (`link_opened`),
 *   recorded while the push holds fewer than `maxAuditEntries` entries, otherwise only counted;
 *   `failed_passphrase` is always recorded (see recordCappedAudit).
 * Concurrent visits serialize on the row lock and re-read the row, so N readers of V remaining
 * views get exactly min(N, V) payloads. Exported with `at` for the agreement test.
 */
export async function visitStatement(db: Db, q: VisitRequest, at: Instant = NOW): Promise<Visit | undefined> {
  const openMode = q.mode === 'open';
  const rule = at === NOW ? RULE_NOW : ruleAt(at);
  const ctx = q.ctx;
  const { rows } = await sql<
    RowWithNow &
      ClaimColumns & {
        claimed: boolean;
        due: boolean;
        noise: AuditKind | null;
        view_id: string | null;
      }
  >`/*prepared:push_visit*/
    with cur as (
      select id, payload_sealed as old_payload, note_sealed as old_note, passphrase_hash as old_passphrase_hash,
             ${rule.due} as due, ${rule.last} as last,
             (not ${openMode} and ${rule.viewable} and (passphrase_hash is null or ${q.passphraseVerified})) as claimed,
             case when ${openMode} then 'link_opened'
                  when not ${rule.viewable} then 'failed_view'
                  when passphrase_hash is not null and not ${q.passphraseVerified} then 'failed_passphrase' end as noise,
             audit_entries < ${q.maxAuditEntries} as room
      from push where token_hash = ${q.tokenHash}
      for update
    ), upd as (
      update push p set
        views = p.views + case when c.claimed then 1 else 0 end,
        expired = p.expired or (c.claimed and c.last) or c.due,
        expired_on = case when (c.claimed and c.last) or c.due then ${at} else p.expired_on end,
        payload_sealed = case when (c.claimed and c.last) or c.due then null else p.payload_sealed end,
        note_sealed = case when (c.claimed and c.last) or c.due then null else p.note_sealed end,
        passphrase_hash = case when (c.claimed and c.last) or c.due then null else p.passphrase_hash end,
        files_purge_after = case when p.kind <> 'file' then p.files_purge_after
                                 when c.due then ${at}
                                 when c.claimed and c.last then least(${at} + make_interval(secs => ${q.fileGraceSeconds}), p.expires_at)
                                 else p.files_purge_after end,
        audit_entries = p.audit_entries + case when c.claimed and c.last then 2 when c.claimed then 1 else 0 end
                        + case when c.due then 1 else 0 end + case when c.noise is not null and (c.room or c.noise = 'failed_passphrase') then 1 else 0 end,
        audit_dropped = p.audit_dropped + case when c.noise is not null and not (c.room or c.noise = 'failed_passphrase') then 1 else 0 end,
        updated_at = case when c.claimed or c.due then now() else p.updated_at end
      from cur c where p.id = c.id
      returning p.*, c.claimed, c.noise, c.old_payload, c.old_note, c.old_passphrase_hash, c.due, c.last,
                c.noise is not null and (c.room or c.noise = 'failed_passphrase') as noted
    ), view_audit as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('view', ctx)} from upd where claimed
      returning id
    ), other_audits as (
      -- in this order: a push found past its window is expired before the refusal is recorded
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select upd.id, e.kind, e.ip, e.user_agent, e.referrer
      from upd cross join lateral (values
        (1, 'expire_by_time', null::text, '', '', upd.due),
        (2, 'expire_by_views', ${ctx.ip}::text, ${ctx.userAgent}, ${ctx.referrer}, upd.claimed and upd.last),
        (3, upd.noise, ${ctx.ip}::text, ${ctx.userAgent}, ${ctx.referrer}, upd.noted)
      ) as e(n, kind, ip, user_agent, referrer, wanted)
      where e.wanted
      order by e.n
    )
    select upd.*, now() as db_now, (select id from view_audit) as view_id,
           case when upd.claimed then ${FILES_OF('upd')} end as files
    from upd`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const snap = snapshot(row);
  if (row.claimed) return viewed(row, row.view_id!);
  const expiredByTime = row.due;
  if (openMode) return { outcome: 'opened', snapshot: snap, expiredByTime };
  const reason = row.noise === 'failed_passphrase' ? 'passphrase' : 'expired';
  return { outcome: 'refused', reason, snapshot: snap, expiredByTime };
}

/**
 * Expires one push in one statement when `condition` holds: flags it (and `deleted` for a manual
 * expiry), wipes the secrets, records `expired_on` and the audit entry. Undefined when the
 * condition did not hold (already expired, or not yet past its window).
 */
async function expireOne(
  db: Db,
  pushId: string,
  how: { condition: RawBuilder<boolean>; deleted: boolean; kind: AuditKind; ctx: AuditContext | null },
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

/**
 * Every push of an owner that is still active expires now, deleted, its secrets wiped, each audited
 * `expire` (as a DELETE would); the files of its file pushes already expired but still in their
 * grace period are released for purging now. One statement: the two updates touch disjoint rows
 * (active / expired in the statement's snapshot); a concurrent view waits for the row lock and
 * re-checks `not expired`, so nothing is served after this commits.
 */
async function expireAllOwned(db: Db, owner: string, ctx: AuditContext): Promise<PushSnapshot[]> {
  const { rows } = await sql<RowWithNow>`
    with e as (
      update push set expired = true, deleted = true, expired_on = now(), ${WIPE_SECRETS},
                      ${PURGE_FILES_NOW},
                      audit_entries = audit_entries + 1, updated_at = now()
      where owner = ${owner} and not expired
      returning *
    ), a as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('expire', ctx)} from e
    ), released as (
      update push set files_purge_after = now()
      where owner = ${owner} and expired and kind = 'file' and not files_purged and files_purge_after > now()
    )
    select e.*, now() as db_now from e`.execute(db);
  return rows.map(snapshot);
}

/**
 * The worker's tick: expires, in one statement, up to `batch` pushes that are past their window but
 * still active, oldest window first, skipping rows another worker or a reader holds (`SKIP LOCKED`),
 * so any number of workers can tick at once and each push is expired exactly once. The rows are
 * found through `push_active_expires_at_idx` (`expires_at` where not expired) and locked only for
 * this statement: a backlog is drained in many short statements, never one long one.
 */
async function expireDueBatch(db: Db, batch: number): Promise<PushSnapshot[]> {
  const { rows } = await sql<RowWithNow>`
    with due as (
      select id from push where ${pastWindow()} order by expires_at limit ${batch} for update skip locked
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

/**
 * Records a noise entry (failed_view, link_opened, file_download) unless the push already holds
 * `max` entries; then it is only counted (`audit_dropped`). `failed_passphrase` entries are never
 * dropped: they are the evidence of guessing, and guesses are rate limited per push anyway. The conditional UPDATE re-checks
 * the cap on the locked row, so the cap is exact under concurrency.
 */
async function recordCappedAudit(
  db: Db,
  pushId: string,
  kind: AuditKind,
  ctx: AuditContext,
  max: number,
): Promise<void> {
  await sql`
    with room as (
      update push set audit_entries = audit_entries + 1
      where id = ${pushId} and (audit_entries < ${max} or ${kind} = 'failed_passphrase')
      returning id
    ), dropped as (
      update push set audit_dropped = audit_dropped + 1
      where id = ${pushId} and not exists (select 1 from room)
    )
    insert into audit_entry (push_id, kind, ip, user_agent, referrer)
    select id, ${auditValues(kind, ctx)} from room`.execute(db);
}

async function listOwned(
  db: Db,
  owner: string,
  state: 'active' | 'expired',
  page: number,
): Promise<{ pushes: StoredPush[]; now: Date }> {
  const filter = state === 'active' ? viewable() : sql`not ${viewable()}`;
  const { rows } = await sql<RowWithNow>`
    select *, now() as db_now from push
    where owner = ${owner} and ${filter}
    order by created_at desc, id desc
    limit ${PAGE_SIZE} offset ${(page - 1) * PAGE_SIZE}`.execute(db);
  const now =
    rows[0]?.db_now ?? (await sql<{ db_now: Date }>`select now() as db_now`.execute(db)).rows[0]!.db_now;
  return { pushes: rows.map((r) => stored(r, now)), now };
}

async function listAuditEntries(db: Db, pushId: string, page: number): Promise<AuditEntry[]> {
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

/** The domain's PushStore over PostgreSQL. */
export function createPushRepository(db: Db): PushStore {
  return {
    insert: (record, ctx, files) =>
      files && files.length > 0 ? insertPushWithFiles(db, record, ctx, files) : insertPush(db, record, ctx),

    async insertOnce(record, ctx, key, files) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await insertPushOnce(db, record, ctx, key, files);
        } catch (err) {
          if (!(err instanceof KeyVanished) || attempt >= 3) throw err;
        }
      }
    },

    async findByTokenHash(tokenHash) {
      const { rows } =
        await sql<RowWithNow>`select *, now() as db_now from push where token_hash = ${tokenHash}`.execute(
          db,
        );
      const row = rows[0];
      return row && stored(row, row.db_now);
    },

    // A view that is likely to be granted tries the lean claim first; a miss is then explained by
    // the full statement (two statements for a refusal, one for the common case).
    async visit(request) {
      if (request.mode === 'view' && request.likelyViewable) {
        const claimed = await claimStatement(db, request);
        if (claimed) return claimed;
      }
      return visitStatement(db, request);
    },

    expireIfPastWindow: (pushId) =>
      expireOne(db, pushId, { condition: pastWindow(), deleted: false, kind: 'expire_by_time', ctx: null }),

    expireDueBatch: (batch) => expireDueBatch(db, batch),

    expireManually: (pushId, ctx) =>
      expireOne(db, pushId, { condition: sql<boolean>`not expired`, deleted: true, kind: 'expire', ctx }),

    expireAllOwned: (owner, ctx) => expireAllOwned(db, owner, ctx),

    refundView: (v) => refundView(db, v),

    async countDue(limit) {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from (select 1 from push where ${pastWindow()} limit ${limit}) due`.execute(
        db,
      );
      return rows[0]!.n;
    },

    recordCappedAudit: (pushId, kind, ctx, max) => recordCappedAudit(db, pushId, kind, ctx, max),
    listOwned: (owner, state, page) => listOwned(db, owner, state, page),
    listAuditEntries: (pushId, page) => listAuditEntries(db, pushId, page),
  };
}
