import proxyAddr from 'proxy-addr';
import { z } from 'zod';
import { commonEnv, envBoolean, envCsv, envInt, envJson, parseEnv } from '@secret-push/config';

/** Key ids and cookie keys written by `secret-push-auth keys generate --dev` start with this. */
export const DEV_KEY_PREFIX = 'dev-';

type Env = Record<string, string | undefined>;

/** The database URL, for the service and for its migrations alike. */
const databaseUrl = z.url({ protocol: /^postgres(ql)?$/ });

const jwkSchema = z.looseObject({ kid: z.string().min(1), kty: z.string(), d: z.string().optional() });
const jwksSchema = z.object({ keys: z.array(jwkSchema).min(1, 'must hold at least one key') });

/**
 * The proxies whose `X-Forwarded-For` is believed: IP addresses and CIDR ranges (IPv4 or IPv6), or
 * proxy-addr's names `loopback`, `linklocal`, `uniquelocal` (as Express's `trust proxy`). Each entry
 * is checked here, so a typo stops the start-up instead of trusting nothing (or everything).
 */
const trustedProxies = envCsv().superRefine((entries, ctx) => {
  for (const entry of entries) {
    try {
      proxyAddr.compile(entry);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, 192.0.2.7, fd00::/8)`,
      });
    }
  }
});

const FALSE = ['false', '0', 'no', 'off'];

/**
 * `AUTH_TRUST_PROXY=true` believed the leftmost `X-Forwarded-For` entry from any caller, so anyone
 * could name any address (and have it throttled). It is refused rather than ignored, so that a
 * deployment that relied on it is told what replaces it; `false` (what nothing set means) passes.
 */
const removedTrustProxy = z
  .string()
  .refine(
    (v) => FALSE.includes(v.trim().toLowerCase()),
    'no longer supported (it believed X-Forwarded-For from any caller): list the proxies whose ' +
      'X-Forwarded-For is believed in AUTH_TRUSTED_PROXIES (comma-separated IPs or CIDRs, e.g. the ' +
      "ingress controller's pod network) and remove AUTH_TRUST_PROXY",
  )
  .optional();

const schema = z.object({
  ...commonEnv,
  LOG_SLOW_REQUEST_MS: envInt(0, 3_600_000).default(1000),
  AUTH_HOST: z.string().default('127.0.0.1'),
  AUTH_PORT: envInt(0, 65535).default(4000),
  AUTH_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  AUTH_DATABASE_URL: databaseUrl,
  AUTH_DATABASE_POOL_SIZE: envInt(1, 200).default(10),
  AUTH_DATABASE_CONNECT_TIMEOUT_MS: envInt(100, 60_000).default(3000),
  AUTH_DATABASE_STATEMENT_TIMEOUT_MS: envInt(100, 3_600_000).default(5000),
  AUTH_DATABASE_QUERY_TIMEOUT_MS: envInt(100, 3_600_000).default(6000),
  AUTH_REDIS_URL: z.url({ protocol: /^rediss?$/ }),
  AUTH_REDIS_PREFIX: z.string().default('auth:'),
  AUTH_REDIS_COMMAND_TIMEOUT_MS: envInt(50, 60_000).default(500),
  AUTH_METRICS_PORT: envInt(0, 65535).default(9465),
  AUTH_HTTP_HEADERS_TIMEOUT_MS: envInt(1000, 300_000).default(10_000),
  AUTH_HTTP_REQUEST_TIMEOUT_MS: envInt(0, 3_600_000).default(30_000),
  AUTH_HTTP_IDLE_TIMEOUT_MS: envInt(1000, 3_600_000).default(30_000),
  AUTH_HTTP_KEEP_ALIVE_TIMEOUT_MS: envInt(1000, 3_600_000).default(65_000),
  AUTH_HTTP_MAX_HEADER_BYTES: envInt(4096, 1024 * 1024).default(16 * 1024),
  AUTH_JWKS: envJson(jwksSchema).optional(),
  AUTH_COOKIE_KEYS: envCsv().optional(),
  AUTH_ACCESS_TOKEN_TTL: envInt(1, 86_400).default(3600),
  AUTH_TRUSTED_PROXIES: trustedProxies.default([]),
  AUTH_TRUST_PROXY: removedTrustProxy,
  AUTH_THROTTLE_WINDOW_SECONDS: envInt(1, 86_400).default(300),
  AUTH_THROTTLE_MAX_PER_CLIENT_IP: envInt(1, 100_000).default(10),
  AUTH_THROTTLE_MAX_PER_IP: envInt(1, 1_000_000).default(100),
  AUTH_PURGE_INTERVAL_SECONDS: envInt(10, 86_400).default(600),
  AUTH_SESSION_TTL_SECONDS: envInt(300, 30 * 86_400).default(12 * 3600),
  AUTH_LOGIN_THROTTLE_WINDOW_SECONDS: envInt(1, 86_400).default(900),
  AUTH_LOGIN_MAX_PER_ACCOUNT_IP: envInt(1, 10_000).default(10),
  AUTH_LOGIN_MAX_PER_IP: envInt(1, 1_000_000).default(100),
  AUTH_LOGIN_MAX_PER_ACCOUNT: envInt(1, 1_000_000).default(50),
  AUTH_LOGIN_SLOW_SECONDS: envInt(1, 3600).default(5),
  AUTH_SELF_SIGNUP: envBoolean().default(false),
  AUTH_SIGNUP_MAX_PER_IP: envInt(1, 1_000_000).default(10),
  AUTH_SIGNUP_WINDOW_SECONDS: envInt(1, 30 * 86_400).default(3600),
  AUTH_REQUIRE_TOTP: envBoolean().default(false),
  AUTH_TOTP_ISSUER: z.string().trim().min(1).max(64).default('secret-push'),
});

type Vars = z.infer<typeof schema>;
export type Jwks = z.infer<typeof jwksSchema>;

function consistency(v: Vars): string[] {
  const problems: string[] = [];
  // Our deadline on an answer comes after the server's own: a server that is up cancels the
  // statement and says why; ours is for one that cannot answer at all.
  if (v.AUTH_DATABASE_QUERY_TIMEOUT_MS <= v.AUTH_DATABASE_STATEMENT_TIMEOUT_MS) {
    problems.push('AUTH_DATABASE_QUERY_TIMEOUT_MS: must be above AUTH_DATABASE_STATEMENT_TIMEOUT_MS');
  }
  if (v.AUTH_HTTP_REQUEST_TIMEOUT_MS > 0 && v.AUTH_HTTP_HEADERS_TIMEOUT_MS > v.AUTH_HTTP_REQUEST_TIMEOUT_MS) {
    problems.push('AUTH_HTTP_HEADERS_TIMEOUT_MS: must not exceed AUTH_HTTP_REQUEST_TIMEOUT_MS');
  }
  if (v.AUTH_METRICS_PORT !== 0 && v.AUTH_METRICS_PORT === v.AUTH_PORT) {
    problems.push('AUTH_METRICS_PORT: must differ from AUTH_PORT (the Ingress routes AUTH_PORT)');
  }
  if (v.AUTH_LOGIN_MAX_PER_ACCOUNT < v.AUTH_LOGIN_MAX_PER_ACCOUNT_IP) {
    problems.push(
      'AUTH_LOGIN_MAX_PER_ACCOUNT: must not be below AUTH_LOGIN_MAX_PER_ACCOUNT_IP (it counts every IP)',
    );
  }
  return [...problems, ...productionProblems(v)];
}

/** Loopback names and addresses: a browser reaches them only from the same machine. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * Whether the sign-in cookies carry `Secure`: in production, whenever the issuer is https (the
 * service is then reached through a TLS-terminating proxy, which must be in AUTH_TRUSTED_PROXIES so
 * that its `X-Forwarded-Proto: https` is believed). Never in development or test, and not for an
 * http issuer, which is only fit for a machine of one's own (docker compose on localhost): a
 * Secure cookie cannot be set over plain HTTP.
 */
function secureCookies(v: Vars, issuer: string): boolean {
  return v.NODE_ENV === 'production' && new URL(issuer).protocol === 'https:';
}

function productionProblems(v: Vars): string[] {
  if (v.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (!v.AUTH_ISSUER) problems.push('AUTH_ISSUER: required in production');
  else if (new URL(v.AUTH_ISSUER).protocol === 'http:' && !isLoopbackHost(new URL(v.AUTH_ISSUER).hostname)) {
    problems.push(
      'AUTH_ISSUER: must be https in production (people sign in there); http only for a loopback host',
    );
  }
  if (!v.AUTH_JWKS) problems.push('AUTH_JWKS: required in production (or AUTH_JWKS_FILE)');
  else if (v.AUTH_JWKS.keys.some((k) => k.kid.startsWith(DEV_KEY_PREFIX) || k.d === undefined)) {
    problems.push('AUTH_JWKS: development keys (kid "dev-…") or public-only keys are refused in production');
  }
  if (!v.AUTH_COOKIE_KEYS?.length) problems.push('AUTH_COOKIE_KEYS: required in production');
  else if (v.AUTH_COOKIE_KEYS.some((k) => k.startsWith(DEV_KEY_PREFIX) || k.length < 32)) {
    problems.push(
      'AUTH_COOKIE_KEYS: development keys or keys shorter than 32 characters are refused in production',
    );
  }
  return problems;
}

const issuerOf = (v: Vars): string =>
  (v.AUTH_ISSUER ?? `http://${v.AUTH_HOST}:${v.AUTH_PORT}`).replace(/\/$/, '');

/**
 * The service's configuration (also the operator CLI's). This module is the only one that reads
 * the environment: `env` is the process's own unless another is given (tests, the CLI's callers).
 */
export function loadAuthConfig(env: Env = process.env) {
  return parseEnv(
    schema,
    env,
    (v) => ({
      env: v.NODE_ENV,
      logLevel: v.LOG_LEVEL,
      logSlowRequestMs: v.LOG_SLOW_REQUEST_MS,
      http: {
        host: v.AUTH_HOST,
        port: v.AUTH_PORT,
        /** Empty: `X-Forwarded-*` headers are ignored and the client is the connection's peer. */
        trustedProxies: v.AUTH_TRUSTED_PROXIES,
      },
      // What a client may cost the main port (runtime's createHttpServer).
      httpLimits: {
        headersTimeoutMs: v.AUTH_HTTP_HEADERS_TIMEOUT_MS,
        requestTimeoutMs: v.AUTH_HTTP_REQUEST_TIMEOUT_MS,
        idleTimeoutMs: v.AUTH_HTTP_IDLE_TIMEOUT_MS,
        keepAliveTimeoutMs: v.AUTH_HTTP_KEEP_ALIVE_TIMEOUT_MS,
        maxHeaderBytes: v.AUTH_HTTP_MAX_HEADER_BYTES,
      },
      // /metrics (and /healthz, /readyz) on a port of its own, which the Ingress does not route.
      metrics: { host: v.AUTH_HOST, port: v.AUTH_METRICS_PORT },
      issuer: issuerOf(v),
      /** The sign-in cookies (oidc-provider's session and interaction cookies) carry `Secure`. */
      secureCookies: secureCookies(v, issuerOf(v)),
      db: {
        url: v.AUTH_DATABASE_URL,
        poolSize: v.AUTH_DATABASE_POOL_SIZE,
        connectTimeoutMs: v.AUTH_DATABASE_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: v.AUTH_DATABASE_STATEMENT_TIMEOUT_MS,
        queryTimeoutMs: v.AUTH_DATABASE_QUERY_TIMEOUT_MS,
      },
      redis: {
        url: v.AUTH_REDIS_URL,
        prefix: v.AUTH_REDIS_PREFIX,
        commandTimeoutMs: v.AUTH_REDIS_COMMAND_TIMEOUT_MS,
      },
      /** Undefined outside production means: generate an ephemeral key at start-up. */
      jwks: v.AUTH_JWKS,
      cookieKeys: v.AUTH_COOKIE_KEYS ?? [],
      accessTokenTtlSeconds: v.AUTH_ACCESS_TOKEN_TTL,
      throttle: {
        windowSeconds: v.AUTH_THROTTLE_WINDOW_SECONDS,
        maxPerClientIp: v.AUTH_THROTTLE_MAX_PER_CLIENT_IP,
        maxPerIp: v.AUTH_THROTTLE_MAX_PER_IP,
      },
      purgeIntervalSeconds: v.AUTH_PURGE_INTERVAL_SECONDS,
      /** A sign-in lasts this long at most: the provider's session, its grants and refresh tokens. */
      sessionTtlSeconds: v.AUTH_SESSION_TTL_SECONDS,
      loginThrottle: {
        windowSeconds: v.AUTH_LOGIN_THROTTLE_WINDOW_SECONDS,
        maxPerAccountIp: v.AUTH_LOGIN_MAX_PER_ACCOUNT_IP,
        maxPerIp: v.AUTH_LOGIN_MAX_PER_IP,
        maxPerAccount: v.AUTH_LOGIN_MAX_PER_ACCOUNT,
        slowSeconds: v.AUTH_LOGIN_SLOW_SECONDS,
      },
      /**
       * Self sign-up: people may create their own account from the login page (its email is not
       * verified). Off by default: the operator creates accounts (`users create`).
       */
      signup: {
        enabled: v.AUTH_SELF_SIGNUP,
        /** Sign-up attempts (those that reach the database) per IP per window. */
        maxPerIp: v.AUTH_SIGNUP_MAX_PER_IP,
        windowSeconds: v.AUTH_SIGNUP_WINDOW_SECONDS,
      },
      totp: {
        /** Every account must have a second factor: one without enrols at its next sign-in. */
        required: v.AUTH_REQUIRE_TOTP,
        /** The issuer of the otpauth:// URI: the name authenticator apps show for this service. */
        issuer: v.AUTH_TOTP_ISSUER,
      },
    }),
    {
      secretFiles: ['AUTH_JWKS', 'AUTH_COOKIE_KEYS', 'AUTH_DATABASE_URL', 'AUTH_REDIS_URL'],
      check: consistency,
    },
  );
}

export type AuthConfig = ReturnType<typeof loadAuthConfig>;

const migrateSchema = z.object({ AUTH_DATABASE_URL: databaseUrl });

/** What `main-migrate.ts` needs: the database URL alone (AUTH_DATABASE_URL or AUTH_DATABASE_URL_FILE). */
export function loadAuthMigrateConfig(env: Env) {
  return parseEnv(migrateSchema, env, (v) => ({ db: { url: v.AUTH_DATABASE_URL } }), {
    secretFiles: ['AUTH_DATABASE_URL'],
  });
}

export type AuthMigrateConfig = ReturnType<typeof loadAuthMigrateConfig>;
