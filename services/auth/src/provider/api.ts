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
