import request from 'supertest';
import { type TestAuth, startAuth } from '../testing';

// People never see JSON: a page path's 404 is a page; the endpoints of programs answer as before.
let auth: TestAuth;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(async () => {
  await auth.stop();
});

describe('404 of the sign-in service', () => {
  it.each(['/nope', '/account/nope', '/interaction', '/reset', '/static/nope.css', '/login.'])(
    'a page path (%s) answers an HTML page with the pages’ headers',
    async (path) => {
      const res = await request(auth.issuer).get(path).set('Accept', 'application/json');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('Page not found');
      expect(res.text).not.toContain('invalid_request');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );

  it.each(['/connect/nope', '/.well-known/nope', '/accounts/nope/extra', '/connect'])(
    'an API path (%s) keeps the answer it had (koa’s plain 404), even when HTML is asked for',
    async (path) => {
      const res = await request(auth.issuer).get(path).set('Accept', 'text/html');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.text).toBe('Not Found');
    },
  );

  it('leaves the endpoints themselves as they were', async () => {
    const discovery = await request(auth.issuer).get('/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    expect(discovery.headers['content-type']).toMatch(/^application\/json/);
    expect((await request(auth.issuer).get('/healthz')).status).toBe(200);
  });
});
