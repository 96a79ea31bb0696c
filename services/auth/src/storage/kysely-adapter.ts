import { hash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { isConnectionError } from '@secret-push/db-kit';
import type { AuthDatabase } from './database';
import {
  deleteByGrantId,
  deletePayload,
  findLivePayload,
  type FoundPayload,
  findLivePayloads,
  markConsumed,
  type UpsertPayload,
  upsertPayloads,
} from './oidc-payload.repository';
import { turnBatcher } from './turn-batch';
import { DependencyUnavailable } from '../errors';

/** Models whose id is itself a bearer credential: stored only as SHA-256, so a database copy cannot be replayed. */
const TOKEN_MODELS = new Set([
  'AccessToken',
  'ClientCredentials',
  'RefreshToken',
  'AuthorizationCode',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'PushedAuthorizationRequest',
]);

export const sha256 = (value: string): string => hash('sha256', value, 'hex');

export function storageId(model: string, id: string): string {
  return TOKEN_MODELS.has(model) ? sha256(id) : id;
}

/**
 * PostgreSQL text cannot hold U+0000, so no stored id, uid or user code contains it: a lookup of
 * one (a client can send `token=%00`) finds nothing instead of failing the statement.
 */
const unstorable = (key: string): boolean => key.includes('\u0000');

async function guard<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (isConnectionError(err)) throw new DependencyUnavailable('database', { cause: err });
    throw err;
  }
}

function toPayload(row: FoundPayload | undefined, jti?: string): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = { ...row.payload } as AdapterPayload;
  if (jti !== undefined && TOKEN_MODELS.has(row.model)) payload.jti = jti;
  if (row.consumed_at) payload.consumed = Math.floor(row.consumed_at.getTime() / 1000);
  return payload;
}

type Found = FoundPayload | undefined;

/**
 * Lookups by id share one query per turn of the event loop (turn-batch.ts): introspection asks for
 * every token as AccessToken and ClientCredentials at once (oidc-provider's findToken), and
 * concurrent requests' lookups go out together.
 */
function batchedFind(db: Kysely<AuthDatabase>): (model: string, id: string) => Promise<Found> {
  const findMany = async (wanted: { model: string; id: string }[]): Promise<Found[]> => {
    const rows = await findLivePayloads(db, wanted);
    return wanted.map((w) => rows.find((r) => r.model === w.model && r.id === w.id));
  };
  const find = turnBatcher(findMany, async (w: { model: string; id: string }) => (await findMany([w]))[0]);
  return (model, id) => guard(() => find({ model, id }));
}

/**
 * The rows whose loss in a database crash only makes a token fail closed, so they are committed
 * without waiting for the WAL flush (`upsertPayloads`' `asyncCommit`): a client-credentials token
 * is written once, when issued, with a random id, and never updated; lost, it is unknown to
 * introspection (inactive) and its client asks for another. Everything else, and every revocation,
 * deletion and consumption, waits for the flush as before.
 */
const ASYNC_COMMIT_MODELS = new Set(['ClientCredentials']);

/**
 * Writes share one statement per turn of the event loop (turn-batch.ts): under load the tokens
 * that concurrent requests issue are inserted together, one round trip and one commit for all.
 * Each caller is answered once its row is committed. Two writes of one row in the same turn (never
 * a token: their ids are random) are written as the later one, which is what running them in
 * order would have left.
 */
function batchedUpsert(db: Kysely<AuthDatabase>): (row: UpsertPayload) => Promise<void> {
  const writeMany = async (rows: UpsertPayload[]): Promise<void[]> => {
    const last = new Map<string, UpsertPayload>();
    for (const r of rows) last.set(`${r.model}\0${r.id}`, r);
    const distinct = [...last.values()];
    const asyncCommit = distinct.every((r) => ASYNC_COMMIT_MODELS.has(r.model));
    await upsertPayloads(db, distinct, { asyncCommit });
    return rows.map(() => undefined);
  };
  const write = turnBatcher(writeMany, async (row: UpsertPayload) => (await writeMany([row]))[0]);
  return (row) => guard(() => write(row));
}

/** oidc-provider's adapter contract (example/my_adapter.js) over the one `oidc_payload` table. */
export function createKyselyAdapter(
  db: Kysely<AuthDatabase>,
  options: {
    /**
     * Called with a client's id before and after this process writes or deletes its row (the
     * provider's client cache forgets it: provider/client-cache.ts).
     */
    clientChanged?: (clientId: string) => void;
  } = {},
): new (model: string) => Adapter {
  const findById = batchedFind(db);
  const write = batchedUpsert(db);
  const clientChanged = options.clientChanged ?? (() => {});
  /** Runs `op` on the client `id`'s row, telling the cache before and once it is done. */
  const changingClient = async (id: string, op: () => Promise<void>): Promise<void> => {
    clientChanged(id);
    try {
      await op();
    } finally {
      clientChanged(id);
    }
  };
  return class KyselyAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const { jti: _jti, ...rest } = payload;
      const stored = TOKEN_MODELS.has(this.model) ? rest : payload;
      const row = {
        model: this.model,
        id: storageId(this.model, id),
        payload: stored,
        expiresInSeconds: expiresIn > 0 ? expiresIn : undefined,
        clientId: payload.clientId ?? (this.model === 'Client' ? id : null),
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
      };
      if (this.model === 'Client') await changingClient(id, () => write(row));
      else await write(row);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const key = storageId(this.model, id);
      if (unstorable(key)) return undefined;
      return toPayload(await findById(this.model, key), id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      if (unstorable(uid)) return undefined;
      return toPayload(await guard(() => findLivePayload(db, { model: this.model, uid })));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      if (unstorable(userCode)) return undefined;
      return toPayload(await guard(() => findLivePayload(db, { model: this.model, userCode })));
    }

    async consume(id: string): Promise<void> {
      const key = storageId(this.model, id);
      if (unstorable(key)) return;
      await guard(() => markConsumed(db, this.model, key));
    }

    async destroy(id: string): Promise<void> {
      const key = storageId(this.model, id);
      if (unstorable(key)) return;
      const remove = () => guard(() => deletePayload(db, this.model, key));
      if (this.model === 'Client') await changingClient(key, remove);
      else await remove();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await guard(() => deleteByGrantId(db, grantId));
    }
  };
}
