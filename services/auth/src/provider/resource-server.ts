import { errors, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';
import { PUSH_API_AUDIENCE, PUSH_API_RESOURCE, RESOURCE_SERVER_PROPERTY, isApiScope } from './api';

interface ClientLike {
  scope?: string | undefined;
  [RESOURCE_SERVER_PROPERTY]?: unknown;
}

/**
 * Scope policy of the token endpoint (resourceIndicators.getResourceServerInfo):
 * - every token is for the push API (audience `push-api`), opaque, so it can be introspected;
 * - no `scope` requested ⇒ all scopes the client is allowed;
 * - any requested scope the client may not have ⇒ `invalid_scope` naming it, never silently dropped.
 */
export function resourceServerInfo(accessTokenTTL: number) {
  return (ctx: KoaContextWithOIDC, resource: string, client: ClientLike): ResourceServer => {
    if (resource !== PUSH_API_RESOURCE) throw new errors.InvalidTarget();
    const allowed = (client.scope ?? '').split(' ').filter(isApiScope);
    const params = ctx.oidc.params as { scope?: string };
    if (params.scope === undefined) {
      params.scope = allowed.join(' ');
    } else {
      const denied = params.scope.split(' ').filter((s) => !(allowed as string[]).includes(s));
      if (denied.length > 0) {
        throw new errors.InvalidScope('requested scope is not allowed', denied.join(' '));
      }
    }
    return {
      scope: allowed.join(' '),
      audience: PUSH_API_AUDIENCE,
      accessTokenTTL,
      accessTokenFormat: 'opaque',
    };
  };
}

/** Only the push service's resource-server client may introspect, and only push-api tokens. */
export function introspectionAllowed(
  _ctx: KoaContextWithOIDC,
  client: ClientLike,
  token: { aud?: unknown },
): boolean {
  return client[RESOURCE_SERVER_PROPERTY] === true && token.aud === PUSH_API_AUDIENCE;
}

/** RFC 7009 §2.1: a client may revoke only the tokens issued to it; anything else is refused. */
export function revocationAllowed(
  _ctx: KoaContextWithOIDC,
  client: { clientId: string },
  token: { clientId?: string },
): boolean {
  if (token.clientId !== client.clientId) {
    throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
  }
  return true;
}
