import * as oidc from 'openid-client';
import { type TestAuth, startAuth } from '../testing';

let auth: TestAuth;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.stop());

// A third-party OAuth client as the test peer: discovery, both client auth methods, introspection, revocation.
describe('openid-client 6 against the auth service', () => {
  const discover = (id: string, secret: string, method: 'basic' | 'post') =>
    oidc.discovery(
      new URL(auth.issuer),
      id,
      undefined,
      method === 'basic' ? oidc.ClientSecretBasic(secret) : oidc.ClientSecretPost(secret),
      { execute: [oidc.allowInsecureRequests] },
    );

  it.each(['basic', 'post'] as const)(
    'obtains, introspects and revokes a token with client_secret_%s',
    async (method) => {
      const client = await auth.createClient('pushes:read pushes:write');
      const config = await discover(client.client_id, client.client_secret, method);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'pushes:read' });
      expect(tokens.token_type).toBe('bearer');
      expect(tokens.scope).toBe('pushes:read');
      expect(tokens.expiresIn()).toBeGreaterThan(3590);

      const rs = await discover(auth.resourceServer.client_id, auth.resourceServer.client_secret, method);
      const active = await oidc.tokenIntrospection(rs, tokens.access_token);
      expect(active).toMatchObject({
        active: true,
        client_id: client.client_id,
        aud: 'push-api',
        scope: 'pushes:read',
      });

      await oidc.tokenRevocation(config, tokens.access_token);
      expect((await oidc.tokenIntrospection(rs, tokens.access_token)).active).toBe(false);
    },
  );

  it('surfaces invalid_scope as an OAuth error', async () => {
    const client = await auth.createClient('pushes:read');
    const config = await discover(client.client_id, client.client_secret, 'basic');
    await expect(oidc.clientCredentialsGrant(config, { scope: 'pushes:write' })).rejects.toMatchObject({
      error: 'invalid_scope',
    });
  });
});
