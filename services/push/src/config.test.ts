import { randomBytes } from 'node:crypto';
import { ConfigError } from '@secret-push/config';
import { loadPushConfig } from './config';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const base = {
  PUSH_DATABASE_URL: 'postgres://u@db/push',
  PUSH_REDIS_URL: 'redis://r:6379',
  PUSH_AUTH_URL: 'http://auth:4000/',
  PUSH_INTROSPECTION_CLIENT_ID: 'spc_rs',
  PUSH_INTROSPECTION_CLIENT_SECRET: 's',
  PUSH_ENCRYPTION_KEYS: `${key('k2')},${key('k1')}`,
};

function problems(env: Record<string, string>): string[] {
  try {
    loadPushConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('loadPushConfig', () => {
  it('parses defaults, the key ring and the introspection URL', () => {
    const c = loadPushConfig(base);
    expect(c.encryptionKeys.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(c.auth.introspectionUrl).toBe('http://auth:4000/connect/introspect');
    expect(c.publicUrl).toBe('http://127.0.0.1:3000');
    expect(c.limits.days).toEqual({ default: 7, min: 1, max: 90 });
    expect(c.limits.views).toEqual({ default: 5, min: 1, max: 100 });
    expect(c.features).toMatchObject({
      anonymousAccess: true,
      urlPushes: true,
      qrPushes: true,
      filePushes: false,
    });
  });

  it('lists every problem at once', () => {
    expect(
      problems({
        ...base,
        PUSH_ENCRYPTION_KEYS: 'k1:short',
        PUSH_PORT: '-1',
        PUSH_EXPIRE_AFTER_DAYS_DEFAULT: '100',
        PUSH_AUTH_URL: '',
      }),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PUSH_ENCRYPTION_KEYS: each key must be/),
        expect.stringMatching(/^PUSH_PORT: /),
        expect.stringMatching(/^PUSH_AUTH_URL: /),
      ]),
    );
    expect(
      problems({ ...base, PUSH_EXPIRE_AFTER_DAYS_DEFAULT: '100', PUSH_EXPIRE_AFTER_DAYS_MAX: '90' }),
    ).toEqual([
      'PUSH_EXPIRE_AFTER_DAYS_DEFAULT: must lie within PUSH_EXPIRE_AFTER_DAYS_MIN and PUSH_EXPIRE_AFTER_DAYS_MAX',
    ]);
    expect(problems({ ...base, PUSH_ENCRYPTION_KEYS: `${key('a')},${key('a')}` })).toEqual([
      'PUSH_ENCRYPTION_KEYS: key ids must be unique',
    ]);
  });

  it('refuses development keys and a missing public URL in production', () => {
    expect(problems({ ...base, NODE_ENV: 'production', PUSH_ENCRYPTION_KEYS: key('dev-1') })).toEqual([
      'PUSH_PUBLIC_URL: required in production',
      'PUSH_ENCRYPTION_KEYS: development keys (id "dev-…") are refused in production',
    ]);
  });
});
