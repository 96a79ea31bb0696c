import { z } from 'zod';
import { commonEnv, envBoolean, envCsv, envInt, parseEnv } from '@secret-push/config';

const MIB = 1024 * 1024;

/** Encryption keys: `id:base64key[,id:base64key…]`, 32-byte keys; the first one encrypts new rows. */
const keyRing = envCsv().transform((entries, ctx) => {
  const keys: { id: string; key: Buffer }[] = [];
  for (const entry of entries) {
    const sep = entry.indexOf(':');
    const id = entry.slice(0, sep);
    const key = Buffer.from(entry.slice(sep + 1), 'base64');
    if (sep < 1 || !/^[\w.-]{1,32}$/.test(id) || key.length !== 32) {
      ctx.addIssue({ code: 'custom', message: 'each key must be "id:<32 bytes in base64>"' });
      return z.NEVER;
    }
    keys.push({ id, key });
  }
  if (keys.length === 0) ctx.addIssue({ code: 'custom', message: 'at least one key is required' });
  if (new Set(keys.map((k) => k.id)).size !== keys.length) {
    ctx.addIssue({ code: 'custom', message: 'key ids must be unique' });
  }
  return keys;
});

/**
 * The web origins whose pages may call the API from a browser (CORS): exact origins, each
 * `scheme://host[:port]` as a browser sends it in `Origin` (http or https, lower-case host, no
 * default port, path, query, credentials or trailing slash), so that matching is a plain string
 * comparison. A wildcard is refused: every origin is listed. Each entry is checked here, so a typo
 * stops the start-up instead of never matching.
 */
const corsOrigins = envCsv().superRefine((entries, ctx) => {
  for (const entry of entries) {
    if (entry.includes('*')) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}": wildcards are not accepted; list each origin (e.g. https://app.example.com)`,
      });
      continue;
    }
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      // not a URL: reported below
    }
    if (origin === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not an http(s) origin (e.g. https://app.example.com, http://localhost:5173)`,
      });
    } else if (origin !== entry) {
      ctx.addIssue({
        code: 'custom',
        message:
          `"${entry}" must be written as the origin ${origin} (scheme://host[:port]: no path, ` +
          'query, credentials, default port or trailing slash, as browsers send it)',
      });
    }
  }
});

/** Storage variables shared by the API and the worker. */
export const storageEnv = {
  PUSH_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  PUSH_DATABASE_POOL_SIZE: envInt(1, 200).default(10),
  PUSH_DATABASE_CONNECT_TIMEOUT_MS: envInt(100, 60_000).default(3000),
  PUSH_REDIS_URL: z.url({ protocol: /^rediss?$/ }),
  PUSH_REDIS_PREFIX: z.string().default('push:'),
  PUSH_REDIS_COMMAND_TIMEOUT_MS: envInt(50, 60_000).default(500),
  // The object store for file pushes (AWS S3, MinIO, s3rver…); file pushes need a bucket.
  PUSH_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  PUSH_S3_REGION: z.string().min(1).default('us-east-1'),
  PUSH_S3_BUCKET: z.string().min(3).max(63).optional(),
  PUSH_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  PUSH_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  PUSH_S3_FORCE_PATH_STYLE: envBoolean().default(false),
  PUSH_S3_CHECKSUMS: z.enum(['when_required', 'when_supported']).default('when_required'),
  PUSH_S3_PART_SIZE_MIB: envInt(5, 512).default(8),
  PUSH_S3_QUEUE_SIZE: envInt(1, 16).default(2),
  PUSH_S3_CONNECT_TIMEOUT_MS: envInt(100, 60_000).default(3000),
  PUSH_S3_REQUEST_TIMEOUT_MS: envInt(1000, 600_000).default(30_000),
};

/** The API's statement deadlines; the worker has its own (worker/worker.config.ts). */
const apiDatabaseEnv = {
  PUSH_DATABASE_STATEMENT_TIMEOUT_MS: envInt(100, 3_600_000).default(5000),
  PUSH_DATABASE_QUERY_TIMEOUT_MS: envInt(100, 3_600_000).default(6000),
};

/**
 * Our deadline on an answer must come after the server's own: a server that is up cancels the
 * statement and says why; ours is for one that cannot answer at all.
 */
