import { errors, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';
import { PUSH_API_AUDIENCE, PUSH_API_RESOURCE, RESOURCE_SERVER_PROPERTY, isApiScope } from './api';

interface ClientLike {
  scope?: string | undefined;
  grantTypes?: readonly string[] | undefined;
  [RESOURCE_SERVER_PROPERTY]?: unknown;
}

/** A machine client: one that may use the client-credentials grant, and so get push-api tokens. */
const isMachineClient = (client: ClientLike | undefined): boolean =>
  client?.grantTypes?.includes('client_credentials') === true;

/**
 * The resource of a request that names none: the push API for machine clients; none for sign-in
 * (web) clients, whose access token is then good for the userinfo endpoint only (oidc-provider
 * issues such a token when no resource is resolved and `openid` was granted). A person's session
 * at a web application never becomes a push-api token here: the push service issues its own
 * personal API tokens.
 */
export function defaultResource(_ctx: KoaContextWithOIDC, client?: ClientLike): string {
  return (isMachineClient(client) ? PUSH_API_RESOURCE : undefined) as string;
}

/**
 * Scope policy of the token endpoint (resourceIndicators.getResourceServerInfo):
 * - only machine clients get a resource: a web client naming one is refused (`invalid_target`);
 * - every machine token is for the push API (audience `push-api`), opaque, so it can be introspected;
 * - no `scope` requested ⇒ all scopes the client is allowed;
 * - any requested scope the client may not have ⇒ `invalid_scope` naming it, never silently dropped.
 */
export function resourceServerInfo(accessTokenTTL: number) {
  return (ctx: KoaContextWithOIDC, resource: string, client: ClientLike): ResourceServer => {
    if (resource !== PUSH_API_RESOURCE || !isMachineClient(client)) throw new errors.InvalidTarget();
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
