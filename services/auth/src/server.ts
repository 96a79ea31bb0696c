import type { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import type { Provider } from 'oidc-provider';
import { createKysely } from '@secret-push/db-kit';
import { useBranding } from '@secret-push/html';
import type { I18n } from '@secret-push/i18n';
import { authI18n, languages } from './languages';
import { closeRedis, createRedis, waitUntilReady } from '@secret-push/redis-kit';
import {
  OPERATIONS_PATHS,
  closeHttpServer,
  createHttpServer,
  createReadiness,
  exportDependencyStates,
  listening,
  type Readiness,
  startOperationsServer,
} from '@secret-push/runtime';
import { KeyRing } from '@secret-push/key-ring';
import { createHttpLogger, type Logger } from '@secret-push/logger';
import { addressDomain, createSmtpMailer } from '@secret-push/mail';
import type { AuthConfig } from './config';
import { accountsApi } from './http/accounts-api';
import {
  authorizationServerMetadata,
  exceptMachineEndpoints,
  observeRequests,
  responseFixups,
  throttleFailedClientAuth,
} from './http/middleware';
import { operationalEndpoints } from './http/operations';
import { type AuthMetrics, createAuthMetrics } from './observability/metrics';
import { accountConsoleRoutes } from './interactions/account/account-router';
import { passwordResetRoutes } from './interactions/password-reset-router';
import type { InteractionDeps } from './interactions/sign-in-deps';
import { interactionRoutes } from './interactions/sign-in-router';
import { pagesNotFound } from './interactions/page-not-found';
import { authEmailComposer } from './mail/compose';
import { type MailSender, startMailSender } from './mail/mail-sender';
import { ClientAuthThrottle } from './policy/client-auth-throttle';
import { LoginThrottle } from './policy/login-throttle';
import { ResetThrottle } from './policy/reset-throttle';
import { SignupThrottle } from './policy/signup-throttle';
import { ClientCache, installClientCache } from './provider/client-cache';
import { installClientThrottle } from './provider/client-throttle';
import { cookieKeys, createProvider } from './provider/create-provider';
import { attachProviderEvents } from './provider/events';
import type { AuthDatabase } from './storage/database';
import { createKyselyAdapter } from './storage/kysely-adapter';
import { deleteExpiredPayloads } from './storage/oidc-payload.repository';
import { type MailOutbox, mailOutbox } from './users/mail-outbox';
import { findSignInAccount } from './users/sign-in';
import { totpSecrets } from './users/totp-secrets';

export interface AuthServer {
  url: string;
  /** The metrics port's base URL (`/metrics`, `/healthz`, `/readyz`); not routed by the Ingress. */
  metricsUrl: string;
  provider: Provider;
  close(): Promise<void>;
}

/**
 * An interaction's uid is also the value of its cookies (oidc-provider's design): the paths that
 * carry it (`/interaction/:uid…`, the resume `/connect/authorize/:uid`) are logged without it; so
 * is a password reset link's token (`/reset/:token`).
 */
function maskInteractionUid(path: string): string {
  return path
    .replace(/^\/interaction\/[^/]+/, '/interaction/:uid')
    .replace(/^\/connect\/authorize\/[^/]+/, '/connect/authorize/:uid')
    .replace(/^\/reset\/[^/]*/, '/reset/:token');
}

/**
 * The sign-in cookies are Secure in production with an https issuer (config.ts); the service
 * itself speaks plain HTTP, so it must learn from a trusted proxy that the request came over
 * HTTPS, or no sign-in cookie can be set (oidc-provider then fails every authorization request).
 */
function warnAboutCookies(config: AuthConfig, logger: Logger): void {
  if (config.secureCookies && config.http.trustedProxies.length === 0) {
    logger.warn(
      'sign-in cookies are Secure but AUTH_TRUSTED_PROXIES is empty: list the TLS-terminating proxy, ' +
        'or browsers cannot sign in (the service cannot tell that requests came over HTTPS)',
    );
  }
  if (config.env === 'production' && !config.secureCookies) {
    logger.warn('sign-in cookies are not Secure: AUTH_ISSUER is http (fit for a loopback host only)');
  }
}

interface Stores {
  db: Kysely<AuthDatabase>;
  redis: Redis;
}

interface Throttles {
  client: ClientAuthThrottle;
  login: LoginThrottle;
  /** Self sign-up (AUTH_SELF_SIGNUP): off, no throttle and no sign-up page. */
  signup: SignupThrottle | undefined;
  /** "Forgot password?" (email on, AUTH_SMTP_URL): off, no throttle and no reset pages. */
  reset: ResetThrottle | undefined;
}

/** The database and Redis; a Redis that is down at start-up leaves the service degraded, not down. */
async function connectStores(config: AuthConfig, logger: Logger): Promise<Stores> {
  const db = createKysely<AuthDatabase>(config.db);
  // Every command gets our deadline: a frozen Redis costs a token request at most that (the
  // failed-authentication throttle fails open).
  const redis = createRedis(config.redis.url, logger, { commandTimeoutMs: config.redis.commandTimeoutMs });
  if (!(await waitUntilReady(redis, 3000))) {
    logger.warn('redis not reachable at start-up; continuing degraded');
  }
  return { db, redis };
}

function createThrottles(redis: Redis, config: AuthConfig, logger: Logger): Throttles {
  const prefix = config.redis.prefix;
  return {
    client: new ClientAuthThrottle(redis, { ...config.throttle, prefix }, logger),
    login: new LoginThrottle(redis, { ...config.loginThrottle, prefix }, logger),
    signup: config.signup.enabled
      ? new SignupThrottle(redis, { ...config.signup, prefix }, logger)
      : undefined,
    reset: config.mail ? new ResetThrottle(redis, { ...config.passwordReset, prefix }, logger) : undefined,
  };
}

/**
 * Ready means "can serve its core": clients, tokens and introspection live in the database.
 * Without Redis the failed-authentication throttle fails open and every token request still
 * works: Redis is reported (/readyz, auth_dependency_up), not required. (Sign-in needs it: the
 * login form answers 503 without it, never unthrottled.)
 */
function readinessOf({ db, redis }: Stores, metrics: AuthMetrics): Readiness {
  return exportDependencyStates(
    createReadiness({
      database: { check: () => sql`select 1`.execute(db), required: true },
      redis: { check: () => redis.ping(), required: false },
    }),
    metrics.registry,
    'auth',
  );
}

interface Wiring {
  config: AuthConfig;
  logger: Logger;
  metrics: AuthMetrics;
  db: Kysely<AuthDatabase>;
  adapter: ReturnType<typeof createKyselyAdapter>;
  /** The clients this process read lately (provider/client-cache.ts); the adapter invalidates it. */
  clientCache: ClientCache;
  throttles: Throttles;
  cookieKeys: string[];
  /** Email on (AUTH_SMTP_URL): what queues it; undefined: off. */
  outbox: MailOutbox | undefined;
  /** The languages of the pages and the emails (read once). */
  i18n: I18n;
}

/** The provider with our throttle, event log and metrics, and the cookie warnings. */
function createAuthProvider(w: Wiring): Provider {
  const { config, logger, metrics, db } = w;
  const provider = createProvider(config, w.adapter, {
    findAccount: (id) => findSignInAccount(db, id),
    cookieKeys: w.cookieKeys,
  });
  warnAboutCookies(config, logger);
  installClientCache(provider, w.clientCache);
  installClientThrottle(provider, w.throttles.client);
  attachProviderEvents(provider, { logger, metrics, throttle: w.throttles.client });
  provider.use(
    observeRequests(
      createHttpLogger(logger, {
        ignorePaths: [...OPERATIONS_PATHS],
        slowMs: config.logSlowRequestMs,
        maskPath: maskInteractionUid,
      }),
      metrics,
    ),
  );
  return provider;
}

/** Our endpoints and pages in front of the provider's, then the failed-auth throttle and fix-ups. */
function mountRoutes(provider: Provider, w: Wiring, readiness: Readiness): void {
  const { config, logger, db, throttles } = w;
  const shared = {
    provider,
    db,
    throttle: throttles.login,
    cookieKeys: w.cookieKeys,
    issuer: config.issuer,
    totpSecrets: totpSecrets(new KeyRing(config.dataKeys)),
    outbox: w.outbox,
    app: config.app,
  };
  const reset = throttles.reset;
  const signIn: InteractionDeps = {
    ...shared,
    signupThrottle: throttles.signup,
    passwordReset: reset &&
      w.outbox && { throttle: reset, outbox: w.outbox, ttlSeconds: config.passwordReset.ttlSeconds },
    logger,
    metrics: w.metrics,
    totp: config.totp,
  };
  // Pages in the person's language first, down to the 404 page drawn after the rest; none of
  // these middleware touches the machine endpoints (token, introspection, revocation).
  provider.use(
    exceptMachineEndpoints([
      languages(w.i18n, { secureCookies: config.secureCookies }),
      pagesNotFound(), // a page path's 404 is a page, whoever answered it
      operationalEndpoints({ readiness }),
      authorizationServerMetadata(),
      accountsApi({
        provider,
        db,
        throttle: throttles.client,
        logger,
        reauthMaxAgeSeconds: config.reauthMaxAgeSeconds,
      }),
      interactionRoutes(signIn),
      passwordResetRoutes(signIn),
      accountConsoleRoutes({
        ...shared,
        adapter: w.adapter,
        secureCookies: config.secureCookies,
        logger,
        totp: config.totp,
        reauthMaxAgeSeconds: config.reauthMaxAgeSeconds,
      }),
    ]),
  );
  provider.use(throttleFailedClientAuth(throttles.client));
  provider.use(responseFixups());
}

/**
 * The periodic purge of expired rows: batches of PURGE_BATCH_SIZE rows until the backlog is gone;
 * one run at a time (a run that outlasts the interval is not joined by another), stopped between
 * batches by the returned function.
 */
function schedulePurge(db: Kysely<AuthDatabase>, config: AuthConfig, logger: Logger): () => void {
  const stopPurge = new AbortController();
  let purging = false;
  const purge = setInterval(() => {
    if (purging) return;
    purging = true;
    deleteExpiredPayloads(db, 3600, { signal: stopPurge.signal })
      .then(
        (n) => n > 0 && logger.info({ rows: n }, 'purged expired tokens'),
        (err: Error) => logger.warn({ err: err.message }, 'purge of expired tokens failed'),
      )
      .finally(() => {
        purging = false;
      });
  }, config.purgeIntervalSeconds * 1000);
  purge.unref();
  return () => {
    clearInterval(purge);
    stopPurge.abort();
  };
}

/**
 * Email (AUTH_SMTP_URL): this process's sender of the auth_email queue (mail/mail-sender.ts);
 * whether email is on is logged once, either way (never the SMTP URL: it may hold a password).
 */
function startEmail(w: Wiring): MailSender | undefined {
  const { config, logger, db, outbox } = w;
  if (!config.mail || !outbox) {
    logger.info('email is off (AUTH_SMTP_URL unset): no password reset by email, no security notices');
    return undefined;
  }
  const smtp = new URL(config.mail.url);
  logger.info(
    { smtp_host: smtp.hostname, smtp_port: smtp.port || undefined, from: config.mail.from },
    'email is on: password reset and security notices',
  );
  return startMailSender({
    db,
    mailer: createSmtpMailer(config.mail),
    compose: authEmailComposer({
      db,
      outbox,
      issuer: config.issuer,
      service: config.totp.issuer,
      i18n: w.i18n,
    }),
    logger,
    metrics: w.metrics,
    pollMs: config.mailDelivery.pollMs,
    smtpTimeoutMs: config.mail.timeoutMs,
    messageIdDomain: addressDomain(config.mail.from),
  });
}

/** The service's listener and the operations (metrics, health) listener. */
async function listen(provider: Provider, config: AuthConfig, readiness: Readiness, metrics: AuthMetrics) {
  const handle = provider.callback();
  const server = createHttpServer((req, res) => void handle(req, res), config.httpLimits);
  server.listen(config.http.port, config.http.host);
  const url = await listening(server, config.http.host);
  const operations = await startOperationsServer({
    ...config.metrics,
    readiness,
    registry: metrics.registry,
  }).catch(async (err: unknown) => {
    await closeHttpServer(server);
    throw err;
  });
  return { url, server, operations };
}

/**
 * Wires and starts the auth service: database, Redis, provider, middleware, listener, and the
 * periodic purge of expired rows. `main.ts` and the test helper both start it this way.
 */
export async function startAuthServer(config: AuthConfig, logger: Logger): Promise<AuthServer> {
  useBranding(config.branding);
  const { db, redis } = await connectStores(config, logger);
  const metrics = createAuthMetrics();
  const clientCache = new ClientCache();
  const wiring: Wiring = {
    config,
    logger,
    metrics,
    db,
    throttles: createThrottles(redis, config, logger),
    cookieKeys: cookieKeys(config),
    adapter: createKyselyAdapter(db, { clientChanged: (id) => clientCache.invalidate(id) }),
    clientCache,
    outbox: config.mail ? mailOutbox(new KeyRing(config.dataKeys), config.i18n.defaultLanguage) : undefined,
    i18n: authI18n(config.i18n),
  };
  const provider = createAuthProvider(wiring);
  const readiness = readinessOf({ db, redis }, metrics);
  mountRoutes(provider, wiring, readiness);
  const stopPurge = schedulePurge(db, config, logger);

  const { url, server, operations } = await listen(provider, config, readiness, metrics);
  logger.info({ url, metrics_url: operations.url, issuer: config.issuer }, 'auth service listening');
  const sender = startEmail(wiring);

  return {
    url,
    metricsUrl: operations.url,
    provider,
    async close() {
      stopPurge();
      await Promise.all([closeHttpServer(server), operations.close()]);
      // The round in flight ends (its sends recorded) before the database goes.
      await sender?.stop();
      await Promise.allSettled([db.destroy(), closeRedis(redis)]);
    },
  };
}
