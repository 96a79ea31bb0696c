import type { Middleware } from 'koa';
import compose from 'koa-compose';
import type { HttpLogger } from '@secret-push/logger';
import type { AuthMetrics } from '../observability/metrics';
import type { ClientAuthThrottle } from '../policy/client-auth-throttle';
import { failedClientAuth } from '../provider/client-throttle';

/** Request log line (with request id) and latency histogram for every request. */
export function observeRequests(httpLogger: HttpLogger, metrics: AuthMetrics): Middleware {
  return async (ctx, next) => {
    httpLogger(ctx.req, ctx.res);
    const end = metrics.requestDuration.startTimer({ method: ctx.method });
    try {
      await next();
    } finally {
      const route = ctx.state.route ?? (ctx as { oidc?: { route?: string } }).oidc?.route;
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
 * The failed-client-authentication throttle, applied after the provider has authenticated the
 * client (secret compared first): a request that authenticated is never touched, so nobody's
 * failures can refuse a client that presents its credentials. A refused client authentication
 * (`installClientThrottle` marks it) is counted per IP and per (client, IP); when that puts the
 * caller over a cap, it gets 429 `slow_down` with `Retry-After` instead of the 401. Redis down:
 * the 401 stands (fail open, logged by the throttle).
 */
export function throttleFailedClientAuth(throttle: ClientAuthThrottle): Middleware {
  return async (ctx, next) => {
    await next();
    const failed = failedClientAuth(ctx);
    if (!failed) return;
    const wait = await throttle.recordFailure(ctx.ip, failed.clientId);
    if (wait > 0) {
      ctx.status = 429;
      ctx.remove('WWW-Authenticate');
      ctx.set('Retry-After', String(wait));
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'json';
      ctx.body = {
        error: 'slow_down',
        error_description: 'too many failed client authentication attempts, retry later',
      };
    }
  };
}

/** What this server supports, and so all that discovery (RFC 8414 / OpenID) lists. */
const DISCOVERY_KEYS = [
  'issuer',
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'end_session_endpoint',
  'jwks_uri',
  'grant_types_supported',
  'response_types_supported',
  'response_modes_supported',
  'code_challenge_methods_supported',
  'scopes_supported',
  'claims_supported',
  'subject_types_supported',
  'id_token_signing_alg_values_supported',
  'authorization_response_iss_parameter_supported',
  'token_endpoint_auth_methods_supported',
  'introspection_endpoint',
  'introspection_endpoint_auth_methods_supported',
  'revocation_endpoint',
  'revocation_endpoint_auth_methods_supported',
  // Ours (provider/api.ts accountDiscoveryFields): the accounts API and the account page.
  'secret_push_accounts_endpoint',
  'secret_push_account_page',
];

/**
 * - RFC 6749 §5.2 says `unauthorized_client` when a client may not use a grant; oidc-provider
 *   says `invalid_request`.
 * - A 503 from a down dependency carries Retry-After.
 * - Discovery lists exactly what is supported, and nothing oidc-provider lists for features that
 *   are off or that no client here may use (request objects, claims parameter, …).
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

/**
 * The provider's machine endpoints: called by programs with client authentication only, answered
 * by the provider alone (no page, no language, no route of ours).
 */
export const MACHINE_ENDPOINTS: ReadonlySet<string> = new Set([
  '/connect/token',
  '/connect/introspect',
  '/connect/revocation',
]);

/**
 * `middleware`, run in order (koa-compose), for every request but those to the machine endpoints,
 * which go straight on: none of these answers or changes them (each passes them on untouched), and
 * they are the requests that come by the thousand.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- routers of every state and context type, as Koa's `use` takes them
export function exceptMachineEndpoints(middleware: Middleware<any, any>[]): Middleware {
  const chain = compose(middleware);
  return (ctx, next) => (MACHINE_ENDPOINTS.has(ctx.path) ? next() : chain(ctx, next));
}
