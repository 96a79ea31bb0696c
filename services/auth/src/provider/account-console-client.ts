import type { ClientMetadata } from 'oidc-provider';
import { FIRST_PARTY_PROPERTY } from './api';

/*
 * The account console (`/account`, interactions/account/account-router.ts) signs people in like any other
 * application, as Keycloak's account console does: it is a client of this provider, built in
 * (a static client of the provider's configuration, not in the database), first-party, with the
 * redirect URI `<issuer>/account/callback` and PKCE. So it gets exactly the sign-in every
 * application gets (password, second factor, required enrolment): it has no path of its own into
 * an account. It never uses the token endpoint: its callback redeems the code in-process
 * (account-sign-in.ts), so its client secret is one that matches nothing.
 */
export const ACCOUNT_CONSOLE_CLIENT_ID = 'account-console';

/** The console's redirect URI. */
export const accountConsoleCallback = (issuer: string): string => `${issuer}/account/callback`;

export function accountConsoleClient(issuer: string): ClientMetadata {
  return {
    client_id: ACCOUNT_CONSOLE_CLIENT_ID,
    client_name: 'your account settings',
    // Not `sha256:…` (policy/client-secret.ts): no presented secret ever matches it.
    client_secret: 'unusable-built-in-client',
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['authorization_code'],
    response_types: ['code'],
    redirect_uris: [accountConsoleCallback(issuer)],
    scope: 'openid',
    [FIRST_PARTY_PROPERTY]: true,
  };
}
