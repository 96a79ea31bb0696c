import { ConfigError } from '@secret-push/config';
import { loadAuthConfig } from '.';

const dataKey = (id: string) => `${id}:${Buffer.alloc(32, 7).toString('base64')}`;
const base = {
  AUTH_DATABASE_URL: 'postgres://u@db/auth',
  AUTH_REDIS_URL: 'redis://r:6379',
  AUTH_DATA_KEYS: dataKey('2026-a'),
};
const prodKey = JSON.stringify({ keys: [{ kid: '2026-a', kty: 'RSA', d: 'private' }] });

function problems(env: Record<string, string>): string[] {
  try {
    loadAuthConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('loadAuthConfig', () => {
  it('parses defaults into a frozen, nested object', () => {
    const config = loadAuthConfig(base);
    expect(config.http).toEqual({ host: '127.0.0.1', port: 4000, trustedProxies: [] });
    expect(config.issuer).toBe('http://127.0.0.1:4000');
    expect(config.accessTokenTtlSeconds).toBe(3600);
    expect(Object.isFrozen(config.http)).toBe(true);
  });

  it('reads the second-factor settings: optional by default, issuer "secret-push"', () => {
    expect(loadAuthConfig(base).totp).toEqual({ required: false, issuer: 'secret-push' });
    expect(loadAuthConfig({ ...base, AUTH_REQUIRE_TOTP: 'true', AUTH_TOTP_ISSUER: ' Acme ' }).totp).toEqual({
      required: true,
      issuer: 'Acme',
    });
    expect(problems({ ...base, AUTH_REQUIRE_TOTP: 'maybe' })).toEqual([
      expect.stringMatching(/^AUTH_REQUIRE_TOTP: must be true or false/),
    ]);
  });

  it('lists every bad or missing variable at once', () => {
    expect(problems({ AUTH_PORT: 'x', AUTH_ACCESS_TOKEN_TTL: '0', AUTH_TRUSTED_PROXIES: 'proxy' })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^AUTH_PORT: /),
        expect.stringMatching(/^AUTH_ACCESS_TOKEN_TTL: must be at least 1/),
        expect.stringMatching(/^AUTH_TRUSTED_PROXIES: "proxy" is not an IP address or CIDR range/),
        expect.stringMatching(/^AUTH_DATABASE_URL: /),
        expect.stringMatching(/^AUTH_REDIS_URL: /),
      ]),
    );
  });

  it('reads the trusted proxies as a list of IP addresses and CIDR ranges', () => {
    const list = ' 10.0.0.0/8, 192.0.2.7 ,fd00::/8,::1,, 127.0.0.1/32, loopback ';
    expect(loadAuthConfig({ ...base, AUTH_TRUSTED_PROXIES: list }).http.trustedProxies).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      'fd00::/8',
      '::1',
      '127.0.0.1/32',
      'loopback',
    ]);
    expect(loadAuthConfig({ ...base, AUTH_TRUSTED_PROXIES: '' }).http.trustedProxies).toEqual([]);
  });

  it('refuses every entry of AUTH_TRUSTED_PROXIES that is not an address or a range, naming it', () => {
    expect(
      problems({
        ...base,
        AUTH_TRUSTED_PROXIES: '10.0.0.0/8,10.0.0.0/33,300.1.2.3,ingress.local,*,fd00::/129',
      }),
    ).toEqual(
      ['10.0.0.0/33', '300.1.2.3', 'ingress.local', '*', 'fd00::/129'].map(
        (e) =>
          `AUTH_TRUSTED_PROXIES: "${e}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, 192.0.2.7, fd00::/8)`,
      ),
    );
  });

  it('refuses the removed AUTH_TRUST_PROXY unless it says false, naming AUTH_TRUSTED_PROXIES', () => {
    for (const value of ['true', 'TRUE', '1', 'yes', 'maybe']) {
      expect(problems({ ...base, AUTH_TRUST_PROXY: value })).toEqual([
        expect.stringMatching(/^AUTH_TRUST_PROXY: no longer supported .*AUTH_TRUSTED_PROXIES/),
      ]);
    }
    // Alongside the other problems, not after them.
    expect(problems({ AUTH_TRUST_PROXY: 'true' })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^AUTH_TRUST_PROXY: no longer supported/),
        expect.stringMatching(/^AUTH_DATABASE_URL: /),
      ]),
    );
    // What nothing set always meant: no proxy is trusted.
    for (const value of ['false', 'off', '0']) {
      expect(loadAuthConfig({ ...base, AUTH_TRUST_PROXY: value }).http.trustedProxies).toEqual([]);
    }
  });

  it('refuses to start in production without keys, or with development keys', () => {
    expect(problems({ ...base, NODE_ENV: 'production' })).toEqual([
      'AUTH_ISSUER: required in production',
      'AUTH_JWKS: required in production (or AUTH_JWKS_FILE)',
      'AUTH_COOKIE_KEYS: required in production',
    ]);
    const dev = JSON.stringify({ keys: [{ kid: 'dev-1', kty: 'RSA', d: 'x' }] });
    expect(
      problems({
        ...base,
        NODE_ENV: 'production',
        AUTH_ISSUER: 'https://auth.example',
        AUTH_JWKS: dev,
        AUTH_COOKIE_KEYS: 'dev-abc',
      }),
    ).toEqual([
      'AUTH_JWKS: development keys (kid "dev-…") or public-only keys are refused in production',
      'AUTH_COOKIE_KEYS: development keys or keys shorter than 32 characters are refused in production',
    ]);
    const ok = loadAuthConfig({
      ...base,
      NODE_ENV: 'production',
      AUTH_ISSUER: 'https://auth.example/',
      AUTH_JWKS: prodKey,
      AUTH_COOKIE_KEYS: 'k'.repeat(40),
    });
    expect(ok.issuer).toBe('https://auth.example');
  });

  it('marks the sign-in cookies Secure in production with an https issuer only', () => {
    const prod = { ...base, NODE_ENV: 'production', AUTH_JWKS: prodKey, AUTH_COOKIE_KEYS: 'k'.repeat(40) };
    expect(loadAuthConfig({ ...prod, AUTH_ISSUER: 'https://auth.example' }).secureCookies).toBe(true);
    expect(loadAuthConfig({ ...prod, AUTH_ISSUER: 'http://localhost:4000' }).secureCookies).toBe(false);
    expect(loadAuthConfig({ ...base, AUTH_ISSUER: 'https://auth.example' }).secureCookies).toBe(false);
    expect(loadAuthConfig({ ...base, NODE_ENV: 'test' }).secureCookies).toBe(false);
  });

  it('refuses an http issuer in production unless it is a loopback host (people sign in there)', () => {
    const prod = { ...base, NODE_ENV: 'production', AUTH_JWKS: prodKey, AUTH_COOKIE_KEYS: 'k'.repeat(40) };
    expect(problems({ ...prod, AUTH_ISSUER: 'http://auth.example' })).toEqual([
      'AUTH_ISSUER: must be https in production (people sign in there); http only for a loopback host',
    ]);
    for (const local of [
      'http://localhost:4000',
      'http://127.0.0.1:4000',
      'http://[::1]:4000',
      'http://auth.app.localhost',
    ]) {
      expect(problems({ ...prod, AUTH_ISSUER: local })).toEqual([]);
    }
  });

  it('has the login throttle and session defaults, and keeps the per-account cap above the per-(account, IP) one', () => {
    const c = loadAuthConfig(base);
    expect(c.sessionTtlSeconds).toBe(43_200);
    expect(c.loginThrottle).toEqual({
      windowSeconds: 900,
      maxPerAccountIp: 10,
      maxPerIp: 100,
      maxPerAccount: 50,
      slowSeconds: 5,
      maxInFlightPerAccount: 4,
    });
    expect(problems({ ...base, AUTH_LOGIN_MAX_PER_ACCOUNT: '5' })).toEqual([
      'AUTH_LOGIN_MAX_PER_ACCOUNT: must not be below AUTH_LOGIN_MAX_PER_ACCOUNT_IP (it counts every IP)',
    ]);
  });

  it('has self sign-up off by default, with its throttle defaults, and reads each setting', () => {
    expect(loadAuthConfig(base).signup).toEqual({ enabled: false, maxPerIp: 10, windowSeconds: 3600 });
    expect(
      loadAuthConfig({
        ...base,
        AUTH_SELF_SIGNUP: 'true',
        AUTH_SIGNUP_MAX_PER_IP: '3',
        AUTH_SIGNUP_WINDOW_SECONDS: '60',
      }).signup,
    ).toEqual({ enabled: true, maxPerIp: 3, windowSeconds: 60 });
    expect(problems({ ...base, AUTH_SELF_SIGNUP: 'maybe' })).toEqual([
      'AUTH_SELF_SIGNUP: must be true or false',
    ]);
    expect(problems({ ...base, AUTH_SIGNUP_MAX_PER_IP: '0' })).toHaveLength(1);
  });

  it('reads the data key ring (the first key seals), required everywhere, development keys refused in production', () => {
    const ring = loadAuthConfig({
      ...base,
      AUTH_DATA_KEYS: `${dataKey('2026-b')}, ${dataKey('2026-a')}`,
    }).dataKeys;
    expect(ring.map((k) => k.id)).toEqual(['2026-b', '2026-a']);
    expect(ring[0]!.key).toEqual(Buffer.alloc(32, 7));
    const { AUTH_DATA_KEYS: _unset, ...without } = base;
    expect(problems(without)).toEqual([expect.stringMatching(/^AUTH_DATA_KEYS: /)]);
    for (const bad of [
      '',
      'no-colon',
      `a:${Buffer.alloc(16).toString('base64')}`,
      `${dataKey('a')},${dataKey('a')}`,
    ]) {
      expect(problems({ ...base, AUTH_DATA_KEYS: bad })).toEqual([
        expect.stringMatching(/^AUTH_DATA_KEYS: /),
      ]);
    }
    const prod = {
      ...base,
      NODE_ENV: 'production',
      AUTH_ISSUER: 'https://auth.example',
      AUTH_JWKS: prodKey,
      AUTH_COOKIE_KEYS: 'k'.repeat(40),
    };
    expect(problems(prod)).toEqual([]);
    expect(problems({ ...prod, AUTH_DATA_KEYS: `${dataKey('2026-a')},${dataKey('dev-20261126')}` })).toEqual([
      'AUTH_DATA_KEYS: development keys (id "dev-…") are refused in production',
    ]);
    expect(loadAuthConfig({ ...base, AUTH_DATA_KEYS: dataKey('dev-1') }).dataKeys[0]!.id).toBe('dev-1');
  });

  it('reads secrets from mounted files', () => {
    expect(problems({ ...base, AUTH_JWKS_FILE: '/nonexistent/jwks.json' })).toEqual([
      'AUTH_JWKS_FILE: cannot read /nonexistent/jwks.json (ENOENT)',
    ]);
  });

  it('has defaults for every deadline and limit, and reads each one', () => {
    const c = loadAuthConfig(base);
    expect(c.db).toMatchObject({ connectTimeoutMs: 3000, statementTimeoutMs: 5000, queryTimeoutMs: 6000 });
    expect(c.redis.commandTimeoutMs).toBe(500);
    expect(c.httpLimits).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      idleTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      maxHeaderBytes: 16_384,
    });
    expect(c.metrics).toEqual({ host: '127.0.0.1', port: 9465 });
    const set = loadAuthConfig({
      ...base,
      AUTH_DATABASE_CONNECT_TIMEOUT_MS: '1000',
      AUTH_DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      AUTH_DATABASE_QUERY_TIMEOUT_MS: '2500',
      AUTH_REDIS_COMMAND_TIMEOUT_MS: '200',
      AUTH_HTTP_HEADERS_TIMEOUT_MS: '5000',
      AUTH_HTTP_REQUEST_TIMEOUT_MS: '8000',
      AUTH_HTTP_IDLE_TIMEOUT_MS: '9000',
      AUTH_HTTP_KEEP_ALIVE_TIMEOUT_MS: '70000',
      AUTH_HTTP_MAX_HEADER_BYTES: '8192',
      AUTH_METRICS_PORT: '9100',
    });
    expect(set.db).toMatchObject({ connectTimeoutMs: 1000, statementTimeoutMs: 2000, queryTimeoutMs: 2500 });
    expect(set.redis.commandTimeoutMs).toBe(200);
    expect(set.httpLimits).toEqual({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 8000,
      idleTimeoutMs: 9000,
      keepAliveTimeoutMs: 70_000,
      maxHeaderBytes: 8192,
    });
    expect(set.metrics.port).toBe(9100);
  });

  it('refuses deadlines and ports that contradict each other', () => {
    expect(
      problems({
        ...base,
        AUTH_DATABASE_STATEMENT_TIMEOUT_MS: '7000',
        AUTH_DATABASE_QUERY_TIMEOUT_MS: '6000',
        AUTH_HTTP_HEADERS_TIMEOUT_MS: '40000',
        AUTH_METRICS_PORT: '4000',
      }),
    ).toEqual([
      'AUTH_DATABASE_QUERY_TIMEOUT_MS: must be above AUTH_DATABASE_STATEMENT_TIMEOUT_MS',
      'AUTH_HTTP_HEADERS_TIMEOUT_MS: must not exceed AUTH_HTTP_REQUEST_TIMEOUT_MS',
      'AUTH_METRICS_PORT: must differ from AUTH_PORT (the Ingress routes AUTH_PORT)',
    ]);
  });
});
