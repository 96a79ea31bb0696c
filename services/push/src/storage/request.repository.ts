import { type Kysely, sql } from 'kysely';
import type { NewPushRecord } from '../domain/ports/push-store';
import type { AnswerOutcome, NewRequestRecord, RequestStore } from '../domain/ports/request-store';
import { type AuditContext, PAGE_SIZE } from '../domain/push';
import { REQUEST_EVENT_TYPES, type RequestSnapshot } from '../domain/request';
import type { PushDatabase } from './database';
import { insertPush } from './push/insert.sql';
import { listRequestAudit, recordRequestAudit, requestAuditValues } from './request/audit';
import { type RequestRowWithNow, selectStored, storedRequest, toRequest } from './request/rows';

type Db = Kysely<PushDatabase>;

const snapshotOf = (row: RequestRowWithNow): RequestSnapshot => ({
  request: toRequest(row),
  now: row.db_now,
});

/**
 * Inserts the request and its `creation` entry in one statement; the window starts at the
 * database's now(). `outbox`: the listener the domain knows of, or an enabled webhook endpoint of
 * the owner that asks for a request event type, looked up by the same statement.
 */
async function insertRequest(db: Db, r: NewRequestRecord, ctx: AuditContext): Promise<RequestSnapshot> {
  const types = [...REQUEST_EVENT_TYPES];
  const { rows } = await sql<RequestRowWithNow>`
    with r as (
      insert into request (id, token_hash, token_sealed, key_id, owner, message_sealed, name, note_sealed,
                           passphrase_hash, response_file_attachments, include_requestor, requestor_email,
                           answerable_by, answerable_emails, close_after_at, close_after_duration,
                           expire_after_days, expire_after_duration, answer_expire_after_views,
                           answer_expire_after_days, answer_expire_after_duration, answer_retrieval_step,
                           answer_deletable_by_viewer, notify_owner_on_answer, email_locale, outbox,
                           attachment_downloads_allowed, audit_entries)
      values (${r.id}, ${r.tokenHash}, ${r.tokenSealed}, ${r.keyId}, ${r.owner}, ${r.messageSealed}, ${r.name},
              ${r.noteSealed}, ${r.passphraseHash}, ${r.responseFileAttachments}, ${r.includeRequestor},
              ${r.requestorEmail}, ${r.answerableBy}, ${r.answerableEmails}::text[],
              now() + make_interval(secs => ${r.window.ttlSeconds}), ${r.window.closeAfterDuration},
              ${r.window.expireAfterDays}, ${r.window.expireAfterDuration}, ${r.answer.expireAfterViews},
              ${r.answer.expireAfterDays}, ${r.answer.expireAfterDuration}, ${r.answer.retrievalStep},
              ${r.answer.deletableByViewer}, ${r.notifyOwnerOnAnswer}, ${r.emailLocale},
              ${r.outbox} or exists (select 1 from webhook_endpoint w
                where w.owner = ${r.owner} and w.enabled and w.event_types && ${types}::text[]),
              ${r.attachmentDownloads}, 1)
      returning *
    ), a as (
      insert into request_audit_entry (request_id, kind, ip, user_agent, referrer)
      select id, ${requestAuditValues('creation', ctx)} from r
    )
    select r.*, now() as db_now from r`.execute(db);
  return snapshotOf(rows[0]!);
}

/**
 * Closes an open or answered request for its owner, with its `close` entry and (when it is
 * listened to) its `request_closed` event, in one statement. Its attachments are due for purging now.
 */
async function closeRequest(
  db: Db,
  requestId: string,
  ctx: AuditContext,
): Promise<RequestSnapshot | undefined> {
  const { rows } = await sql<RequestRowWithNow>`
    with r as (
      update request set state = 'closed', closed_at = now(), closed_reason = 'owner', updated_at = now(),
             audit_entries = audit_entries + 1,
             files_purge_after = case when exists (select 1 from request_file f where f.request_id = request.id)
                                      then now() else files_purge_after end
      where id = ${requestId} and state <> 'closed'
      returning *
    ), a as (
      insert into request_audit_entry (request_id, kind, ip, user_agent, referrer)
      select id, ${requestAuditValues('close', ctx)} from r
      returning id, request_id
    ), ev as (
      insert into push_event (request_id, kind, audit_id)
      select a.request_id, 'request_closed', a.id from a join r on r.id = a.request_id where r.outbox
    )
    select r.*, now() as db_now from r`.execute(db);
  return rows[0] ? snapshotOf(rows[0]) : undefined;
}

