import request from 'supertest';
import { type ClientCredentials, type TestAuth, startAuth } from '../testing';
import { basic, postForm } from './support/helpers';

let auth: TestAuth;
let client: ClientCredentials;
let reader: ClientCredentials;

beforeAll(async () => {
  auth = await startAuth();
  client = await auth.createClient('pushes:read pushes:write');
  reader = await auth.createClient('pushes:read');
});
afterAll(() => auth.stop());

const token = (form: Record<string, string>, c: ClientCredentials | null = client) =>
  postForm(auth.issuer, '/connect/token', form, c ?? undefined);

describe('POST /connect/token', () => {
  it('issues an opaque bearer token for all allowed scopes when none is asked (Basic auth)', async () => {
    const res = await token({ grant_type: 'client_credentials' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^[\w-]{43}$/),
      expires_in: 3600,
      token_type: 'Bearer',
      scope: 'pushes:read pushes:write',
    });
  });

  it('accepts client_secret_post and a narrower scope', async () => {
    const res = await token(
      {
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: client.client_secret,
        scope: 'pushes:read',
      },
      null,
    );
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('pushes:read');
  });

  // Every refusal of the token endpoint answers with its RFC 6749 §5.2 error code and status.
  it.each<[string, () => request.Test, number, Record<string, unknown>]>([
    [
      'wrong secret with Basic',
      () => token({ grant_type: 'client_credentials' }, { ...client, client_secret: 'wrong' }),
      401,
      { error: 'invalid_client', error_description: 'client authentication failed' },
    ],
    [
      'unknown client with Basic',
      () =>
        token(
          { grant_type: 'client_credentials' },
          { client_id: 'spc_nobody', client_secret: 'x', scope: '' },
        ),
      401,
      { error: 'invalid_client', error_description: 'client authentication failed' },
    ],
    [
      'wrong secret in the form',
      () =>
        token(
          { grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'wrong' },
          null,
        ),
      401,
      { error: 'invalid_client', error_description: 'client authentication failed' },
    ],
    [
      'no client authentication',
      () => token({ grant_type: 'client_credentials' }, null),
      400,
      { error: 'invalid_request', error_description: 'no client authentication mechanism provided' },
    ],
    [
      'Basic and form secret together',
      () => token({ grant_type: 'client_credentials', client_secret: client.client_secret }),
      400,
      {
        error: 'invalid_request',
        error_description: 'client authentication must only be provided using one mechanism',
      },
    ],
    [
      'missing grant_type',
      () => token({}),
      400,
      { error: 'invalid_request', error_description: "missing required parameter 'grant_type'" },
    ],
    [
      'grant_type sent twice',
      () =>
        request(auth.issuer)
          .post('/connect/token')
          .set('Authorization', basic(client))
          .type('form')
          .send('grant_type=client_credentials&grant_type=client_credentials'),
      400,
      { error: 'invalid_request', error_description: "'grant_type' parameter must not be provided twice" },
    ],
    [
      'unsupported grant_type',
      () => token({ grant_type: 'password', username: 'a', password: 'b' }),
      400,
      { error: 'unsupported_grant_type', error_description: 'unsupported grant_type requested' },
    ],
    [
      'grant not allowed for the client (resource server)',
      () => token({ grant_type: 'client_credentials' }, auth.resourceServer),
      400,
      {
        error: 'unauthorized_client',
        error_description: 'requested grant type is not allowed for this client',
      },
    ],
    [
      'scope the client may not have',
      () => token({ grant_type: 'client_credentials', scope: 'pushes:write' }, reader),
      400,
      { error: 'invalid_scope', error_description: 'requested scope is not allowed', scope: 'pushes:write' },
    ],
    [
      'unknown scope, named',
      () => token({ grant_type: 'client_credentials', scope: 'pushes:read admin' }),
      400,
      { error: 'invalid_scope', error_description: 'requested scope is not allowed', scope: 'admin' },
    ],
    [
      'openid scope',
      () => token({ grant_type: 'client_credentials', scope: 'openid' }),
      400,
      { error: 'invalid_scope', error_description: 'requested scope is not allowed', scope: 'openid' },
    ],
    [
      'scope syntax',
      () => token({ grant_type: 'client_credentials', scope: 'pushes:read  pushes:write' }),
      400,
      { error: 'invalid_scope', error_description: 'scope contains invalid characters' },
    ],
    [
      'unknown resource indicator',
      () => token({ grant_type: 'client_credentials', resource: 'https://other.example' }),
      400,
      { error: 'invalid_target', error_description: 'resource indicator is missing, or unknown' },
    ],
    [
      'JSON body',
      () =>
        request(auth.issuer)
          .post('/connect/token')
          .set('Authorization', basic(client))
          .send({ grant_type: 'client_credentials' }),
      400,
      {
        error: 'invalid_request',
        error_description:
          'only application/x-www-form-urlencoded content-type bodies are supported on POST /connect/token',
      },
    ],
  ])('%s', async (_name, send, status, body) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('sends WWW-Authenticate: Basic only when Basic was used', async () => {
    const withBasic = await token(
      { grant_type: 'client_credentials' },
      { ...client, client_secret: 'wrong' },
    );
    expect(withBasic.headers['www-authenticate']).toMatch(/^Basic realm=".+", error="invalid_client"/);
    const withPost = await token(
      { grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'wrong' },
      null,
    );
    expect(withPost.headers['www-authenticate']).toBeUndefined();
  });

  it('answers JSON even when the caller asks for HTML', async () => {
    const res = await postForm(auth.issuer, '/connect/token', { grant_type: 'password' }, client).set(
      'Accept',
      'text/html',
    );
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.error).toBe('unsupported_grant_type');
  });

  it('publishes discovery listing exactly what is supported, under both well-known names', async () => {
    const oidc = await request(auth.issuer).get('/.well-known/openid-configuration');
    const rfc8414 = await request(auth.issuer).get('/.well-known/oauth-authorization-server');
    expect(rfc8414.body).toEqual(oidc.body);
    // The sign-in half (authorization code + PKCE, userinfo, logout) is checked in
    // oidc-login.int.test.ts; here, that the machine half is still all there.
    expect(oidc.body).toMatchObject({
      issuer: auth.issuer,
      token_endpoint: `${auth.issuer}/connect/token`,
      jwks_uri: `${auth.issuer}/.well-known/jwks`,
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      response_types_supported: ['code'],
      scopes_supported: ['pushes:read', 'pushes:write', 'openid', 'email'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      introspection_endpoint: `${auth.issuer}/connect/introspect`,
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint: `${auth.issuer}/connect/revocation`,
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
    const jwks = await request(auth.issuer).get('/.well-known/jwks');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256' });
    expect(jwks.body.keys[0].d).toBeUndefined();
  });

  it("serves nothing at oidc-provider's default interactive paths (sign-in lives under /connect)", async () => {
    for (const path of ['/me', '/session/end', '/request', '/auth']) {
      const res = await request(auth.issuer).get(path);
      expect([400, 404]).toContain(res.status);
    }
  });
});
