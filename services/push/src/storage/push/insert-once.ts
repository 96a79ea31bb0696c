import { type Kysely, sql } from 'kysely';
import type { AuditContext } from '../../domain/push';
import type { NewFileRecord } from '../../domain/ports/file-store';
import type {
  IdempotencyRecord,
  KeyedInsert,
  NewPushRecord,
  StoredPush,
} from '../../domain/ports/push-store';
import type { PushDatabase } from '../database';
import type { PushRow } from '../push.table';
import { NOW } from '../view-rule.sql';
import { insertFiles, insertPush } from './insert.sql';
import { writePushEmail } from './insert-email';
import { stored } from './rows';

type Db = Kysely<PushDatabase>;

/** The key row a create waited for was purged before it could be read: the create tries again. */
class KeyVanished extends Error {}

/** Expired keys each keyed create deletes besides its own work, so the table holds about one lifetime of keys. */
const KEY_PURGE_BATCH = 10;

/**
 * Takes the key: inserts its row, or takes over a row older than the key's lifetime, and purges a
 * few expired keys of any scope. A row of a create still in flight makes it wait (on the primary
 * key) until that create commits or rolls back; a committed row that is still alive is not taken.
 */
async function takeKey(trx: Db, key: IdempotencyRecord, pushId: string): Promise<boolean> {
  const expiredBefore = sql<Date>`now() - make_interval(secs => ${key.ttlSeconds})`;
  const ctid = sql<string>`ctid`;
  const taken = await trx
    .with('purge', (qb) =>
      qb.deleteFrom('idempotency_key').where((eb) =>
        eb(
          ctid,
          'in',
          eb
            .selectFrom('idempotency_key')
            .select(ctid.as('ctid'))
            .where('created_at', '<', expiredBefore)
            .where((eb) => eb.not(eb.and({ scope: key.scope, key_hash: key.keyHash })))
            .orderBy('created_at')
            .limit(KEY_PURGE_BATCH)
            .forUpdate()
            .skipLocked(),
        ),
      ),
    )
    .insertInto('idempotency_key')
    .values({ scope: key.scope, key_hash: key.keyHash, request_hash: key.requestHash, push_id: pushId })
    .onConflict((oc) =>
      oc
        .columns(['scope', 'key_hash'])
        .doUpdateSet((eb) => ({
          request_hash: eb.ref('excluded.request_hash'),
          push_id: eb.ref('excluded.push_id'),
          created_at: NOW,
        }))
        .where('idempotency_key.created_at', '<', expiredBefore),
    )
    .returning(sql<number>`1`.as('taken'))
    .executeTakeFirst();
  return taken !== undefined;
}

/** The create that took the key first: its fingerprint and its push as it is now. */
async function keyHolder(trx: Db, key: IdempotencyRecord): Promise<KeyedInsert> {
  const row = await trx
    .selectFrom('idempotency_key as k')
    .leftJoin('push as p', 'p.id', 'k.push_id')
    .selectAll('p')
    .select(['k.request_hash as idempotency_request_hash', NOW.as('db_now')])
    .where('k.scope', '=', key.scope)
    .where('k.key_hash', '=', key.keyHash)
    .executeTakeFirst();
  // Purged as expired between the two statements (a key at the end of its lifetime): try again.
  if (!row) throw new KeyVanished();
  return {
    outcome: 'existing',
    requestHash: row.idempotency_request_hash,
    // The push's columns are all null only when it is gone (left join); otherwise they are its row.
    push: row.id === null ? undefined : stored(row as PushRow, row.db_now),
  };
}

/**
 * A create under an Idempotency-Key, in one transaction whose first statement takes the key (see
 * takeKey); when it is not taken, the next statement reads it with its push (then nothing was
 * written, the transaction commits empty). The push's foreign key is checked at commit, so the key
 * row can come first.
 */
function insertPushOnceTx(
  db: Db,
  record: NewPushRecord,
  ctx: AuditContext,
  key: IdempotencyRecord,
  files: NewFileRecord[] | undefined,
): Promise<KeyedInsert> {
  return db.transaction().execute(async (trx) => {
    if (!(await takeKey(trx, key, record.id))) return keyHolder(trx, key);
    const created = await insertPush(trx, record, ctx);
    if (files && files.length > 0) await insertFiles(trx, record, files);
    return { outcome: 'created', snapshot: await writePushEmail(trx, record, ctx, created) };
  });
}

/** The keyed insert, tried again (up to three times) when the key it waited for vanished. */
export async function insertPushOnce(
  db: Db,
  record: NewPushRecord,
  ctx: AuditContext,
  key: IdempotencyRecord,
  files: NewFileRecord[] | undefined,
): Promise<KeyedInsert> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await insertPushOnceTx(db, record, ctx, key, files);
    } catch (err) {
      if (!(err instanceof KeyVanished) || attempt >= 3) throw err;
    }
  }
}

/** The push a keyed create made, when its key was taken within the last `withinSeconds`. */
export async function findByIdempotencyKey(
  db: Db,
  key: { scope: string; keyHash: Buffer },
  withinSeconds: number,
): Promise<StoredPush | undefined> {
  const row = await db
    .selectFrom('idempotency_key as k')
    .innerJoin('push as p', 'p.id', 'k.push_id')
    .selectAll('p')
    .select(NOW.as('db_now'))
    .where('k.scope', '=', key.scope)
    .where('k.key_hash', '=', key.keyHash)
    .where('k.created_at', '>', sql<Date>`now() - make_interval(secs => ${withinSeconds})`)
    .executeTakeFirst();
  return row && stored(row, row.db_now);
}
