import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@secret-push/config';
import { loadPushCliConfig, loadPushConfig, loadPushMigrateConfig, loadWorkerConfig } from '.';
import { DEFAULT_CODE_LIMITS, codeSentMessage } from '../domain/request-codes';

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
    expect(c.personalTokens).toEqual({ cacheSeconds: 10 });
  });

  it('caches personal token lookups for 10 s at most', () => {
    expect(
      loadPushConfig({ ...base, PUSH_PERSONAL_TOKEN_CACHE_SECONDS: '0' }).personalTokens.cacheSeconds,
    ).toBe(0);
    expect(problems({ ...base, PUSH_PERSONAL_TOKEN_CACHE_SECONDS: '11' })).toEqual([
      expect.stringMatching(/^PUSH_PERSONAL_TOKEN_CACHE_SECONDS: /),
    ]);
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
    expect(
      problems({
        ...base,
        PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '100',
        PUSH_RATE_LIMIT_LOOKUP_PER_MINUTE: '199',
      }),
    ).toEqual([expect.stringMatching(/^PUSH_RATE_LIMIT_LOOKUP_PER_MINUTE: at least twice .* \(200\)/)]);
    expect(
      loadPushConfig({ ...base, PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '100' }).rateLimits.lookupPerMinute,
    ).toBe(200);
    expect(
      loadPushConfig({
        ...base,
        PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '100',
        PUSH_RATE_LIMIT_LOOKUP_PER_MINUTE: '200',
      }).rateLimits.lookupPerMinute,
    ).toBe(200);
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

describe('PUSH_CORS_ORIGINS', () => {
  it('is empty by default, and reads a list of exact origins', () => {
    expect(loadPushConfig(base).http.corsOrigins).toEqual([]);
    expect(loadPushConfig({ ...base, PUSH_CORS_ORIGINS: '' }).http.corsOrigins).toEqual([]);
    expect(
      loadPushConfig({
        ...base,
        PUSH_CORS_ORIGINS: ' https://app.example.com , http://localhost:5173,,https://[::1]:8443 ',
      }).http.corsOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173', 'https://[::1]:8443']);
  });

  it('refuses a wildcard, with what to do instead', () => {
    for (const wildcard of ['*', 'https://*.example.com']) {
      expect(problems({ ...base, PUSH_CORS_ORIGINS: `https://app.example.com,${wildcard}` })).toEqual([
        `PUSH_CORS_ORIGINS: "${wildcard}": wildcards are not accepted; list each origin (e.g. https://app.example.com)`,
      ]);
    }
  });

  it('refuses what is not written as a browser sends its Origin, naming the origin meant', () => {
    const meant = (entry: string, origin: string) =>
      `PUSH_CORS_ORIGINS: "${entry}" must be written as the origin ${origin} (scheme://host[:port]: ` +
      'no path, query, credentials, default port or trailing slash, as browsers send it)';
    for (const [entry, origin] of [
      ['https://app.example.com/', 'https://app.example.com'],
      ['https://app.example.com/sdk', 'https://app.example.com'],
      ['https://app.example.com?x=1', 'https://app.example.com'],
      ['https://user:pw@app.example.com', 'https://app.example.com'],
      ['https://app.example.com:443', 'https://app.example.com'],
      ['HTTPS://App.Example.com', 'https://app.example.com'],
    ] as const) {
      expect(problems({ ...base, PUSH_CORS_ORIGINS: entry })).toEqual([meant(entry, origin)]);
    }
    for (const entry of ['app.example.com', 'ftp://files.example.com', 'null', 'https://']) {
      expect(problems({ ...base, PUSH_CORS_ORIGINS: entry })).toEqual([
        `PUSH_CORS_ORIGINS: "${entry}" is not an http(s) origin (e.g. https://app.example.com, http://localhost:5173)`,
      ]);
    }
  });
});

describe('deadlines, server limits and the metrics port', () => {
  it('has defaults for every deadline and limit', () => {
    const c = loadPushConfig({ ...base, PUSH_S3_BUCKET: 'bucket' });
    expect(c.db).toMatchObject({ connectTimeoutMs: 3000, statementTimeoutMs: 5000, queryTimeoutMs: 6000 });
    expect(c.redis.commandTimeoutMs).toBe(500);
    expect(c.s3).toMatchObject({ connectTimeoutMs: 3000, requestTimeoutMs: 30_000 });
    expect(c.httpLimits).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 600_000,
      idleTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      maxHeaderBytes: 16_384,
    });
    expect(c.metrics).toEqual({ host: '127.0.0.1', port: 9464 });
  });

  it('reads each one', () => {
    const c = loadPushConfig({
      ...base,
      PUSH_S3_BUCKET: 'bucket',
      PUSH_DATABASE_CONNECT_TIMEOUT_MS: '1000',
      PUSH_DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      PUSH_DATABASE_QUERY_TIMEOUT_MS: '2500',
      PUSH_REDIS_COMMAND_TIMEOUT_MS: '250',
      PUSH_S3_CONNECT_TIMEOUT_MS: '1500',
      PUSH_S3_REQUEST_TIMEOUT_MS: '20000',
      PUSH_HTTP_HEADERS_TIMEOUT_MS: '5000',
      PUSH_HTTP_REQUEST_TIMEOUT_MS: '0',
      PUSH_HTTP_IDLE_TIMEOUT_MS: '15000',
      PUSH_HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000',
      PUSH_HTTP_MAX_HEADER_BYTES: '8192',
      PUSH_HOST: '0.0.0.0',
      PUSH_METRICS_PORT: '9100',
    });
    expect(c.db).toMatchObject({ connectTimeoutMs: 1000, statementTimeoutMs: 2000, queryTimeoutMs: 2500 });
    expect(c.redis.commandTimeoutMs).toBe(250);
    expect(c.s3).toMatchObject({ connectTimeoutMs: 1500, requestTimeoutMs: 20_000 });
    expect(c.httpLimits).toEqual({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 0,
      idleTimeoutMs: 15_000,
      keepAliveTimeoutMs: 75_000,
      maxHeaderBytes: 8192,
    });
    expect(c.metrics).toEqual({ host: '0.0.0.0', port: 9100 });
  });

  it('refuses deadlines and ports that contradict each other', () => {
    expect(
      problems({
        ...base,
        PUSH_DATABASE_STATEMENT_TIMEOUT_MS: '6000',
        PUSH_DATABASE_QUERY_TIMEOUT_MS: '6000',
        PUSH_HTTP_HEADERS_TIMEOUT_MS: '20000',
        PUSH_HTTP_REQUEST_TIMEOUT_MS: '10000',
        PUSH_METRICS_PORT: '3000',
      }),
    ).toEqual([
      'PUSH_DATABASE_QUERY_TIMEOUT_MS: must be above PUSH_DATABASE_STATEMENT_TIMEOUT_MS',
      'PUSH_HTTP_HEADERS_TIMEOUT_MS: must not exceed PUSH_HTTP_REQUEST_TIMEOUT_MS',
      'PUSH_METRICS_PORT: must differ from PUSH_PORT (the Ingress routes PUSH_PORT)',
    ]);
    expect(problems({ ...base, PUSH_PORT: '0', PUSH_METRICS_PORT: '0' })).toEqual([]);
    expect(problems({ ...base, PUSH_REDIS_COMMAND_TIMEOUT_MS: '10' })).toEqual([
      expect.stringMatching(/^PUSH_REDIS_COMMAND_TIMEOUT_MS: must be at least 50/),
    ]);
  });

  it("gives the worker longer statement deadlines of its own, and no Redis command deadline on its queue's connections", () => {
    const worker = {
      PUSH_DATABASE_URL: base.PUSH_DATABASE_URL,
      PUSH_REDIS_URL: base.PUSH_REDIS_URL,
      PUSH_ENCRYPTION_KEYS: base.PUSH_ENCRYPTION_KEYS,
    };
    const c = loadWorkerConfig({ ...worker, PUSH_DATABASE_STATEMENT_TIMEOUT_MS: '1000' });
    expect(c.db).toMatchObject({
      statementTimeoutMs: 30_000,
      queryTimeoutMs: 35_000,
      connectTimeoutMs: 3000,
    });
    expect(
      loadWorkerConfig({
        ...worker,
        PUSH_WORKER_DATABASE_STATEMENT_TIMEOUT_MS: '60000',
        PUSH_WORKER_DATABASE_QUERY_TIMEOUT_MS: '65000',
      }).db,
    ).toMatchObject({ statementTimeoutMs: 60_000, queryTimeoutMs: 65_000 });
    expect(
      problems({ ...worker, PUSH_WORKER_DATABASE_STATEMENT_TIMEOUT_MS: '40000' }, loadWorkerConfig),
    ).toEqual([
      'PUSH_WORKER_DATABASE_QUERY_TIMEOUT_MS: must be above PUSH_WORKER_DATABASE_STATEMENT_TIMEOUT_MS',
    ]);
    // An outbox round holds a connection while its consumers use another: one would hang the worker.
    expect(problems({ ...worker, PUSH_DATABASE_POOL_SIZE: '1' }, loadWorkerConfig)).toEqual([
      'PUSH_DATABASE_POOL_SIZE: the worker needs at least 2 connections (an outbox round holds one)',
    ]);
    expect(loadWorkerConfig({ ...worker, PUSH_DATABASE_POOL_SIZE: '2' }).db.poolSize).toBe(2);
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

describe('loadPushCliConfig', () => {
  it('reads the database settings alone (the operator CLI), ignoring the service’s other variables', () => {
    expect(loadPushCliConfig({ PUSH_PORT: 'not a port', PUSH_DATABASE_URL: base.PUSH_DATABASE_URL })).toEqual(
      {
        db: { url: 'postgres://u@db/push', poolSize: 1, connectTimeoutMs: 3000, statementTimeoutMs: 5000 },
      },
    );
    expect(problems({}, loadPushCliConfig)).toEqual([expect.stringMatching(/^PUSH_DATABASE_URL: /)]);
  });
});

describe('PUSH_REQUEST_CODE_*', () => {
  it("defaults to today's limits: 15 minutes, 5 attempts, a resend a minute, 10 per IP and 15 per request in 10 minutes", () => {
    expect(loadPushConfig(base).requestCodes).toEqual({
      ttlSeconds: 900,
      maxAttempts: 5,
      resendSeconds: 60,
      requestsPerIp: 10,
      requestsPerRequest: 15,
      rateWindowSeconds: 600,
    });
    expect(loadPushConfig(base).requestCodes).toEqual(DEFAULT_CODE_LIMITS);
  });

  it('reads each one', () => {
    const c = loadPushConfig({
      ...base,
      PUSH_REQUEST_CODE_TTL_SECONDS: '300',
      PUSH_REQUEST_CODE_MAX_ATTEMPTS: '3',
      PUSH_REQUEST_CODE_RESEND_SECONDS: '30',
      PUSH_REQUEST_CODE_REQUESTS_PER_IP: '50',
      PUSH_REQUEST_CODE_REQUESTS_PER_REQUEST: '40',
      PUSH_REQUEST_CODE_RATE_WINDOW_SECONDS: '3600',
    });
    expect(c.requestCodes).toEqual({
      ttlSeconds: 300,
      maxAttempts: 3,
      resendSeconds: 30,
      requestsPerIp: 50,
      requestsPerRequest: 40,
      rateWindowSeconds: 3600,
    });
  });

  it('refuses values outside the secure bounds, every problem at once', () => {
    const found = problems({
      ...base,
      PUSH_REQUEST_CODE_TTL_SECONDS: '86400',
      PUSH_REQUEST_CODE_MAX_ATTEMPTS: '0',
      PUSH_REQUEST_CODE_RESEND_SECONDS: '1',
      PUSH_REQUEST_CODE_REQUESTS_PER_IP: '0',
      PUSH_REQUEST_CODE_REQUESTS_PER_REQUEST: 'many',
      PUSH_REQUEST_CODE_RATE_WINDOW_SECONDS: '10',
    });
    for (const name of [
      'PUSH_REQUEST_CODE_TTL_SECONDS',
      'PUSH_REQUEST_CODE_MAX_ATTEMPTS',
      'PUSH_REQUEST_CODE_RESEND_SECONDS',
      'PUSH_REQUEST_CODE_REQUESTS_PER_IP',
      'PUSH_REQUEST_CODE_REQUESTS_PER_REQUEST',
      'PUSH_REQUEST_CODE_RATE_WINDOW_SECONDS',
    ]) {
      expect(found.some((p) => p.includes(name))).toBe(true);
    }
    expect(problems({ ...base, PUSH_REQUEST_CODE_MAX_ATTEMPTS: '11' })).toHaveLength(1);
  });

  it('says the validity in whole minutes', () => {
    expect(codeSentMessage(900)).toContain('valid for 15 minutes');
    expect(codeSentMessage(90)).toContain('valid for 2 minutes');
  });
});