export function statementDeadlineProblems(prefix: string, statementMs: number, queryMs: number): string[] {
  return queryMs > statementMs
    ? []
    : [`${prefix}_QUERY_TIMEOUT_MS: must be above ${prefix}_STATEMENT_TIMEOUT_MS`];
}

type StorageVars = z.infer<z.ZodObject<typeof storageEnv>>;

/**
 * The storage part of the API's and the worker's config objects; `statements` are the caller's
 * statement deadlines (the worker's batches get longer ones than the API's requests).
 */
export function storageConfig(
  v: StorageVars,
  statements: { statementTimeoutMs: number; queryTimeoutMs: number },
) {
  return {
    db: {
      url: v.PUSH_DATABASE_URL,
      poolSize: v.PUSH_DATABASE_POOL_SIZE,
      connectTimeoutMs: v.PUSH_DATABASE_CONNECT_TIMEOUT_MS,
      ...statements,
    },
    redis: {
      url: v.PUSH_REDIS_URL,
      prefix: v.PUSH_REDIS_PREFIX,
      commandTimeoutMs: v.PUSH_REDIS_COMMAND_TIMEOUT_MS,
    },
    s3: v.PUSH_S3_BUCKET
      ? {
          endpoint: v.PUSH_S3_ENDPOINT,
          region: v.PUSH_S3_REGION,
          bucket: v.PUSH_S3_BUCKET,
          // Without explicit keys the AWS SDK's default chain applies (IAM role, web identity…).
          credentials:
            v.PUSH_S3_ACCESS_KEY_ID && v.PUSH_S3_SECRET_ACCESS_KEY
              ? { accessKeyId: v.PUSH_S3_ACCESS_KEY_ID, secretAccessKey: v.PUSH_S3_SECRET_ACCESS_KEY }
              : undefined,
          forcePathStyle: v.PUSH_S3_FORCE_PATH_STYLE,
          checksums: v.PUSH_S3_CHECKSUMS,
          partSize: v.PUSH_S3_PART_SIZE_MIB * MIB,
          queueSize: v.PUSH_S3_QUEUE_SIZE,
          connectTimeoutMs: v.PUSH_S3_CONNECT_TIMEOUT_MS,
          requestTimeoutMs: v.PUSH_S3_REQUEST_TIMEOUT_MS,
        }
      : null,
  };
}

export type S3Config = NonNullable<ReturnType<typeof storageConfig>['s3']>;

/** Variables read from `NAME_FILE` when given that way (mounted secrets). */
export const storageSecretFiles = [
  'PUSH_DATABASE_URL',
  'PUSH_REDIS_URL',
  'PUSH_S3_ACCESS_KEY_ID',
  'PUSH_S3_SECRET_ACCESS_KEY',
];

