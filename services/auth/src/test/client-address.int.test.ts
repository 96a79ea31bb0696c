import { Agent } from 'node:http';
import request from 'supertest';
import { captureLogs } from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { type ClientCredentials, type TestAuth, startAuth } from '../testing';
import { postForm } from './support/helpers';

// The client address the failed-authentication throttle counts and the refusal log names. The
// service listens on 127.0.0.1; tests connect from other loopback addresses (127.0.0.0/8) to be
// other peers. Limits are low: 3 failures per (client, IP), 6 per IP, so the 4th (7th) is a 429.
const LIMITS = {
  AUTH_THROTTLE_MAX_PER_CLIENT_IP: '3',
  AUTH_THROTTLE_MAX_PER_IP: '6',
  AUTH_THROTTLE_WINDOW_SECONDS: '120',
};

const agents: Agent[] = [];
function from(ip: string): Agent {
  const agent = new Agent({ localAddress: ip });
  agents.push(agent);
  return agent;
}
afterAll(() => agents.forEach((a) => a.destroy()));

const wrong = (c: ClientCredentials): ClientCredentials => ({ ...c, client_secret: `${c.client_secret}x` });
const unknown: ClientCredentials = { client_id: 'spc_unknown', client_secret: 'x', scope: '' };

/** A token request from `agent`'s address (127.0.0.1 when none), with `X-Forwarded-For` when given. */
function tokenRequest(auth: TestAuth, c: ClientCredentials, opts: { agent?: Agent; xff?: string } = {}) {
  const req = postForm(auth.issuer, '/connect/token', { grant_type: 'client_credentials' }, c);
  if (opts.agent) void req.agent(opts.agent);
  if (opts.xff !== undefined) void req.set('X-Forwarded-For', opts.xff);
  return req;
}

async function statuses(n: number, send: () => PromiseLike<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await send()).status);
  return out;
}

/** The `ip` of every "oauth request refused" line logged so far. */
function refusedIps(logs: { text(): string }): string[] {
  return logs
    .text()
    .split('\n')
    .filter((l) => l.includes('"oauth request refused"'))
    .map((l) => (JSON.parse(l) as { ip: string }).ip);
}

async function tokenEndpoint(auth: TestAuth, headers: Record<string, string>, agent?: Agent) {
  const req = request(auth.issuer).get('/.well-known/openid-configuration').set(headers);
  if (agent) void req.agent(agent);
  const res = await req;
  expect(res.status).toBe(200);
  return (res.body as { token_endpoint: string }).token_endpoint;
}

