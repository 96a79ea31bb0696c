/** The one protected API: its audience, its scopes, and the client marker for its resource server. */
export const PUSH_API_AUDIENCE = 'push-api';
/** Internal resource indicator; every token request resolves to it. */
export const PUSH_API_RESOURCE = 'urn:secret-push:push-api';
export const API_SCOPES = ['pushes:read', 'pushes:write'] as const;
export type ApiScope = (typeof API_SCOPES)[number];
/** Client metadata property marking the push service's introspection client. */
export const RESOURCE_SERVER_PROPERTY = 'urn:secret-push:resource_server';

export function isApiScope(s: string): s is ApiScope {
  return (API_SCOPES as readonly string[]).includes(s);
}

/**
 * Client metadata property marking a first-party web client: one the operator registered for an
 * application of this system (`clients create-web`). People are not asked to consent to it.
 */
export const FIRST_PARTY_PROPERTY = 'urn:secret-push:first_party';

/** The scopes a web client (sign-in) asks for and is allowed: an id token with the email. */
export const SIGN_IN_SCOPES = ['openid', 'email'] as const;

export function isFirstParty(client: object | undefined): boolean {
  return (client as Record<string, unknown> | undefined)?.[FIRST_PARTY_PROPERTY] === true;
}

/**
 * The accounts API (`GET`/`DELETE /accounts/:sub`, http/accounts-api.ts), for first-party clients;
 * discovery names it `secret_push_accounts_endpoint`.
 */
export const ACCOUNTS_API_PATH = '/accounts';
/** The account console people manage their account at; discovery names it `secret_push_account_page`. */
export const ACCOUNT_PAGE_PATH = '/account';

/**
 * Discovery's two fields of our own (non-standard, hence the prefix), absolute URLs on the issuer:
 * where first-party applications find the accounts API and send people to manage their account.
 */
export function accountDiscoveryFields(issuer: string) {
  return {
    secret_push_accounts_endpoint: `${issuer}${ACCOUNTS_API_PATH}`,
    secret_push_account_page: `${issuer}${ACCOUNT_PAGE_PATH}`,
  };
}