const schema = z.object({
  ...commonEnv,
  ...storageEnv,
  ...apiDatabaseEnv,
  LOG_SLOW_REQUEST_MS: envInt(0, 3_600_000).default(1000),
  PUSH_HOST: z.string().default('127.0.0.1'),
  PUSH_PORT: envInt(0, 65535).default(3000),
  PUSH_METRICS_PORT: envInt(0, 65535).default(9464),
  PUSH_HTTP_HEADERS_TIMEOUT_MS: envInt(1000, 300_000).default(10_000),
  // 0: none. Bounds an upload of PUSH_FILES_MAX_TOTAL_BYTES: 10 min is 1 GiB at 1.8 MB/s.
  PUSH_HTTP_REQUEST_TIMEOUT_MS: envInt(0, 24 * 3_600_000).default(600_000),
  PUSH_HTTP_IDLE_TIMEOUT_MS: envInt(1000, 3_600_000).default(30_000),
  PUSH_HTTP_KEEP_ALIVE_TIMEOUT_MS: envInt(1000, 3_600_000).default(65_000),
  PUSH_HTTP_MAX_HEADER_BYTES: envInt(4096, 1024 * 1024).default(16 * 1024),
  PUSH_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  PUSH_AUTH_URL: z.url({ protocol: /^https?$/ }),
  PUSH_INTROSPECTION_CLIENT_ID: z.string().min(1),
  PUSH_INTROSPECTION_CLIENT_SECRET: z.string().min(1),
  PUSH_INTROSPECTION_CACHE_SECONDS: envInt(0, 30).default(30),
  PUSH_INTROSPECTION_CACHE_SIZE: envInt(1, 1_000_000).default(10_000),
  PUSH_INTROSPECTION_TIMEOUT_MS: envInt(100, 30_000).default(3000),
  // How long a personal token's lookup is reused: revocation takes effect within it (0 to 10 s).
  PUSH_PERSONAL_TOKEN_CACHE_SECONDS: envInt(0, 10).default(10),
  PUSH_ENCRYPTION_KEYS: keyRing,
  PUSH_TRUSTED_PROXIES: envCsv().default([]),
  PUSH_CORS_ORIGINS: corsOrigins.default([]),
  // Sign-in to the web app (OpenID Connect): all three, or none (then nobody can sign in).
  PUSH_OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  PUSH_OIDC_CLIENT_ID: z.string().min(1).optional(),
  PUSH_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  PUSH_SESSION_COOKIE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only')
    .default('sp_session'),
  PUSH_SESSION_IDLE_SECONDS: envInt(60, 30 * 86_400).default(7200),
  PUSH_SESSION_ABSOLUTE_SECONDS: envInt(300, 365 * 86_400).default(86_400),
  // How often a signed-in user is re-checked with the issuer: a disabled user loses access within it.
  PUSH_SESSION_RECHECK_SECONDS: envInt(1, 60).default(60),
  PUSH_ANONYMOUS_ACCESS: envBoolean().default(true),
  PUSH_PUSHES_ENABLED: envBoolean().default(true),
  PUSH_URL_PUSHES_ENABLED: envBoolean().default(true),
  PUSH_QR_PUSHES_ENABLED: envBoolean().default(true),
  PUSH_FILE_PUSHES_ENABLED: envBoolean().optional(),
  PUSH_FILE_PUSHES_REQUIRE_AUTH: envBoolean().default(true),
  PUSH_FILES_MAX_COUNT: envInt(1, 1000).default(10),
  PUSH_FILES_MAX_FILE_BYTES: envInt(1, 5 * 1024 * MIB).default(256 * MIB),
  PUSH_FILES_MAX_TOTAL_BYTES: envInt(1, 50 * 1024 * MIB).default(1024 * MIB),
  // At least 1: with 0, the files of a push's last view could never be downloaded.
  PUSH_FILES_GRACE_SECONDS: envInt(1, 86_400).default(600),
  PUSH_FILES_DOWNLOADS_PER_VIEW: envInt(1, 100).default(3),
  PUSH_EXPIRE_AFTER_DAYS_DEFAULT: envInt(1, 3650).default(7),
  PUSH_EXPIRE_AFTER_DAYS_MIN: envInt(1, 3650).default(1),
  PUSH_EXPIRE_AFTER_DAYS_MAX: envInt(1, 3650).default(90),
  PUSH_EXPIRE_AFTER_VIEWS_DEFAULT: envInt(1, 10_000).default(5),
  PUSH_EXPIRE_AFTER_VIEWS_MIN: envInt(1, 10_000).default(1),
  PUSH_EXPIRE_AFTER_VIEWS_MAX: envInt(1, 10_000).default(100),
  PUSH_RETRIEVAL_STEP_DEFAULT: envBoolean().default(true),
  PUSH_DELETABLE_BY_VIEWER_DEFAULT: envBoolean().default(true),
  PUSH_RATE_LIMIT_CREATE_PER_MINUTE: envInt(1, 1_000_000).default(120),
  PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE: envInt(1, 1_000_000).default(600),
  PUSH_RATE_LIMIT_INVALID_TOKENS_PER_MINUTE: envInt(1, 1_000_000).default(60),
  PUSH_PASSPHRASE_ATTEMPTS_PER_PUSH: envInt(1, 1000).default(5),
  PUSH_PASSPHRASE_ATTEMPTS_PER_IP: envInt(1, 100_000).default(30),
  PUSH_MAX_AUDIT_ENTRIES: envInt(10, 1_000_000).default(2000),
  // How long a create's Idempotency-Key is remembered: 1 minute to 7 days, 24 hours by default.
  PUSH_IDEMPOTENCY_TTL_SECONDS: envInt(60, 7 * 86_400).default(86_400),
});

