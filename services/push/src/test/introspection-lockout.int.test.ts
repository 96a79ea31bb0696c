import request from 'supertest';
import { type Harness, bearer, createPush, harness } from './support/helpers';

// The reported outage, end to end: the auth service counted failed client authentications per IP
// and refused *every* client authentication from an IP over its cap, checked before the secret was
// compared. The push service introspects from its own IP; once failures from that IP (any caller
// sharing it) passed the cap, introspection got 429 and every authenticated push request 503.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.stop());

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A failed client authentication at the auth service, sent from 127.0.0.1 like the push service's calls. */
const failAt = (path: string, id: string, form: Record<string, string>) =>
  request(h.auth.issuer).post(path).type('form').set('Authorization', basic(id, 'wrong-secret')).send(form);

describe('failed client authentications from the push service’s IP', () => {
  it('do not lock the push service out of introspection: an authenticated create still answers 201', async () => {
    // Both services listen on loopback: the auth service sees the push service's calls from 127.0.0.1,
    // and these requests come from there too.
    expect(new URL(h.auth.issuer).hostname).toBe('127.0.0.1');
    // Not yet seen by the push service, so not in its introspection cache: the create must introspect.
    const fresh = await h.auth.token(h.client);

    // Wrong secrets for the push service's own introspection client id, past its per-(client, IP)
    // cap of 10…
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await failAt('/connect/introspect', h.auth.resourceServer.client_id, { token: 'x' });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    // …then unknown client ids until the per-IP cap (100) is passed and failures are told to slow down.
    let failures = 11;
    let last: request.Response;
    do {
      last = await failAt('/connect/token', `spc_unknown${failures}`, { grant_type: 'client_credentials' });
      failures++;
    } while (last.status === 401 && failures < 200);
    expect(failures).toBeGreaterThan(100);
    expect(last.status).toBe(429);
    expect(last.body.error).toBe('slow_down');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);

    // The push service's introspection (right credentials, same IP) still works.
    const created = await createPush(h.push.url, { payload: 'after the failures' }, fresh);
    expect(created.status).toBe(201);
    const listed = await request(h.push.url).get('/api/v2/pushes/active').set(bearer(fresh));
    expect(listed.status).toBe(200);

    // And so does getting a new token from that IP.
    const another = await h.auth.token(h.client);
    expect((await createPush(h.push.url, { payload: 'with a new token' }, another)).status).toBe(201);
  });
});
