import type { Context } from 'koa';
import type { KoaContextWithOIDC, Provider } from 'oidc-provider';
import type { ClientAuthThrottle } from '../policy/client-auth-throttle';
import type { FailedClientAuth } from '../request-state';

/** The endpoints that authenticate clients, by the event the provider emits when it refuses. */
const CLIENT_AUTH_ERROR_EVENTS = ['grant.error', 'introspection.error', 'revocation.error'] as const;

/**
 * The throttle's hook into oidc-provider. The provider authenticates every client itself, secret
 * compared first, and nothing here stands in its way: a client whose credentials verify is never
 * refused for anyone's failures. What this adds is the fact the throttle needs: when the provider
 * refuses a client authentication (`invalid_client`, whichever the reason: unknown id, wrong
 * secret, wrong method), the request is marked with the client it named, if that client exists.
 * `throttleFailedClientAuth` (http/) counts the marked failure and may answer 429 instead of 401.
 *
 * The throttle itself is not needed here any more (the middleware holds it); the parameter stays
 * so the composition root's call is unchanged.
 */
export function installClientThrottle(provider: Provider, _throttle?: ClientAuthThrottle): void {
  for (const event of CLIENT_AUTH_ERROR_EVENTS) {
    provider.on(event as 'grant.error', (ctx: KoaContextWithOIDC, err: { error?: string }) => {
      if (err.error !== 'invalid_client') return;
      ctx.state.failedClientAuth = { clientId: ctx.oidc?.client?.clientId };
    });
  }
}

/** The client authentication the provider refused on this request, if it refused one. */
export function failedClientAuth(ctx: Context): FailedClientAuth | undefined {
  return ctx.state.failedClientAuth;
}