type Vars = z.infer<typeof schema>;

function consistency(v: Vars): string[] {
  const problems: string[] = [];
  const range = (what: string, min: number, def: number, max: number) => {
    if (!(min <= def && def <= max)) {
      problems.push(`PUSH_${what}_DEFAULT: must lie within PUSH_${what}_MIN and PUSH_${what}_MAX`);
    }
  };
  range(
    'EXPIRE_AFTER_DAYS',
    v.PUSH_EXPIRE_AFTER_DAYS_MIN,
    v.PUSH_EXPIRE_AFTER_DAYS_DEFAULT,
    v.PUSH_EXPIRE_AFTER_DAYS_MAX,
  );
  range(
    'EXPIRE_AFTER_VIEWS',
    v.PUSH_EXPIRE_AFTER_VIEWS_MIN,
    v.PUSH_EXPIRE_AFTER_VIEWS_DEFAULT,
    v.PUSH_EXPIRE_AFTER_VIEWS_MAX,
  );
  if (v.PUSH_FILE_PUSHES_ENABLED === true && !v.PUSH_S3_BUCKET) {
    problems.push('PUSH_FILE_PUSHES_ENABLED: file pushes need an object store (set PUSH_S3_BUCKET)');
  }
  if (v.PUSH_FILES_MAX_FILE_BYTES > v.PUSH_FILES_MAX_TOTAL_BYTES) {
    problems.push('PUSH_FILES_MAX_FILE_BYTES: must not exceed PUSH_FILES_MAX_TOTAL_BYTES');
  }
  problems.push(
    ...statementDeadlineProblems(
      'PUSH_DATABASE',
      v.PUSH_DATABASE_STATEMENT_TIMEOUT_MS,
      v.PUSH_DATABASE_QUERY_TIMEOUT_MS,
    ),
  );
  if (v.PUSH_HTTP_REQUEST_TIMEOUT_MS > 0 && v.PUSH_HTTP_HEADERS_TIMEOUT_MS > v.PUSH_HTTP_REQUEST_TIMEOUT_MS) {
    problems.push('PUSH_HTTP_HEADERS_TIMEOUT_MS: must not exceed PUSH_HTTP_REQUEST_TIMEOUT_MS');
  }
  if (v.PUSH_METRICS_PORT !== 0 && v.PUSH_METRICS_PORT === v.PUSH_PORT) {
    problems.push('PUSH_METRICS_PORT: must differ from PUSH_PORT (the Ingress routes PUSH_PORT)');
  }
  if (v.NODE_ENV === 'production' && !v.PUSH_PUBLIC_URL) {
    problems.push('PUSH_PUBLIC_URL: required in production');
  }
  const oidc = [v.PUSH_OIDC_ISSUER, v.PUSH_OIDC_CLIENT_ID, v.PUSH_OIDC_CLIENT_SECRET];
  if (oidc.some((x) => x !== undefined) && oidc.some((x) => x === undefined)) {
    problems.push('PUSH_OIDC_ISSUER, PUSH_OIDC_CLIENT_ID, PUSH_OIDC_CLIENT_SECRET: set all three, or none');
  }
  if (v.NODE_ENV === 'production' && v.PUSH_OIDC_ISSUER?.startsWith('http://')) {
    problems.push('PUSH_OIDC_ISSUER: must be https:// in production');
  }
  if (v.PUSH_SESSION_IDLE_SECONDS > v.PUSH_SESSION_ABSOLUTE_SECONDS) {
    problems.push('PUSH_SESSION_IDLE_SECONDS: must not exceed PUSH_SESSION_ABSOLUTE_SECONDS');
  }
  if (v.NODE_ENV === 'production' && v.PUSH_ENCRYPTION_KEYS.some((k) => k.id.startsWith('dev-'))) {
    problems.push('PUSH_ENCRYPTION_KEYS: development keys (id "dev-…") are refused in production');
  }
  return problems;
}

