import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { type Adapter, type Configuration, Provider, errors } from 'oidc-provider';
import type { AuthConfig, Jwks } from '../config';
import { clientSecretMatches } from '../policy/client-secret';
import { accountConsoleClient } from './account-console-client';
import { API_SCOPES, FIRST_PARTY_PROPERTY, RESOURCE_SERVER_PROPERTY, accountDiscoveryFields } from './api';
import { forwardedFromTrustedProxiesOnly, trustProxies } from './client-address';
import { logoutSource, postLogoutSuccessSource, renderError } from './pages';
import { signInTokenClaims } from './recent-sign-in';
import {
  defaultResource,
  introspectionAllowed,
  resourceServerInfo,
  revocationAllowed,
} from './resource-server';
import {
  type AccountLookup,
  SIGN_IN_CLAIMS,
  findAccount,
  issueRefreshToken,
  loadExistingGrant,
  signInPolicy,
  signInTtl,
} from './sign-in';

/** A throwaway signing key for development and tests when AUTH_JWKS is not set (never in production). */
function ephemeralJwks(): Jwks {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return {
    keys: [
      {
        ...jwk,
        kty: 'RSA',
        kid: `dev-ephemeral-${randomBytes(4).toString('hex')}`,
        use: 'sig',
        alg: 'RS256',
      },
    ],
  };
}

/** oidc-provider's cookies, named apart from the push service's (ports do not separate cookies). */
export const COOKIE_NAMES = {
  session: 'auth_session',
  interaction: 'auth_interaction',
  resume: 'auth_interaction_resume',
} as const;

/** What the provider is given besides its configuration. */
export interface ProviderDeps {
  /** The account behind a `sub`; the CLI, which only validates clients, needs none. */
  findAccount?: AccountLookup;
  /** The cookie keys (`cookieKeys(config)`), shared with the login routes; resolved here when absent. */
  cookieKeys?: readonly string[];
}

/**
 * The keys that sign cookies and bind the login form's CSRF token: AUTH_COOKIE_KEYS, or outside
 * production (where it is required) one random key for this process. Replicas must share them.
 */
export function cookieKeys(config: AuthConfig): string[] {
  return config.cookieKeys.length > 0 ? [...config.cookieKeys] : [randomBytes(32).toString('hex')];
}

/**
 * The provider's whole configuration. Machine clients: client credentials, opaque `push-api`
 * tokens, Basic or form client authentication, introspection and revocation. People: OpenID
 * Connect sign-in for first-party web clients, authorization code with PKCE (S256 only, always
 * required), refresh tokens, userinfo and RP-initiated logout; the login page is ours
 * (interactions/), oidc-provider's development pages are off.
 */
export function providerConfiguration(
  config: AuthConfig,
  adapter: new (model: string) => Adapter,
  deps: ProviderDeps = {},
): Configuration {
  // Signed (keygrip, the cookie keys): a cookie's value alone (an interaction's uid is also in its
  // URL) is not enough to forge it.
  const cookie = { httpOnly: true, sameSite: 'lax', signed: true, secure: config.secureCookies } as const;
  return {
    adapter,
    // The account console (account-console-client.ts); every other client is in the database.
    clients: [accountConsoleClient(config.issuer)],
    jwks: config.jwks ?? ephemeralJwks(),
    cookies: {
      keys: [...(deps.cookieKeys ?? cookieKeys(config))],
      names: { ...COOKIE_NAMES },
      long: cookie,
      short: cookie,
    },
    scopes: [...API_SCOPES],
    claims: SIGN_IN_CLAIMS,
    // Extra discovery metadata: the accounts API and the account page (provider/api.ts).
    discovery: accountDiscoveryFields(config.issuer),
    // The id token carries the granted claims (the email) too, not only userinfo: the
    // application learns who signed in from the token exchange alone.
    conformIdTokenClaims: false,
    // Only what the signing keys can do: AUTH_JWKS holds RS256 keys.
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    responseTypes: ['code'],
    // oidc-provider 9 knows S256 only (a `plain` challenge is refused); required of every client.
    pkce: { required: () => true },
    extraClientMetadata: {
      properties: [RESOURCE_SERVER_PROPERTY, FIRST_PARTY_PROPERTY],
      validator(_ctx, key, value) {
        if ((key === RESOURCE_SERVER_PROPERTY || key === FIRST_PARTY_PROPERTY) && value !== undefined) {
          if (typeof value !== 'boolean') throw new errors.InvalidClientMetadata(`${key} must be a boolean`);
        }
      },
    },
    clientDefaults: {
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    routes: {
      authorization: '/connect/authorize',
      userinfo: '/connect/userinfo',
      end_session: '/connect/endsession',
      token: '/connect/token',
      introspection: '/connect/introspect',
      revocation: '/connect/revocation',
      jwks: '/.well-known/jwks',
    },
    ttl: signInTtl(config.sessionTtlSeconds, config.accessTokenTtlSeconds),
    findAccount: findAccount(deps.findAccount ?? (() => Promise.resolve(undefined))),
    interactions: {
      policy: signInPolicy(),
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
    },
    loadExistingGrant,
    issueRefreshToken,
    // A sign-in's access token carries `auth_time` (the accounts API's proof of a recent sign-in).
    extraTokenClaims: signInTokenClaims,
    // Every refresh returns a new refresh token; a reused one revokes the whole grant.
    rotateRefreshToken: true,
    // No browser may call the token, introspection, revocation or userinfo endpoints
    // cross-origin: the web applications call them from their servers.
    clientBasedCORS: () => false,
    // JSON error bodies from the machine endpoints even when the caller sends `Accept: text/html`;
    // pages for the browser's endpoints (provider/pages.ts).
    renderError,
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      pushedAuthorizationRequests: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: introspectionAllowed as never },
      revocation: { enabled: true, allowedPolicy: revocationAllowed },
      resourceIndicators: {
        enabled: true,
        defaultResource,
        useGrantedResource: () => true,
        getResourceServerInfo: resourceServerInfo(config.accessTokenTtlSeconds),
      },
    },
  };
}

export function createProvider(
  config: AuthConfig,
  adapter: new (model: string) => Adapter,
  deps: ProviderDeps = {},
): Provider {
  const provider = new Provider(config.issuer, providerConfiguration(config, adapter, deps));
  // koa believes X-Forwarded-Proto/Host (the scheme and host of discovery's endpoint URLs) only
  // when some proxy is trusted, and the first middleware drops them (and X-Forwarded-For) from any
  // peer that is not one; it also sets ctx.ip the way Express does. Installed here, first, with the
  // setting it makes safe: every middleware added later, and the provider's routes, see the result.
  provider.proxy = config.http.trustedProxies.length > 0;
  provider.use(forwardedFromTrustedProxiesOnly(trustProxies(config.http.trustedProxies)));
  // Secrets are stored as SHA-256 (policy/client-secret.ts); installClientThrottle wraps this.
  type Compare = (this: { clientSecret?: string }, actual: string) => Promise<boolean>;
  const proto = provider.Client.prototype as unknown as { compareClientSecret: Compare };
  proto.compareClientSecret = function compareClientSecret(actual: string) {
    return Promise.resolve(clientSecretMatches(this.clientSecret, actual));
  };
  return provider;
}