describe('with no trusted proxy (the default)', () => {
  let auth: TestAuth;
  let victim: ClientCredentials;
  const logs = captureLogs();
  beforeAll(async () => {
    auth = await startAuth({
      env: LIMITS,
      logger: createLogger({ name: 'auth', level: 'info' }, logs.stream),
    });
    victim = await auth.createClient('pushes:read');
  });
  afterAll(() => auth.stop());

  it("an attacker's X-Forwarded-For naming a victim's address counts against the attacker, not the victim", async () => {
    const attacker = from('127.0.0.21');
    const victimIp = from('127.0.0.22');
    // Per (client, IP): the victim client's secret guessed wrong, "from" the victim's address.
    expect(
      await statuses(4, () => tokenRequest(auth, wrong(victim), { agent: attacker, xff: '127.0.0.22' })),
    ).toEqual([401, 401, 401, 429]);
    // Per IP: unknown client ids, until the attacker's own address is over its cap.
    expect(
      await statuses(3, () => tokenRequest(auth, unknown, { agent: attacker, xff: '127.0.0.22' })),
    ).toEqual([401, 401, 429]);
    // Still refused when it names another address, or several: it is counted by its connection.
    expect((await tokenRequest(auth, unknown, { agent: attacker, xff: '198.51.100.1' })).status).toBe(429);
    expect(
      (await tokenRequest(auth, unknown, { agent: attacker, xff: '127.0.0.22, 127.0.0.1' })).status,
    ).toBe(429);

    // The victim's address has no failure on record: its own failures start at the first, for the
    // victim client and for the address, and its right credentials work.
    expect(await statuses(3, () => tokenRequest(auth, wrong(victim), { agent: victimIp }))).toEqual([
      401, 401, 401,
    ]);
    expect((await tokenRequest(auth, wrong(victim), { agent: victimIp })).status).toBe(429);
    expect((await tokenRequest(auth, victim, { agent: victimIp })).status).toBe(200);

    // The refusal log names the connection's address, never the forged one.
    const ips = refusedIps(logs);
    expect(ips.length).toBeGreaterThanOrEqual(9);
    expect(new Set(ips)).toEqual(new Set(['127.0.0.21', '127.0.0.22']));
    expect(ips.slice(0, 9)).toEqual(Array<string>(9).fill('127.0.0.21'));
  });

  it('does not believe X-Forwarded-Proto or X-Forwarded-Host either', async () => {
    expect(
      await tokenEndpoint(auth, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' }),
    ).toBe(`${auth.issuer}/connect/token`);
  });
});

describe('with 127.0.0.1 as the trusted proxy', () => {
  let auth: TestAuth;
  const logs = captureLogs();
  beforeAll(async () => {
    auth = await startAuth({
      env: { ...LIMITS, AUTH_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' },
      logger: createLogger({ name: 'auth', level: 'info' }, logs.stream),
    });
  });
  afterAll(() => auth.stop());

  it('counts the right-most address of X-Forwarded-For that is not a trusted proxy', async () => {
    // What a client sends in X-Forwarded-For (here 198.51.100.7) comes first; the proxy appends the
    // address it saw (203.0.113.9), and 10.0.0.5 is a second trusted proxy.
    const xff = '198.51.100.7, 203.0.113.9, 10.0.0.5';
    expect(await statuses(7, () => tokenRequest(auth, unknown, { xff }))).toEqual([
      ...Array<number>(6).fill(401),
      429,
    ]);
    // Counted for 203.0.113.9, whichever way it arrives…
    expect((await tokenRequest(auth, unknown, { xff: '203.0.113.9' })).status).toBe(429);
    expect((await tokenRequest(auth, unknown, { xff: 'anything, 203.0.113.9' })).status).toBe(429);
    // …and not for the client-written entry, nor for the proxy itself (no header: the proxy is the client).
    expect((await tokenRequest(auth, unknown, { xff: '198.51.100.7' })).status).toBe(401);
    expect((await tokenRequest(auth, unknown)).status).toBe(401);
    // Every hop trusted: the left-most address is the client.
    expect(await statuses(7, () => tokenRequest(auth, unknown, { xff: '10.1.2.3, 10.0.0.5' }))).toEqual([
      ...Array<number>(6).fill(401),
      429,
    ]);

    const ips = refusedIps(logs);
    expect(ips.slice(0, 9)).toEqual(Array<string>(9).fill('203.0.113.9'));
    expect(ips.slice(9)).toEqual(['198.51.100.7', '127.0.0.1', ...Array<string>(7).fill('10.1.2.3')]);
  });

  it('does not believe X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const attacker = from('127.0.0.31');
    // 203.0.113.50 is over its cap (through the proxy)…
    expect(await statuses(7, () => tokenRequest(auth, unknown, { xff: '203.0.113.50' }))).toEqual([
      ...Array<number>(6).fill(401),
      429,
    ]);
    // …but a direct caller naming it is counted as itself, and naming a victim gets only itself refused.
    expect(
      await statuses(7, () => tokenRequest(auth, unknown, { agent: attacker, xff: '203.0.113.60' })),
    ).toEqual([...Array<number>(6).fill(401), 429]);
    expect((await tokenRequest(auth, unknown, { xff: '203.0.113.60' })).status).toBe(401);
    expect(
      (await tokenRequest(auth, unknown, { agent: from('127.0.0.32'), xff: '203.0.113.50' })).status,
    ).toBe(401);
  });

  it("builds discovery URLs from a trusted proxy's X-Forwarded-Proto/Host only", async () => {
    const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'auth.example' };
    expect(await tokenEndpoint(auth, forwarded)).toBe('https://auth.example/connect/token');
    expect(await tokenEndpoint(auth, forwarded, from('127.0.0.33'))).toBe(`${auth.issuer}/connect/token`);
  });
});