export function loadPushConfig(env: Record<string, string | undefined>) {
  return parseEnv(
    schema,
    env,
    (v) => ({
      env: v.NODE_ENV,
      logLevel: v.LOG_LEVEL,
      logSlowRequestMs: v.LOG_SLOW_REQUEST_MS,
      http: {
        host: v.PUSH_HOST,
        port: v.PUSH_PORT,
        trustedProxies: v.PUSH_TRUSTED_PROXIES,
        // Empty: no CORS headers at all (browsers may call the API from its own origin only).
        corsOrigins: v.PUSH_CORS_ORIGINS,
      },
      // What a client may cost the main port (runtime's createHttpServer).
      httpLimits: {
        headersTimeoutMs: v.PUSH_HTTP_HEADERS_TIMEOUT_MS,
        requestTimeoutMs: v.PUSH_HTTP_REQUEST_TIMEOUT_MS,
        idleTimeoutMs: v.PUSH_HTTP_IDLE_TIMEOUT_MS,
        keepAliveTimeoutMs: v.PUSH_HTTP_KEEP_ALIVE_TIMEOUT_MS,
        maxHeaderBytes: v.PUSH_HTTP_MAX_HEADER_BYTES,
      },
      // /metrics (and /healthz, /readyz) on a port of its own, which the Ingress does not route.
      metrics: { host: v.PUSH_HOST, port: v.PUSH_METRICS_PORT },
      publicUrl: (v.PUSH_PUBLIC_URL ?? `http://${v.PUSH_HOST}:${v.PUSH_PORT}`).replace(/\/$/, ''),
      ...storageConfig(v, {
        statementTimeoutMs: v.PUSH_DATABASE_STATEMENT_TIMEOUT_MS,
        queryTimeoutMs: v.PUSH_DATABASE_QUERY_TIMEOUT_MS,
      }),
      auth: {
        introspectionUrl: `${v.PUSH_AUTH_URL.replace(/\/$/, '')}/connect/introspect`,
        clientId: v.PUSH_INTROSPECTION_CLIENT_ID,
        clientSecret: v.PUSH_INTROSPECTION_CLIENT_SECRET,
        cacheSeconds: v.PUSH_INTROSPECTION_CACHE_SECONDS,
        cacheSize: v.PUSH_INTROSPECTION_CACHE_SIZE,
        timeoutMs: v.PUSH_INTROSPECTION_TIMEOUT_MS,
      },
      personalTokens: { cacheSeconds: v.PUSH_PERSONAL_TOKEN_CACHE_SECONDS },
      // Absent: the web app has no sign-in.
      signIn:
        v.PUSH_OIDC_ISSUER && v.PUSH_OIDC_CLIENT_ID && v.PUSH_OIDC_CLIENT_SECRET
          ? {
              issuer: v.PUSH_OIDC_ISSUER.replace(/\/$/, ''),
              clientId: v.PUSH_OIDC_CLIENT_ID,
              clientSecret: v.PUSH_OIDC_CLIENT_SECRET,
              // openid-client talks to an http:// issuer only outside production (refused above).
              allowInsecureRequests: v.PUSH_OIDC_ISSUER.startsWith('http://'),
            }
          : undefined,
      sessions: {
        cookieName: v.PUSH_SESSION_COOKIE,
        // Development and tests run on http://, where a Secure cookie would never come back.
        secureCookies: v.NODE_ENV === 'production',
        idleSeconds: v.PUSH_SESSION_IDLE_SECONDS,
        absoluteSeconds: v.PUSH_SESSION_ABSOLUTE_SECONDS,
        recheckSeconds: v.PUSH_SESSION_RECHECK_SECONDS,
      },
      encryptionKeys: v.PUSH_ENCRYPTION_KEYS,
      features: {
        anonymousAccess: v.PUSH_ANONYMOUS_ACCESS,
        pushesEnabled: v.PUSH_PUSHES_ENABLED,
        urlPushes: v.PUSH_URL_PUSHES_ENABLED,
        qrPushes: v.PUSH_QR_PUSHES_ENABLED,
        // On by default wherever an object store is configured.
        filePushes: v.PUSH_FILE_PUSHES_ENABLED ?? v.PUSH_S3_BUCKET !== undefined,
        filePushesRequireAuth: v.PUSH_FILE_PUSHES_REQUIRE_AUTH,
      },
      limits: {
        days: {
          default: v.PUSH_EXPIRE_AFTER_DAYS_DEFAULT,
          min: v.PUSH_EXPIRE_AFTER_DAYS_MIN,
          max: v.PUSH_EXPIRE_AFTER_DAYS_MAX,
        },
        views: {
          default: v.PUSH_EXPIRE_AFTER_VIEWS_DEFAULT,
          min: v.PUSH_EXPIRE_AFTER_VIEWS_MIN,
          max: v.PUSH_EXPIRE_AFTER_VIEWS_MAX,
        },
        retrievalStepDefault: v.PUSH_RETRIEVAL_STEP_DEFAULT,
        deletableByViewerDefault: v.PUSH_DELETABLE_BY_VIEWER_DEFAULT,
        maxAuditEntries: v.PUSH_MAX_AUDIT_ENTRIES,
      },
      idempotency: { ttlSeconds: v.PUSH_IDEMPOTENCY_TTL_SECONDS },
      files: {
        maxCount: v.PUSH_FILES_MAX_COUNT,
        maxFileBytes: v.PUSH_FILES_MAX_FILE_BYTES,
        maxTotalBytes: v.PUSH_FILES_MAX_TOTAL_BYTES,
        graceSeconds: v.PUSH_FILES_GRACE_SECONDS,
        downloadsPerView: v.PUSH_FILES_DOWNLOADS_PER_VIEW,
      },
      rateLimits: {
        createPerMinute: v.PUSH_RATE_LIMIT_CREATE_PER_MINUTE,
        retrievePerMinute: v.PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE,
        invalidTokensPerMinute: v.PUSH_RATE_LIMIT_INVALID_TOKENS_PER_MINUTE,
        passphrasePerPush: v.PUSH_PASSPHRASE_ATTEMPTS_PER_PUSH,
        passphrasePerIp: v.PUSH_PASSPHRASE_ATTEMPTS_PER_IP,
      },
    }),
    {
      secretFiles: [
        'PUSH_ENCRYPTION_KEYS',
        // Not a secret, but created with its secret, so deployments mount both as files.
        'PUSH_INTROSPECTION_CLIENT_ID',
        'PUSH_INTROSPECTION_CLIENT_SECRET',
        ...storageSecretFiles,
      ],
      check: consistency,
    },
  );
}

