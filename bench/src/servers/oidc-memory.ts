import { Provider } from 'oidc-provider';

// Ceiling for the token and introspection endpoints: oidc-provider with its in-memory store and
// static clients, same features and scopes as the auth service.
const issuer = `http://127.0.0.1:${process.env.PORT}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'bench',
      client_secret: 'bench-secret',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: 'pushes:read pushes:write',
    },
    { client_id: 'rs', client_secret: 'rs-secret', grant_types: [], response_types: [], redirect_uris: [] },
  ],
  scopes: ['pushes:read', 'pushes:write'],
  clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
  responseTypes: [],
  routes: { token: '/connect/token', introspection: '/connect/introspect' },
  ttl: { ClientCredentials: 3600 },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true, allowedPolicy: () => true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => 'urn:bench',
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: 'pushes:read pushes:write',
        audience: 'push-api',
        accessTokenTTL: 3600,
        accessTokenFormat: 'opaque',
      }),
    },
  },
});
provider.listen(Number(process.env.PORT), '127.0.0.1');
