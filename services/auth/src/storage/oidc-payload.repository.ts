import { setImmediate } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { AuthDatabase } from './database';
import type { OidcPayloadRow } from './oidc-payload.table';

type Db = Kysely<AuthDatabase>;

export interface UpsertPayload {
  model: string;
  id: string;
  payload: Record<string, unknown>;
  expiresInSeconds: number | undefined;
  clientId: string | null;
  grantId: string | null;
  uid: string | null;
  userCode: string | null;
}

/**
 * Inserts or replaces payloads (one or several) in one statement: one round trip, one commit;
 * `expiresInSeconds` counts from the database's now(). The `(model, id)` pairs must be distinct
 * (PostgreSQL refuses to update one row twice in a statement). One text for any number of rows
 * (arrays, `unnest`), sent as a named prepared statement (planned once per connection): it runs
 * for every token issued.
 *
 * `asyncCommit`: the statement's transaction commits with `synchronous_commit = off`
 * (`set_config(…, true)`, local to it): the rows are visible to every session at once, as with any
 * commit, but the answer does not wait for the WAL flush (PostgreSQL flushes within
 * 3 × `wal_writer_delay`, 600 ms by default). Only a crash of the database server inside that
 * window can lose them. Otherwise the server's own setting applies.
 */
export async function upsertPayloads(
  db: Db,
  rows: readonly UpsertPayload[],
  { asyncCommit = false }: { asyncCommit?: boolean } = {},
): Promise<void> {
  const col = <T>(pick: (p: UpsertPayload) => T): T[] => rows.map(pick);
  await sql`/*prepared:oidc_upsert_many*/
    insert into oidc_payload (model, id, payload, client_id, grant_id, uid, user_code, expires_at)
    select model, id, payload::jsonb, client_id, grant_id, uid, user_code,
           now() + make_interval(secs => ttl)
    from unnest(${col((p) => p.model)}::text[], ${col((p) => p.id)}::text[],
                ${col((p) => JSON.stringify(p.payload))}::text[], ${col((p) => p.clientId)}::text[],
                ${col((p) => p.grantId)}::text[], ${col((p) => p.uid)}::text[],
                ${col((p) => p.userCode)}::text[],
                ${col((p) => p.expiresInSeconds ?? null)}::double precision[])
      as t(model, id, payload, client_id, grant_id, uid, user_code, ttl)
    cross join (select set_config('synchronous_commit',
      case when ${asyncCommit}::boolean then 'off' else current_setting('synchronous_commit') end,
      true)) as commit_mode
    on conflict (model, id) do update set
      payload = excluded.payload, client_id = excluded.client_id, grant_id = excluded.grant_id,
      uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`.execute(db);
}

/** The row when it exists and has not expired (by the database's clock). */
export async function findLivePayload(
  db: Db,
  by: { model: string } & ({ id: string } | { uid: string } | { userCode: string }),
): Promise<OidcPayloadRow | undefined> {
  let q = db
    .selectFrom('oidc_payload')
    .selectAll()
    .where('model', '=', by.model)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]));
  if ('id' in by) q = q.where('id', '=', by.id);
  else if ('uid' in by) q = q.where('uid', '=', by.uid);
  else q = q.where('user_code', '=', by.userCode);
  return q.limit(1).executeTakeFirst();
}

/** What a lookup by id needs of a row (fewer columns: less to parse, no dates but one). */
export type FoundPayload = Pick<OidcPayloadRow, 'model' | 'id' | 'payload' | 'consumed_at'>;

/**
 * The live rows among the `(model, id)` pairs `wanted`, in one statement: a superset is read (every
 * listed model × every listed id) and the pairs not asked for are dropped.
 */

export async function findLivePayloads(
  db: Db,
  wanted: readonly { model: string; id: string }[],
): Promise<FoundPayload[]> {
  const models = [...new Set(wanted.map((w) => w.model))];
  const ids = [...new Set(wanted.map((w) => w.id))];
  // Arrays, not IN lists: one text for any batch, sent as a named prepared statement (every
  // token and introspection request runs it).
  const { rows } = await sql<FoundPayload>`/*prepared:oidc_find*/
    select model, id, payload, consumed_at from oidc_payload
    where model = any(${models}::text[]) and id = any(${ids}::text[])
      and (expires_at is null or expires_at > now())`.execute(db);
  const asked = new Set(wanted.map((w) => `${w.model}\0${w.id}`));
  return rows.filter((r) => asked.has(`${r.model}\0${r.id}`));
}

export async function markConsumed(db: Db, model: string, id: string): Promise<void> {
  await db
    .updateTable('oidc_payload')
    .set({ consumed_at: sql<Date>`now()` })
    .where('model', '=', model)
    .where('id', '=', id)
    .execute();
}

export async function deletePayload(db: Db, model: string, id: string): Promise<void> {
  await db.deleteFrom('oidc_payload').where('model', '=', model).where('id', '=', id).execute();
}

