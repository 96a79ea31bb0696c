import { ConfigError } from '@secret-push/config';
import { loadAuthConfig } from './config';

const base = { AUTH_DATABASE_URL: 'postgres://u@db/auth', AUTH_REDIS_URL: 'redis://r:6379' };
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
    expect(config.http).toEqual({ host: '127.0.0.1', port: 4000, trustProxy: false });
    expect(config.issuer).toBe('http://127.0.0.1:4000');
    expect(config.accessTokenTtlSeconds).toBe(3600);
    expect(Object.isFrozen(config.http)).toBe(true);
  });

  it('lists every bad or missing variable at once', () => {
    expect(problems({ AUTH_PORT: 'x', AUTH_ACCESS_TOKEN_TTL: '0', AUTH_TRUST_PROXY: 'maybe' })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^AUTH_PORT: /),
        expect.stringMatching(/^AUTH_ACCESS_TOKEN_TTL: must be at least 1/),
        expect.stringMatching(/^AUTH_TRUST_PROXY: must be true or false/),
        expect.stringMatching(/^AUTH_DATABASE_URL: /),
        expect.stringMatching(/^AUTH_REDIS_URL: /),
      ]),
    );
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

  it('reads secrets from mounted files', () => {
    expect(problems({ ...base, AUTH_JWKS_FILE: '/nonexistent/jwks.json' })).toEqual([
      'AUTH_JWKS_FILE: cannot read /nonexistent/jwks.json (ENOENT)',
    ]);
  });
});
