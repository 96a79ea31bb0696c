import { type ClientCredentials, type TestAuth, startAuth } from '../testing';
import { postForm } from './helpers';

let auth: TestAuth;
let victim: ClientCredentials;

beforeAll(async () => {
  // Behind a trusted proxy, X-Forwarded-For tells callers apart.
  auth = await startAuth({
    env: { AUTH_TRUST_PROXY: 'true', AUTH_THROTTLE_MAX_PER_CLIENT_IP: '3', AUTH_THROTTLE_MAX_PER_IP: '6' },
  });
  victim = await auth.createClient('pushes:read');
});
afterAll(() => auth.stop());

const tokenFrom = (ip: string, c: ClientCredentials) =>
  postForm(auth.issuer, '/connect/token', { grant_type: 'client_credentials' }, c).set('X-Forwarded-For', ip);

describe('failed client authentication throttle', () => {
  it('blocks a (client, IP) pair after its failures, before the secret is compared, but not the client elsewhere', async () => {
    const wrong = { ...victim, client_secret: 'guess' };
    for (let i = 0; i < 3; i++) expect((await tokenFrom('203.0.113.1', wrong)).status).toBe(401);

    const blocked = await tokenFrom('203.0.113.1', victim); // even the right secret
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body).toEqual({
      error: 'slow_down',
      error_description: 'too many failed client authentication attempts, retry later',
    });

    // Knowing the client id from another address locks nobody out.
    expect((await tokenFrom('198.51.100.7', victim)).status).toBe(200);
  });

  it('caps an IP across clients, unknown ones included, and on introspection too', async () => {
    const ip = '203.0.113.99';
    for (let i = 0; i < 6; i++) {
      const res = await tokenFrom(ip, { client_id: `spc_unknown${i}`, client_secret: 'x', scope: '' });
      expect(res.status).toBe(401);
    }
    expect((await tokenFrom(ip, victim)).status).toBe(429);
    const introspection = await postForm(
      auth.issuer,
      '/connect/introspect',
      { token: 'x' },
      auth.resourceServer,
    ).set('X-Forwarded-For', ip);
    expect(introspection.status).toBe(429);
    expect((await tokenFrom('198.51.100.8', victim)).status).toBe(200);
  });
});
