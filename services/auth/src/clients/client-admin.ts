import { type Kysely, sql } from 'kysely';
import type { Provider } from 'oidc-provider';
import { API_SCOPES, RESOURCE_SERVER_PROPERTY, isApiScope } from '../provider/api';
import { generateClientId, generateClientSecret, hashClientSecret } from '../policy/client-secret';
import type { AuthDatabase } from '../storage/database';

export class ClientAdminError extends Error {}

export interface IssuedCredentials {
  client_id: string;
  client_secret: string;
  scope: string;
}

export interface ClientSummary {
  client_id: string;
  name: string;
  scope: string;
  resource_server: boolean;
  created_at: string;
}

interface Deps {
  db: Kysely<AuthDatabase>;
  /** Used only to validate metadata exactly as the server will. */
  provider: Provider;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function parseScopes(input: string): string[] {
  const scopes = input.split(/[\s,]+/).filter((s) => s !== '');
  const unknown = scopes.filter((s) => !isApiScope(s));
  if (unknown.length > 0) {
    throw new ClientAdminError(`unknown scope ${unknown.join(', ')}; allowed: ${API_SCOPES.join(', ')}`);
  }
  if (scopes.length === 0) {
    throw new ClientAdminError(`at least one scope is required: ${API_SCOPES.join(', ')}`);
  }
  return [...new Set(scopes)];
}

async function validateAndStore(deps: Deps, metadata: Record<string, unknown>): Promise<void> {
  const Client = deps.provider.Client as unknown as { validate(this: void, m: unknown): Promise<void> };
  try {
    await Client.validate(metadata);
  } catch (err) {
    const e = err as { error_description?: string; message: string };
    throw new ClientAdminError(`invalid client metadata: ${e.error_description ?? e.message}`);
  }
  await deps.db
    .insertInto('oidc_payload')
    .values({
      model: 'Client',
      id: metadata.client_id as string,
      payload: JSON.stringify(metadata),
      client_id: metadata.client_id as string,
    })
    .execute();
}

function baseMetadata(name: string, secret: string) {
  const name_ = name.trim();
  if (name_ === '' || name_.length > 200) throw new ClientAdminError('name must be 1 to 200 characters');
  return {
    client_id: generateClientId(),
    client_secret: hashClientSecret(secret),
    client_name: name_,
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
  };
}

/** A client of the token endpoint (client_credentials) with the given push API scopes. */
export async function createClient(
  deps: Deps,
  input: { name: string; scopes: string },
): Promise<IssuedCredentials> {
  const scope = parseScopes(input.scopes).join(' ');
  const secret = generateClientSecret();
  const metadata = { ...baseMetadata(input.name, secret), grant_types: ['client_credentials'], scope };
  await validateAndStore(deps, metadata);
  return { client_id: metadata.client_id, client_secret: secret, scope };
}

/** The client the push service introspects with: no grants, may introspect push-api tokens. */
export async function createResourceServer(deps: Deps, input: { name: string }): Promise<IssuedCredentials> {
  const secret = generateClientSecret();
  const metadata = { ...baseMetadata(input.name, secret), grant_types: [], [RESOURCE_SERVER_PROPERTY]: true };
  await validateAndStore(deps, metadata);
  return { client_id: metadata.client_id, client_secret: secret, scope: '' };
}

export async function listClients(db: Kysely<AuthDatabase>): Promise<ClientSummary[]> {
  const rows = await db
    .selectFrom('oidc_payload')
    .select(['id', 'payload', 'created_at'])
    .where('model', '=', 'Client')
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({
    client_id: r.id,
    name: text(r.payload.client_name),
    scope: text(r.payload.scope),
    resource_server: r.payload[RESOURCE_SERVER_PROPERTY] === true,
    created_at: r.created_at.toISOString(),
  }));
}

/** A new secret; the old one stops working at once. Live tokens stay valid until they expire. */
export async function rotateSecret(db: Kysely<AuthDatabase>, clientId: string): Promise<IssuedCredentials> {
  const secret = generateClientSecret();
  const row = await db
    .updateTable('oidc_payload')
    .set({
      payload:
        sql`jsonb_set(payload, '{client_secret}', to_jsonb(${hashClientSecret(secret)}::text))` as never,
    })
    .where('model', '=', 'Client')
    .where('id', '=', clientId)
    .returning('payload')
    .executeTakeFirst();
  if (!row) throw new ClientAdminError(`no client ${clientId}`);
  return { client_id: clientId, client_secret: secret, scope: text(row.payload.scope) };
}

/**
 * Deletes the client and, in the same transaction, every token it holds (introspection checks
 * only the token row, not the client). Ids are 128-bit random values, so a deleted id never returns.
 */
export async function deleteClient(
  db: Kysely<AuthDatabase>,
  clientId: string,
): Promise<{ tokensRevoked: number }> {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('oidc_payload')
      .where('model', '=', 'Client')
      .where('id', '=', clientId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw new ClientAdminError(`no client ${clientId}`);
    const tokens = await trx.deleteFrom('oidc_payload').where('client_id', '=', clientId).executeTakeFirst();
    return { tokensRevoked: Number(tokens.numDeletedRows) };
  });
}
