import type { ColumnType, Insertable, Selectable } from 'kysely';

/**
 * Everything oidc-provider stores, one row per (model, id). Token ids are stored as SHA-256 (see
 * kysely-adapter.ts); `Client` rows are keyed by the plain client id and hold the client metadata,
 * with the secret itself only as a SHA-256 hash.
 */
export interface OidcPayloadTable {
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  client_id: string | null;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
  created_at: ColumnType<Date, never, never>;
}

export type OidcPayloadRow = Selectable<OidcPayloadTable>;
export type NewOidcPayloadRow = Insertable<OidcPayloadTable>;
