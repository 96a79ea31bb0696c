import { Agent, request } from 'node:http';
import { type TestAuth, startAuth } from '../testing';

/*
 * oidc-provider's body parser stops reading a body it refuses and leaves the request paused: the
 * next request on that keep-alive connection was never read (found by the hostile-input suite:
 * a hang after a 600 KB body). packages/runtime's server drains what is left after the answer.
 */

let auth: TestAuth;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.stop());

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => agent.destroy());

function post(path: string, headers: Record<string, string>, body: Buffer) {
  return new Promise<{ status: number; body: string; socket: unknown }>((resolve, reject) => {
    const req = request(`${auth.issuer}${path}`, { method: 'POST', headers, agent }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, socket: req.socket }));
    });
    req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    req.end(body);
  });
}

it('a keep-alive connection still serves the next request after a refused large body', async () => {
  const nested = Buffer.from(`${'{"a":'.repeat(120_000)}1${'}'.repeat(120_000)}`);
  const refused = await post(
    '/connect/revocation',
    { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' },
    nested,
  );
  expect(refused.status).toBe(400);
  const next = await post(
    '/connect/revocation',
    { 'content-type': 'application/x-www-form-urlencoded' },
    Buffer.from('token=x'),
  );
  expect(next.status).toBe(400);
  expect(JSON.parse(next.body).error).toBe('invalid_request');
  expect(next.socket).toBe(refused.socket); // the same connection, reused
});
