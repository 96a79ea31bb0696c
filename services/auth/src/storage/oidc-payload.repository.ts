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

export async function upsertPayload(db: Db, p: UpsertPayload): Promise<void> {
  const expiresAt =
    p.expiresInSeconds === undefined ? null : sql<Date>`now() + make_interval(secs => ${p.expiresInSeconds})`;
  const values = {
    payload: JSON.stringify(p.payload),
    client_id: p.clientId,
    grant_id: p.grantId,
    uid: p.uid,
    user_code: p.userCode,
    expires_at: expiresAt,
  };
  await db
    .insertInto('oidc_payload')
    .values({ model: p.model, id: p.id, ...values })
    .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(values))
    .execute();
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

/**
 * The live rows among the `(model, id)` pairs `wanted`, in one statement: a superset is read (every
 * listed model × every listed id) and the pairs not asked for are dropped.
 */
export async function findLivePayloads(
  db: Db,
  wanted: readonly { model: string; id: string }[],
): Promise<OidcPayloadRow[]> {
  const models = [...new Set(wanted.map((w) => w.model))];
  const ids = [...new Set(wanted.map((w) => w.id))];
  const rows = await db
    .selectFrom('oidc_payload')
    .selectAll()
    .where('model', 'in', models)
    .where('id', 'in', ids)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .execute();
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

/** Removes rows that expired more than `graceSeconds` ago; returns how many. */
export async function deleteExpiredPayloads(db: Db, graceSeconds: number): Promise<number> {
  const res = await db
    .deleteFrom('oidc_payload')
    .where('expires_at', '<', sql<Date>`now() - make_interval(secs => ${graceSeconds})`)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
