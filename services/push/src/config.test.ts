import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@secret-push/config';
import { loadPushConfig, loadPushMigrateConfig } from './config';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const base = {
  PUSH_DATABASE_URL: 'postgres://u@db/push',
  PUSH_REDIS_URL: 'redis://r:6379',
  PUSH_AUTH_URL: 'http://auth:4000/',
  PUSH_INTROSPECTION_CLIENT_ID: 'spc_rs',
  PUSH_INTROSPECTION_CLIENT_SECRET: 's',
  PUSH_ENCRYPTION_KEYS: `${key('k2')},${key('k1')}`,
};

type Env = Record<string, string>;

/** The problems a loader's ConfigError lists (none when it loads). */
function problems(env: Env, load: (env: Env) => unknown = loadPushConfig): string[] {
  try {
    load(env);
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

describe('loadPushMigrateConfig', () => {
  it("reads the database URL alone, from the variable or its file, ignoring the job's other variables", () => {
    // The migrate Job gets the whole push ConfigMap: nothing but the URL may be required of it.
    const jobEnv = { NODE_ENV: 'production', PUSH_PORT: '3000', PUSH_DATABASE_URL: base.PUSH_DATABASE_URL };
    expect(loadPushMigrateConfig(jobEnv)).toEqual({ db: { url: 'postgres://u@db/push' } });
    const dir = mkdtempSync(join(tmpdir(), 'push-migrate-config-'));
    try {
      writeFileSync(join(dir, 'url'), 'postgresql://u:p@db:5432/push\n');
      expect(loadPushMigrateConfig({ PUSH_DATABASE_URL_FILE: join(dir, 'url') }).db.url).toBe(
        'postgresql://u:p@db:5432/push',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists what is wrong with the URL as a config error', () => {
    expect(problems({}, loadPushMigrateConfig)).toEqual([expect.stringMatching(/^PUSH_DATABASE_URL: /)]);
    expect(problems({ PUSH_DATABASE_URL: 'mysql://u@db/push' }, loadPushMigrateConfig)).toEqual([
      expect.stringMatching(/^PUSH_DATABASE_URL: /),
    ]);
    expect(
      problems(
        { PUSH_DATABASE_URL: base.PUSH_DATABASE_URL, PUSH_DATABASE_URL_FILE: '/x' },
        loadPushMigrateConfig,
      ),
    ).toEqual(['PUSH_DATABASE_URL: set either PUSH_DATABASE_URL or PUSH_DATABASE_URL_FILE, not both']);
  });
});
