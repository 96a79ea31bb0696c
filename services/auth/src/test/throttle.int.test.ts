import { Agent } from 'node:http';
import { captureLogs, startPrivateRedis } from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { type ClientCredentials, type TestAuth, startAuth } from '../testing';
import { introspect, postForm } from './support/helpers';

// Callers are told apart by their real source address: the auth service listens on 127.0.0.1 and
// the tests connect from other loopback addresses (127.0.0.0/8) where they need a second IP, so no
// proxy header is involved.
const agents: Agent[] = [];
function from(ip: string): Agent {
  const agent = new Agent({ localAddress: ip });
  agents.push(agent);
  return agent;
}
afterAll(() => agents.forEach((a) => a.destroy()));

const SLOW_DOWN = {
  error: 'slow_down',
  error_description: 'too many failed client authentication attempts, retry later',
};

const wrong = (c: ClientCredentials): ClientCredentials => ({ ...c, client_secret: `${c.client_secret}x` });
const unknown = (i: number): ClientCredentials => ({
  client_id: `spc_unknown${i}`,
  client_secret: 'x',
  scope: '',
});

function tokenRequest(auth: TestAuth, c: ClientCredentials, agent?: Agent) {
  const req = postForm(auth.issuer, '/connect/token', { grant_type: 'client_credentials' }, c);
  return agent ? req.agent(agent) : req;
}

describe('with the default limits, from 127.0.0.1 (where the push service introspects from)', () => {
  let auth: TestAuth;
  beforeAll(async () => {
    auth = await startAuth();
  });
  afterAll(() => auth.stop());

  it('never refuses a client whose credentials verify, after 100+ failures from its IP for another client and unknown ids', async () => {
    const victim = await auth.createClient('pushes:read pushes:write');
    const other = await auth.createClient('pushes:read');
    const earlier = await auth.token(victim);

    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await tokenRequest(auth, wrong(other))).status);
    for (let i = 0; i < 100; i++) statuses.push((await tokenRequest(auth, unknown(i))).status);
    // 10 per (client, IP), then 100 per IP: the failures over a cap are answered 429.
    expect(statuses).toEqual([
      ...Array<number>(10).fill(401),
      429,
      429,
      ...Array<number>(100 - 12).fill(401),
      ...Array<number>(12).fill(429),
    ]);

    // Right credentials still work from the same IP: tokens, introspection, revocation…
    const issued = await tokenRequest(auth, victim);
    expect(issued.status).toBe(200);
    expect(issued.body.access_token).toEqual(expect.any(String));
    const active = await introspect(auth.issuer, auth.resourceServer, issued.body.access_token);
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ active: true, client_id: victim.client_id });
    expect((await introspect(auth.issuer, auth.resourceServer, earlier)).body.active).toBe(true);
    expect((await introspect(auth.issuer, auth.resourceServer, 'garbage')).body).toEqual({ active: false });
    const revoked = await postForm(auth.issuer, '/connect/revocation', { token: earlier }, victim);
    expect(revoked.status).toBe(200);
    // …also for the client whose own (client, IP) counter is over its cap, and with client_secret_post.
    expect((await tokenRequest(auth, other)).status).toBe(200);
    const posted = await postForm(auth.issuer, '/connect/token', {
      grant_type: 'client_credentials',
      client_id: victim.client_id,
      client_secret: victim.client_secret,
    });
    expect(posted.status).toBe(200);

    // A wrong secret from this IP, for any client, is still told to slow down.
    const refused = await introspect(auth.issuer, wrong(auth.resourceServer), issued.body.access_token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(SLOW_DOWN);
  });
});

