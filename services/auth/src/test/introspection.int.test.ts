import { type ClientCredentials, type TestAuth, startAuth } from '../testing';
import { introspect, postForm } from './support/helpers';

let auth: TestAuth;
let client: ClientCredentials;

beforeAll(async () => {
  auth = await startAuth();
  client = await auth.createClient('pushes:write');
});
afterAll(() => auth.stop());

describe('POST /connect/introspect', () => {
  it('reports an active push-api token to the resource server', async () => {
    const token = await auth.token(client);
    const res = await introspect(auth.issuer, auth.resourceServer, token);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      active: true,
      client_id: client.client_id,
      aud: 'push-api',
      scope: 'pushes:write',
      token_type: 'Bearer',
      iss: auth.issuer,
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    expect(res.body.exp - res.body.iat).toBe(3600);
  });

  it('tells any other client nothing, even about its own token', async () => {
    const token = await auth.token(client);
    const res = await introspect(auth.issuer, client, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ active: false });
  });

  it('answers inactive for garbage and for revoked tokens', async () => {
    expect((await introspect(auth.issuer, auth.resourceServer, 'garbage')).body).toEqual({ active: false });
    const token = await auth.token(client);
    const revoked = await postForm(auth.issuer, '/connect/revocation', { token }, client);
    expect(revoked.status).toBe(200);
    expect((await introspect(auth.issuer, auth.resourceServer, token)).body).toEqual({ active: false });
  });

  it('treats a NUL character in a client id or a token as unknown (text at rest cannot hold it)', async () => {
    for (const path of ['/connect/token', '/connect/introspect', '/connect/revocation']) {
      const res = await postForm(auth.issuer, path, {
        grant_type: 'client_credentials',
        client_id: 'spc_a\u0000b',
        client_secret: 'x',
        token: 'y',
      });
      expect({ path, status: res.status, error: res.body.error }).toEqual({
        path,
        status: 401,
        error: 'invalid_client',
      });
    }
    for (const token of ['\u0000', 'a\u0000b']) {
      expect((await introspect(auth.issuer, auth.resourceServer, token)).body).toEqual({ active: false });
      for (const token_type_hint of [undefined, 'access_token', 'refresh_token', 'garbage']) {
        const res = await postForm(
          auth.issuer,
          '/connect/revocation',
          { token, ...(token_type_hint && { token_type_hint }) },
          client,
        );
        expect(res.status).toBe(200);
      }
    }
  });

  it('refuses revocation of another client’s token', async () => {
    const other = await auth.createClient('pushes:read');
    const token = await auth.token(client);
    const res = await postForm(auth.issuer, '/connect/revocation', { token }, other);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect((await introspect(auth.issuer, auth.resourceServer, token)).body.active).toBe(true);
  });

  it('requires client authentication and a token', async () => {
    const anonymous = await postForm(auth.issuer, '/connect/introspect', { token: 'x' });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.error).toBe('invalid_request');
    const missing = await postForm(auth.issuer, '/connect/introspect', {}, auth.resourceServer);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
  });
});

describe('token lifetime', () => {
  let shortLived: TestAuth;
  beforeAll(async () => {
    shortLived = await startAuth({ env: { AUTH_ACCESS_TOKEN_TTL: '2' } });
  });
  afterAll(() => shortLived.stop());

  it('turns inactive once expired', async () => {
    const c = await shortLived.createClient('pushes:read');
    const token = await shortLived.token(c);
    expect((await introspect(shortLived.issuer, shortLived.resourceServer, token)).body.active).toBe(true);
    await new Promise((r) => setTimeout(r, 3100));
    expect((await introspect(shortLived.issuer, shortLived.resourceServer, token)).body).toEqual({
      active: false,
    });
  });
});
