import { type Kysely, sql } from 'kysely';
import type { Provider } from 'oidc-provider';
import {
  API_SCOPES,
  FIRST_PARTY_PROPERTY,
  RESOURCE_SERVER_PROPERTY,
  SIGN_IN_SCOPES,
  isApiScope,
  isFirstParty,
} from '../provider/api';
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
  /** A first-party web client (sign-in), made by `createWebClient`. */
  web: boolean;
  /** Web clients only: where people are sent back after signing in and out. */
  redirect_uris?: string[];
  post_logout_redirect_uris?: string[];
  created_at: string;
}

export interface WebClientCredentials extends IssuedCredentials {
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
}

export interface ClientAdminDeps {
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

async function validateAndStore(deps: ClientAdminDeps, metadata: Record<string, unknown>): Promise<void> {
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
  deps: ClientAdminDeps,
  input: { name: string; scopes: string },
): Promise<IssuedCredentials> {
  const scope = parseScopes(input.scopes).join(' ');
  const secret = generateClientSecret();
  const metadata = { ...baseMetadata(input.name, secret), grant_types: ['client_credentials'], scope };
  await validateAndStore(deps, metadata);
  return { client_id: metadata.client_id, client_secret: secret, scope };
}

/** The client the push service introspects with: no grants, may introspect push-api tokens. */
export async function createResourceServer(
  deps: ClientAdminDeps,
  input: { name: string },
): Promise<IssuedCredentials> {
  const secret = generateClientSecret();
  const metadata = { ...baseMetadata(input.name, secret), grant_types: [], [RESOURCE_SERVER_PROPERTY]: true };
  await validateAndStore(deps, metadata);
  return { client_id: metadata.client_id, client_secret: secret, scope: '' };
}

/** Loopback hosts, where plain http stays on the machine (a browser treats them as secure). */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * A redirect URI people's browsers are sent to with an authorization code (or after a logout):
 * absolute, https (http only on a loopback host), no fragment, no credentials. oidc-provider
 * validates the metadata too; this says what is wrong in words an operator can act on.
 */
function checkRedirectUri(option: string, uri: string): string {
  const url = URL.parse(uri);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ClientAdminError(`${option} ${uri}: must be an absolute http(s) URL`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ClientAdminError(
      `${option} ${uri}: must be https (http only for localhost, 127.0.0.1 or [::1])`,
    );
  }
  if (url.hash !== '' || uri.includes('#')) {
    throw new ClientAdminError(`${option} ${uri}: must not have a fragment`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ClientAdminError(`${option} ${uri}: must not hold credentials`);
  }
  return uri;
}

/**
 * A first-party web application that signs people in (OpenID Connect authorization code with PKCE
 * S256, `client_secret_basic`, refresh tokens, scopes `openid email`): people are not asked to
 * consent to it. At least one redirect URI; post-logout redirect URIs are optional (without one,
 * a logout ends on the auth service's own "signed out" page).
 */
export async function createWebClient(
  deps: ClientAdminDeps,
  input: { name: string; redirectUris: readonly string[]; postLogoutRedirectUris?: readonly string[] },
): Promise<WebClientCredentials> {
  if (input.redirectUris.length === 0) {
    throw new ClientAdminError('clients create-web needs at least one --redirect-uri');
  }
  const redirectUris = [...new Set(input.redirectUris.map((u) => checkRedirectUri('--redirect-uri', u)))];
  const postLogout = [
    ...new Set(
      (input.postLogoutRedirectUris ?? []).map((u) => checkRedirectUri('--post-logout-redirect-uri', u)),
    ),
  ];
  const secret = generateClientSecret();
  const scope = SIGN_IN_SCOPES.join(' ');
  const metadata = {
    ...baseMetadata(input.name, secret),
    application_type: 'web',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: redirectUris,
    post_logout_redirect_uris: postLogout,
    scope,
    [FIRST_PARTY_PROPERTY]: true,
  };
  await validateAndStore(deps, metadata);
  return {
    client_id: metadata.client_id,
    client_secret: secret,
    scope,
    redirect_uris: redirectUris,
    post_logout_redirect_uris: postLogout,
  };
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

export async function listClients(db: Kysely<AuthDatabase>): Promise<ClientSummary[]> {
  const rows = await db
    .selectFrom('oidc_payload')
    .select(['id', 'payload', 'created_at'])
    .where('model', '=', 'Client')
    .orderBy('created_at')
    .execute();
  return rows.map((r) => {
    const web = isFirstParty(r.payload);
    return {
      client_id: r.id,
      name: text(r.payload.client_name),
      scope: text(r.payload.scope),
      resource_server: r.payload[RESOURCE_SERVER_PROPERTY] === true,
      web,
      ...(web && {
        redirect_uris: strings(r.payload.redirect_uris),
        post_logout_redirect_uris: strings(r.payload.post_logout_redirect_uris),
      }),
      created_at: r.created_at.toISOString(),
    };
  });
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
