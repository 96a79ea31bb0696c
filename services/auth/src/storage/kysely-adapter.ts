import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { isConnectionError } from '@secret-push/db-kit';
import type { AuthDatabase } from './database';
import {
  deleteByGrantId,
  deletePayload,
  findLivePayload,
  findLivePayloads,
  markConsumed,
  upsertPayload,
} from './oidc-payload.repository';
import type { OidcPayloadRow } from './oidc-payload.table';
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

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

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

function toPayload(row: OidcPayloadRow | undefined, jti?: string): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = { ...row.payload } as AdapterPayload;
  if (jti !== undefined && TOKEN_MODELS.has(row.model)) payload.jti = jti;
  if (row.consumed_at) payload.consumed = Math.floor(row.consumed_at.getTime() / 1000);
  return payload;
}

interface PendingFind {
  model: string;
  id: string;
  resolve(row: OidcPayloadRow | undefined): void;
  reject(err: unknown): void;
}

/**
 * Lookups by id started in the same turn of the event loop share one query. Introspection asks for
 * every token as AccessToken and ClientCredentials at once (oidc-provider's findToken); with a SQL
 * store that was two round trips where one answers both.
 */
function batchedFind(
  db: Kysely<AuthDatabase>,
): (model: string, id: string) => Promise<OidcPayloadRow | undefined> {
  let pending: PendingFind[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    guard(() => findLivePayloads(db, batch)).then(
      (rows) => {
        for (const p of batch) p.resolve(rows.find((r) => r.model === p.model && r.id === p.id));
      },
      (err: unknown) => {
        for (const p of batch) p.reject(err);
      },
    );
  };
  return (model, id) =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) process.nextTick(flush);
      pending.push({ model, id, resolve, reject });
    });
}

/**
 * How long a client's stored metadata is reused by this process, in seconds. oidc-provider looks
 * the client up on every token and introspection request (it keeps the parsed client, keyed by a
 * hash of what the store returned, but asks the store each time); reusing the row for two seconds
 * saves most of those lookups. A client created, rotated or deleted through this process is
 * forgotten at once; through another (the operator CLI, another replica) it takes effect within
 * this time. Clients not found are not remembered.
 */
export const CLIENT_CACHE_SECONDS = 2;
const CLIENT_CACHE_SIZE = 1000;

/** oidc-provider's adapter contract (example/my_adapter.js) over the one `oidc_payload` table. */
export function createKyselyAdapter(
  db: Kysely<AuthDatabase>,
  options: { clientCacheSeconds?: number; now?: () => number } = {},
): new (model: string) => Adapter {
  const findById = batchedFind(db);
  const now = options.now ?? Date.now;
  const clientTtlMs = (options.clientCacheSeconds ?? CLIENT_CACHE_SECONDS) * 1000;
  const clients = new Map<string, { row: OidcPayloadRow; until: number }>();
  async function findClient(key: string): Promise<OidcPayloadRow | undefined> {
    const hit = clients.get(key);
    if (hit && hit.until > now()) return hit.row;
    clients.delete(key);
    const row = await findById('Client', key);
    if (row && clientTtlMs > 0) {
      if (clients.size >= CLIENT_CACHE_SIZE) clients.delete(clients.keys().next().value!);
      clients.set(key, { row, until: now() + clientTtlMs });
    }
    return row;
  }
  return class KyselyAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      if (this.model === 'Client') clients.delete(id);
      const { jti: _jti, ...rest } = payload;
      const stored = TOKEN_MODELS.has(this.model) ? rest : payload;
      await guard(() =>
        upsertPayload(db, {
          model: this.model,
          id: storageId(this.model, id),
          payload: stored,
          expiresInSeconds: expiresIn > 0 ? expiresIn : undefined,
          clientId: payload.clientId ?? (this.model === 'Client' ? id : null),
          grantId: payload.grantId ?? null,
          uid: payload.uid ?? null,
          userCode: payload.userCode ?? null,
        }),
      );
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const key = storageId(this.model, id);
      if (unstorable(key)) return undefined;
      const row = this.model === 'Client' ? await findClient(key) : await findById(this.model, key);
      return toPayload(row, id);
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
      if (this.model === 'Client') clients.delete(key);
      await guard(() => deletePayload(db, this.model, key));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await guard(() => deleteByGrantId(db, grantId));
    }
  };
}