export async function deleteByGrantId(db: Db, grantId: string): Promise<void> {
  await db.deleteFrom('oidc_payload').where('grant_id', '=', grantId).execute();
}

/**
 * Deletes every row oidc-provider stored for the account `accountId`: the rows whose payload names
 * it (Session, Grant, AuthorizationCode, AccessToken, RefreshToken), found through the partial
 * index `oidc_payload_account_idx`, and any other row of one of its grants (`grant_id`, through its
 * own index). Two statements, each on an index; run them in one transaction. Returns how many rows.
 */
export async function deletePayloadsOfAccount(db: Db, accountId: string): Promise<number> {
  const ofAccount = sql<boolean>`payload->>'accountId' = ${accountId}`;
  const grants = db.selectFrom('oidc_payload').select('id').where('model', '=', 'Grant').where(ofAccount);
  const byGrant = await db
    .deleteFrom('oidc_payload')
    .where(sql<boolean>`grant_id = any(array(${grants}))`)
    .where('model', '!=', 'Grant')
    .executeTakeFirst();
  const byAccount = await db.deleteFrom('oidc_payload').where(ofAccount).executeTakeFirst();
  return Number(byGrant.numDeletedRows) + Number(byAccount.numDeletedRows);
}

/**
 * Ends every provider session of `accountId` but `keepSessionId`, and revokes every grant of the
 * account that the kept session does not hold (`keepGrantIds`): the grant rows and every token and
 * code issued under them (rows with that `grant_id`), so that the applications signed in through
 * the other sessions lose the person at their next refresh. One transaction. Returns how many
 * sessions were ended.
 */
export async function endOtherSessions(
  db: Db,
  accountId: string,
  keepSessionId: string,
  keepGrantIds: readonly string[],
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const grants = await trx
      .selectFrom('oidc_payload')
      .select('id')
      .where('model', '=', 'Grant')
      .where(sql<string>`payload->>'accountId'`, '=', accountId)
      .execute();
    const revoked = grants.map((g) => g.id).filter((id) => !keepGrantIds.includes(id));
    if (revoked.length > 0) {
      await trx.deleteFrom('oidc_payload').where('grant_id', 'in', revoked).execute();
      await trx.deleteFrom('oidc_payload').where('model', '=', 'Grant').where('id', 'in', revoked).execute();
    }
    const sessions = await trx
      .deleteFrom('oidc_payload')
      .where('model', '=', 'Session')
      .where(sql<string>`payload->>'accountId'`, '=', accountId)
      .where('id', '<>', keepSessionId)
      .executeTakeFirst();
    return Number(sessions.numDeletedRows);
  });
}

/**
 * Rows one purge statement deletes at most. Each batch is its own statement (and transaction), so
 * it stays far inside the statement timeout (AUTH_DATABASE_STATEMENT_TIMEOUT_MS) however large the
 * backlog, and every batch that completes is kept even if a later one fails. A batch of 1000 takes
 * a few milliseconds.
 */
export const PURGE_BATCH_SIZE = 1000;

export interface PurgeOptions {
  /** Rows per statement. @defaultValue PURGE_BATCH_SIZE */
  batchSize?: number;
  /** Stops between two batches (the server is closing); what was deleted is counted. */
  signal?: AbortSignal;
}

/**
 * Removes rows that expired more than `graceSeconds` ago, in batches of `batchSize`, until a batch
 * deletes fewer; returns how many in all. The event loop gets a turn between batches.
 *
 * A batch picks its rows through the `expires_at` index, oldest first, locks them, and deletes them
 * by their physical address (`ctid`, one TID scan; joining on the primary key instead makes the
 * planner hash-join against a scan of the whole table). The lock keeps a picked row where it is
 * until the delete; rows another transaction holds (a replica purging at the same time, a token
 * being consumed) are skipped, not waited for: they are another batch's, or the next run's.
 */
export async function deleteExpiredPayloads(
  db: Db,
  graceSeconds: number,
  options: PurgeOptions = {},
): Promise<number> {
  const batchSize = options.batchSize ?? PURGE_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new RangeError('batchSize must be a positive integer');
  }
  const batch = db
    .selectFrom('oidc_payload')
    .select(sql<string>`ctid`.as('ctid'))
    .where('expires_at', '<', sql<Date>`now() - make_interval(secs => ${graceSeconds})`)
    .orderBy('expires_at')
    .limit(batchSize)
    .forUpdate()
    .skipLocked();
  let total = 0;
  for (;;) {
    const res = await db
      .deleteFrom('oidc_payload')
      .where(sql<boolean>`ctid = any(array(${batch}))`)
      .executeTakeFirst();
    const deleted = Number(res.numDeletedRows);
    total += deleted;
    if (deleted < batchSize || options.signal?.aborted) return total;
    await setImmediate();
  }
}