export type PushConfig = ReturnType<typeof loadPushConfig>;

const migrateSchema = z.object({ PUSH_DATABASE_URL: storageEnv.PUSH_DATABASE_URL });

/**
 * What `main-migrate.ts` needs: the database URL alone (PUSH_DATABASE_URL or
 * PUSH_DATABASE_URL_FILE); the job's other variables (the push ConfigMap) are ignored.
 */
export function loadPushMigrateConfig(env: Record<string, string | undefined>) {
  return parseEnv(migrateSchema, env, (v) => ({ db: { url: v.PUSH_DATABASE_URL } }), {
    secretFiles: ['PUSH_DATABASE_URL'],
  });
}

export type PushMigrateConfig = ReturnType<typeof loadPushMigrateConfig>;

const cliSchema = z.object({
  PUSH_DATABASE_URL: storageEnv.PUSH_DATABASE_URL,
  PUSH_DATABASE_CONNECT_TIMEOUT_MS: storageEnv.PUSH_DATABASE_CONNECT_TIMEOUT_MS,
  PUSH_DATABASE_STATEMENT_TIMEOUT_MS: apiDatabaseEnv.PUSH_DATABASE_STATEMENT_TIMEOUT_MS,
});

/**
 * What the operator CLI (`secret-push-push`, cli/run-cli.ts) needs: the database alone
 * (PUSH_DATABASE_URL or PUSH_DATABASE_URL_FILE, with its connect and statement deadlines); the
 * service's other variables are ignored, so it runs with the push ConfigMap or without it.
 */
export function loadPushCliConfig(env: Record<string, string | undefined>) {
  return parseEnv(
    cliSchema,
    env,
    (v) => ({
      db: {
        url: v.PUSH_DATABASE_URL,
        poolSize: 1,
        connectTimeoutMs: v.PUSH_DATABASE_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: v.PUSH_DATABASE_STATEMENT_TIMEOUT_MS,
      },
    }),
    { secretFiles: ['PUSH_DATABASE_URL'] },
  );
}

export type PushCliConfig = ReturnType<typeof loadPushCliConfig>;