/**
 * The answer, under the request's row lock (two parallel answers: the second waits, then finds
 * it answered): the answer push is inserted exactly as a create inserts a push (with its
 * `creation` entry), then the request is answered, audited `answer` and, when listened to, its
 * `request_answered` event written, all in one transaction.
 */
async function answerRequest(
  db: Db,
  requestId: string,
  push: NewPushRecord,
  ctx: AuditContext,
): Promise<AnswerOutcome> {
  return db.transaction().execute(async (trx) => {
    const { rows: locked } = await sql<{ state: string; open: boolean }>`
      select state, close_after_at > now() as open from request where id = ${requestId} for update`.execute(
      trx,
    );
    const current = locked[0];
    if (!current || current.state === 'closed' || (current.state === 'open' && !current.open)) {
      return { outcome: 'gone' };
    }
    if (current.state === 'answered') return { outcome: 'already_answered' };
    const created = await insertPush(trx, push, ctx);
    const { rows } = await sql<RequestRowWithNow>`
      with r as (
        update request set state = 'answered', answer_push_id = ${push.id}, answered_at = now(),
               updated_at = now(), audit_entries = audit_entries + 1
        where id = ${requestId}
        returning *
      ), a as (
        insert into request_audit_entry (request_id, kind, ip, user_agent, referrer)
        select id, ${requestAuditValues('answer', ctx)} from r
        returning id, request_id
      ), ev as (
        insert into push_event (request_id, kind, audit_id)
        select a.request_id, 'request_answered', a.id from a join r on r.id = a.request_id where r.outbox
      )
      select r.*, now() as db_now from r`.execute(trx);
    return { outcome: 'answered', snapshot: snapshotOf(rows[0]!), push: created };
  });
}

/** The request store over PostgreSQL (see the migration 2026_11_27_0002_requests). */
export function createRequestRepository(db: Db): RequestStore {
  return {
    insert: (record, ctx) => insertRequest(db, record, ctx),
    async findByTokenHash(tokenHash) {
      const row = await selectStored(db).where('r.token_hash', '=', tokenHash).executeTakeFirst();
      return row ? storedRequest(row, row.db_now) : undefined;
    },
    async listOwned(owner, states, page) {
      const rows = await selectStored(db)
        .where('r.owner', '=', owner)
        .where('r.state', 'in', [...states])
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .execute();
      const now = rows[0]?.db_now ?? (await sql<{ now: Date }>`select now()`.execute(db)).rows[0]!.now;
      return { requests: rows.map((r) => storedRequest(r, now)), now };
    },
    listAuditEntries: (requestId, page) => listRequestAudit(db, requestId, page),
    recordAudit: (requestId, kind, ctx, max) => recordRequestAudit(db, requestId, kind, ctx, max),
    close: (requestId, ctx) => closeRequest(db, requestId, ctx),
    answer: (requestId, push, ctx) => answerRequest(db, requestId, push, ctx),
    async filesOf(requestId) {
      const rows = await db
        .selectFrom('request_file as f')
        .innerJoin('request as r', 'r.id', 'f.request_id')
        .select(['f.id', 'f.filename_sealed', 'r.key_id', 'f.content_type', 'f.size', 'f.downloads'])
        .where('f.request_id', '=', requestId)
        .orderBy('f.position')
        .execute();
      return rows.map((f) => ({
        id: f.id,
        filenameSealed: f.filename_sealed,
        keyId: f.key_id,
        contentType: f.content_type,
        size: Number(f.size),
        downloads: f.downloads,
      }));
    },
  };
}
