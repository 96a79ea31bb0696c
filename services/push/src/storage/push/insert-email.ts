import type { Kysely } from 'kysely';
import type { AuditContext, PushSnapshot } from '../../domain/push';
import type { NewFileRecord } from '../../domain/ports/file-store';
import type { NewPushRecord } from '../../domain/ports/push-store';
import type { PushDatabase } from '../database';
import { insertSend } from '../email-send.sql';
import { insertFiles, insertPush } from './insert.sql';

type Db = Kysely<PushDatabase>;

/**
 * What a create with email writes after its push, in the same transaction: the push's owner
 * notices and email language, and the send (entry, batch, queued emails) when it names
 * recipients. Returns the snapshot as it now stands.
 */
export async function writePushEmail(
  trx: Db,
  record: NewPushRecord,
  ctx: AuditContext,
  created: PushSnapshot,
): Promise<PushSnapshot> {
  const email = record.email;
  if (!email) return created;
  await trx
    .updateTable('push')
    .set({ notify_owner_on: email.noticeOn, email_locale: email.locale })
    .where('id', '=', record.id)
    .execute();
  if (email.send) {
    if (record.owner === null) {
      throw new Error('unreachable: the email policy refuses sends without an owner');
    }
    await insertSend(trx, { id: record.id, owner: record.owner }, email.send, ctx);
  }
  return { ...created, push: { ...created.push, noticeOn: email.noticeOn, emailLocale: email.locale } };
}

/**
 * A create that involves email (and perhaps files): the push, its files, its email rows in one
 * transaction. A create without email never comes here: it stays the one statement of insertPush.
 */
export function insertPushWithEmail(
  db: Db,
  record: NewPushRecord,
  ctx: AuditContext,
  files: NewFileRecord[] | undefined,
): Promise<PushSnapshot> {
  return db.transaction().execute(async (trx) => {
    const created = await insertPush(trx, record, ctx);
    if (files && files.length > 0) await insertFiles(trx, record, files);
    return writePushEmail(trx, record, ctx, created);
  });
}
