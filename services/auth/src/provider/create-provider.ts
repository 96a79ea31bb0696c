import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { type Adapter, type Configuration, Provider } from 'oidc-provider';
import type { AuthConfig, Jwks } from '../config';
import { clientSecretMatches } from '../policy/client-secret';
import { API_SCOPES, PUSH_API_RESOURCE, RESOURCE_SERVER_PROPERTY } from './api';
import { forwardedFromTrustedProxiesOnly, trustProxies } from './client-address';
import { introspectionAllowed, resourceServerInfo, revocationAllowed } from './resource-server';

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

/**
 * The provider's whole configuration: client credentials only, opaque `push-api` tokens, Basic or
 * form client authentication, introspection and revocation; everything interactive is off.
 */
export function providerConfiguration(
  config: AuthConfig,
  adapter: new (model: string) => Adapter,
): Configuration {
  return {
    adapter,
    clients: [],
    jwks: config.jwks ?? ephemeralJwks(),
    cookies: {
      keys: config.cookieKeys.length > 0 ? [...config.cookieKeys] : [randomBytes(32).toString('hex')],
    },
    scopes: [...API_SCOPES],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    responseTypes: [],
    extraClientMetadata: { properties: [RESOURCE_SERVER_PROPERTY] },
    clientDefaults: {
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    routes: {
      token: '/connect/token',
      introspection: '/connect/introspect',
      revocation: '/connect/revocation',
      jwks: '/.well-known/jwks',
    },
    ttl: { ClientCredentials: config.accessTokenTtlSeconds },
    // Machine-to-machine only: no browser may call these endpoints cross-origin.
    clientBasedCORS: () => false,
    // JSON error bodies even when the caller sends `Accept: text/html`.
    renderError(ctx, out) {
      ctx.type = 'json';
      ctx.body = out;
    },
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: introspectionAllowed as never },
      revocation: { enabled: true, allowedPolicy: revocationAllowed },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => PUSH_API_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: resourceServerInfo(config.accessTokenTtlSeconds),
      },
    },
  };
}

export function createProvider(config: AuthConfig, adapter: new (model: string) => Adapter): Provider {
  const provider = new Provider(config.issuer, providerConfiguration(config, adapter));
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
