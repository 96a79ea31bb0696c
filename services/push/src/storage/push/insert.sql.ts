import { type Kysely, sql } from 'kysely';
import { statementTemplate } from '@secret-push/db-kit';
import { UploadIntentLost } from '../../domain/errors';
import type { AuditContext, PushSnapshot } from '../../domain/push';
import type { NewFileRecord } from '../../domain/ports/file-store';
import type { NewPushRecord } from '../../domain/ports/push-store';
import type { PushDatabase } from '../database';
import { auditValues } from './audit';
import { outboxFrom } from './outbox.sql';
import { type RowWithNow, snapshot } from './rows';

type Db = Kysely<PushDatabase>;

type InsertInput = {
  id: string;
  tokenHash: Buffer;
  tokenSealed: Buffer;
  keyId: string;
  kind: string;
  owner: string | null;
  name: string | null;
  payloadSealed: Buffer | null;
  noteSealed: Buffer | null;
  passphraseHash: string | null;
  passphraseProtected: boolean;
  expireAfterDays: number;
  expireAfterViews: number;
  ttlSeconds: number;
  deletableByViewer: boolean | null;
  retrievalStep: boolean;
  outbox: boolean;
  ip: string | null;
  userAgent: string;
  referrer: string;
};

/**
 * The insert, compiled once (db-kit statementTemplate): `outbox` is the listeners the domain knows
 * of (owner notices), or an enabled webhook endpoint of the owner, looked up by the same statement
 * (webhook_endpoint_owner_idx): no extra round trip.
 */
const INSERT = statementTemplate<InsertInput, RowWithNow>(
  [
    'id',
    'tokenHash',
    'tokenSealed',
    'keyId',
    'kind',
    'owner',
    'name',
    'payloadSealed',
    'noteSealed',
    'passphraseHash',
    'passphraseProtected',
    'expireAfterDays',
    'expireAfterViews',
    'ttlSeconds',
    'deletableByViewer',
    'retrievalStep',
    'outbox',
    'ip',
    'userAgent',
    'referrer',
  ],
  (r) => sql<RowWithNow>`/*prepared:push_insert*/
    with p as (
      insert into push (id, token_hash, token_sealed, key_id, kind, owner, name, payload_sealed, note_sealed,
                        passphrase_hash, passphrase_protected, expire_after_days, expire_after_views, expires_at,
                        deletable_by_viewer, retrieval_step, audit_entries, outbox)
      values (${r.id}, ${r.tokenHash}, ${r.tokenSealed}, ${r.keyId}, ${r.kind}, ${r.owner}, ${r.name},
              ${r.payloadSealed}, ${r.noteSealed}, ${r.passphraseHash}, ${r.passphraseProtected},
              ${r.expireAfterDays}, ${r.expireAfterViews}, now() + make_interval(secs => ${r.ttlSeconds}),
              ${r.deletableByViewer}, ${r.retrievalStep}, 1,
              ${r.outbox} or exists (select 1 from webhook_endpoint w where w.owner = ${r.owner} and w.enabled))
      returning *
    ), a as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('creation', { ip: r.ip, userAgent: r.userAgent, referrer: r.referrer })} from p
      returning id, push_id, kind
    ), ev as (
      ${outboxFrom('a', 'p')}
    )
    select p.*, now() as db_now from p`,
);

/** Inserts the push and its `creation` entry in one statement; the window starts at the database's now(). */
export async function insertPush(db: Db, r: NewPushRecord, ctx: AuditContext): Promise<PushSnapshot> {
  const { rows } = await INSERT.execute(db, {
    id: r.id,
    tokenHash: r.tokenHash,
    tokenSealed: r.tokenSealed,
    keyId: r.keyId,
    kind: r.kind,
    owner: r.owner,
    name: r.name,
    payloadSealed: r.payloadSealed,
    noteSealed: r.noteSealed,
    passphraseHash: r.passphraseHash,
    passphraseProtected: r.passphraseHash !== null,
    expireAfterDays: r.expireAfterDays,
    expireAfterViews: r.expireAfterViews,
    ttlSeconds: r.ttlSeconds,
    deletableByViewer: r.deletableByViewer,
    retrievalStep: r.retrievalStep,
    outbox: r.outbox,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    referrer: ctx.referrer,
  });
  return snapshot(rows[0]!);
}

/**
 * A file push's rows, in the transaction of its push: the file rows, and the upload intents
 * consumed. If the sweep has taken one (an upload that outlived the stale limit), nothing commits.
 */
export async function insertFiles(trx: Db, record: NewPushRecord, files: NewFileRecord[]): Promise<void> {
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
export function insertPushWithFiles(
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
