import type { Middleware } from 'koa';
import type { HttpLogger } from '@secret-push/logger';
import type { AuthMetrics } from '../observability/metrics';
import {
  type ClientAuthThrottle,
  type PrefetchedClientThrottle,
  basicClientId,
} from '../policy/client-auth-throttle';

const OAUTH_ENDPOINTS = new Set(['/connect/token', '/connect/introspect', '/connect/revocation']);

/** oidc-provider matches its routes case-insensitively and with a trailing slash; so must we. */
const normalPath = (path: string) => path.toLowerCase().replace(/\/+$/, '') || '/';

/** Request log line (with request id) and latency histogram for every request. */
export function observeRequests(httpLogger: HttpLogger, metrics: AuthMetrics): Middleware {
  return async (ctx, next) => {
    httpLogger(ctx.req, ctx.res);
    const end = metrics.requestDuration.startTimer({ method: ctx.method });
    try {
      await next();
    } finally {
      const route =
        (ctx.state as { route?: string }).route ?? (ctx as { oidc?: { route?: string } }).oidc?.route;
      end({ route: route ?? 'other', status: String(ctx.status) });
    }
  };
}

/** RFC 8414 metadata (`GET /.well-known/oauth-authorization-server`): the OpenID discovery document. */
export function authorizationServerMetadata(): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/.well-known/oauth-authorization-server') {
      ctx.path = '/.well-known/openid-configuration';
    }
    await next();
  };
}

/**
 * An IP over its failed-authentication cap gets 429 before anything else is looked at. With HTTP
 * Basic the (client, IP) counter is read in the same round trip and left in `ctx.state` for the
 * secret comparison (installClientThrottle), which otherwise reads it itself.
 */
export function throttleFailedClientAuth(throttle: ClientAuthThrottle): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'POST' && OAUTH_ENDPOINTS.has(normalPath(ctx.path))) {
      const clientId = basicClientId(ctx.get('authorization'));
      let wait: number;
      if (clientId === undefined) {
        wait = await throttle.ipBlockedFor(ctx.ip);
      } else {
        const both = await throttle.blockedForBoth(ctx.ip, clientId);
        wait = both.ip;
        const prefetched: PrefetchedClientThrottle = { clientId, wait: both.client };
        (ctx.state as { clientThrottle?: PrefetchedClientThrottle }).clientThrottle = prefetched;
      }
      if (wait > 0) {
        ctx.status = 429;
        ctx.set('Retry-After', String(wait));
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          error: 'slow_down',
          error_description: 'too many failed client authentication attempts, retry later',
        };
        return;
      }
    }
    await next();
  };
}

/** What this server supports, and so all that discovery (RFC 8414 / OpenID) lists. */
const DISCOVERY_KEYS = [
  'issuer',
  'token_endpoint',
  'jwks_uri',
  'grant_types_supported',
  'response_types_supported',
  'scopes_supported',
  'token_endpoint_auth_methods_supported',
  'introspection_endpoint',
  'introspection_endpoint_auth_methods_supported',
  'revocation_endpoint',
  'revocation_endpoint_auth_methods_supported',
];

/**
 * - RFC 6749 §5.2 says `unauthorized_client` when a client may not use a grant; oidc-provider
 *   says `invalid_request`.
 * - A 503 from a down dependency carries Retry-After.
 * - Discovery lists exactly what is supported: no authorization endpoint, no `openid` scope.
 */
export function responseFixups(): Middleware {
  return async (ctx, next) => {
    await next();
    if ((ctx as { oidc?: { route?: string } }).oidc?.route === 'discovery' && ctx.status === 200) {
      const doc = ctx.body as Record<string, unknown>;
      const methods = doc.token_endpoint_auth_methods_supported;
      const picked: Record<string, unknown> = {
        introspection_endpoint_auth_methods_supported: methods,
        revocation_endpoint_auth_methods_supported: methods,
      };
      for (const key of DISCOVERY_KEYS) if (doc[key] !== undefined) picked[key] = doc[key];
      picked.scopes_supported = (doc.scopes_supported as string[]).filter((s) => s !== 'openid');
      ctx.body = Object.fromEntries(DISCOVERY_KEYS.filter((k) => k in picked).map((k) => [k, picked[k]]));
      return;
    }
    const body = ctx.body as { error?: string; error_description?: string } | undefined;
    if (
      body?.error === 'invalid_request' &&
      body.error_description === 'requested grant type is not allowed for this client'
    ) {
      ctx.body = { ...body, error: 'unauthorized_client' };
    }
    if (ctx.status === 503) ctx.set('Retry-After', '5');
  };
}