describe('with low limits (3 per client and IP, 6 per IP)', () => {
  let auth: TestAuth;
  let victim: ClientCredentials;
  beforeAll(async () => {
    auth = await startAuth({
      env: {
        AUTH_THROTTLE_MAX_PER_CLIENT_IP: '3',
        AUTH_THROTTLE_MAX_PER_IP: '6',
        AUTH_THROTTLE_WINDOW_SECONDS: '120',
      },
    });
    victim = await auth.createClient('pushes:read');
  });
  afterAll(() => auth.stop());

  it('answers failures over a cap 429 slow_down with Retry-After, and counts them too', async () => {
    const ip = from('127.0.0.2');
    for (let i = 0; i < 3; i++) {
      const res = await tokenRequest(auth, wrong(victim), ip);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
    }

    const over = await tokenRequest(auth, wrong(victim), ip); // 4th for (victim, IP), 4th for the IP
    expect(over.status).toBe(429);
    expect(over.body).toEqual(SLOW_DOWN);
    expect(over.headers['content-type']).toMatch(/^application\/json/);
    expect(over.headers['cache-control']).toBe('no-store');
    expect(over.headers['www-authenticate']).toBeUndefined();
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(120);

    // The right secret is not refused, from the same IP.
    expect((await tokenRequest(auth, victim, ip)).status).toBe(200);

    // The 429 was counted for the IP: unknown ids (counted per IP only) reach its cap of 6 after
    // two more failures, not three.
    expect((await tokenRequest(auth, unknown(1), ip)).status).toBe(401); // 5
    expect((await tokenRequest(auth, unknown(2), ip)).status).toBe(401); // 6
    const ipOver = await tokenRequest(auth, unknown(3), ip); // 7
    expect(ipOver.status).toBe(429);
    expect(ipOver.body).toEqual(SLOW_DOWN);
    expect(Number(ipOver.headers['retry-after'])).toBeGreaterThan(0);

    // On introspection and revocation too, with the error JSON of RFC 6749 §5.2.
    const introspection = await postForm(
      auth.issuer,
      '/connect/introspect',
      { token: 'x' },
      wrong(auth.resourceServer),
    ).agent(ip);
    expect(introspection.status).toBe(429);
    expect(introspection.body).toEqual(SLOW_DOWN);
    const revocation = await postForm(
      auth.issuer,
      '/connect/revocation',
      { token: 'x' },
      wrong(victim),
    ).agent(ip);
    expect(revocation.status).toBe(429);
    expect(Number(revocation.headers['retry-after'])).toBeGreaterThan(0);

    // Still right credentials answer normally.
    expect(
      (await postForm(auth.issuer, '/connect/introspect', { token: 'x' }, auth.resourceServer).agent(ip))
        .body,
    ).toEqual({
      active: false,
    });
  });

  it('counts per (client, IP): the same client failing from another IP is not over its cap', async () => {
    const a = from('127.0.0.3');
    const b = from('127.0.0.4');
    for (let i = 0; i < 3; i++) expect((await tokenRequest(auth, wrong(victim), a)).status).toBe(401);
    expect((await tokenRequest(auth, wrong(victim), a)).status).toBe(429);
    expect((await tokenRequest(auth, wrong(victim), b)).status).toBe(401);
    expect((await tokenRequest(auth, victim, a)).status).toBe(200);
    expect((await tokenRequest(auth, victim, b)).status).toBe(200);
  });

  it('does not count what is not a failed client authentication', async () => {
    const ip = from('127.0.0.5');
    for (let i = 0; i < 8; i++) {
      // authenticated, but refused for another reason (a scope the client may not have)
      const res = await postForm(
        auth.issuer,
        '/connect/token',
        { grant_type: 'client_credentials', scope: 'pushes:write' },
        victim,
      ).agent(ip);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_scope');
    }
    for (let i = 0; i < 3; i++) expect((await tokenRequest(auth, wrong(victim), ip)).status).toBe(401);
  });
});

describe('with Redis down', () => {
  it('fails open: failures answer 401 (logged), right credentials 200', async () => {
    const redis = await startPrivateRedis();
    const logs = captureLogs();
    const auth = await startAuth({
      env: { AUTH_REDIS_URL: redis.url, AUTH_THROTTLE_MAX_PER_CLIENT_IP: '1', AUTH_THROTTLE_MAX_PER_IP: '1' },
      logger: createLogger({ name: 'auth', level: 'warn' }, logs.stream),
    });
    try {
      const client = await auth.createClient('pushes:read');
      await redis.stop();
      for (let i = 0; i < 3; i++) expect((await tokenRequest(auth, wrong(client))).status).toBe(401);
      expect((await tokenRequest(auth, client)).status).toBe(200);
      expect(logs.text()).toContain('client auth throttle unavailable (failing open)');
    } finally {
      await redis.stop();
      await auth.stop();
    }
  });
});
