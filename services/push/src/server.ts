import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import { createHttpLogger, type Logger } from '@secret-push/logger';
import { closeRedis, createRedis, waitUntilReady } from '@secret-push/redis-kit';
import {
  OPERATIONS_PATHS,
  type Readiness,
  closeHttpServer,
  createHttpServer,
  createReadiness,
  exportDependencyStates,
  listening,
  startOperationsServer,
} from '@secret-push/runtime';
import type { PushConfig } from './config';
import { combineEvents, type PushEvents } from './domain/push-events';
import { createFileService } from './domain/file-service';
import { createPushService, newPushId } from './domain/push-service';
import { createWebhookService } from './domain/webhooks';
import { createUserTokenService } from './domain/user-tokens';
import { createS3ObjectStore } from './files/object-store';
import type { PushKind } from './domain/push';
import { createApp } from './app';
import { createRelyingParty } from './session/relying-party';
import { SessionStore } from './session/session-store';
import { createWebSessions } from './session/web-session';
import { webUserKey } from './pages/email-pages';
import { uploadPipeline } from './uploads/pipeline';
import { createIntrospectionVerifier } from './http/introspection-client';
import type { TokenVerifier } from './http/principal';
import { confirmingUsers, createPersonalTokenVerifier, routeTokens } from './http/personal-token-verifier';
import { createIssuerAccounts } from './session/issuer-accounts';
import { createUserStatus } from './session/user-status';
import { createAccountDeletion } from './domain/account-deletion';
import { type PushMetrics, createPushMetrics, metricsEvents } from './http/metrics';
import { buildOpenApi, renderDocsHtml } from './http/openapi';
import {
  createInvalidTokenLimiter,
  createPassphraseLimiter,
  notifyEmailsRateLimit,
  localFirstRateLimit,
  perIpRateLimit,
} from './http/rate-limits';
import { createEmailRepository } from './storage/email.repository';
import { createRevealMemory } from './http/reveal-memory';
import { versionBody } from './http/version.routes';
import { answerRateLimits, requestAppDeps, respondPagesWiring, wireRequestService } from './server-requests';
import { DownloadLinkSigner } from './security/download-link';
import { KeyRing } from '@secret-push/key-ring';
import type { PushDatabase } from './storage/database';
import { createFileRepository } from './storage/file.repository';
import { createPushRepository } from './storage/push.repository';
import { createWebhookDeliveryRepository } from './storage/webhook-delivery.repository';
import { createWebhookEndpointRepository } from './storage/webhook-endpoint.repository';
import { createUserRepository } from './storage/user.repository';
import { requestPagesOf } from './pages/request-pages.adapter';
import { maskUrlToken } from './log-masking';
import { pushI18n } from './languages';

export const APPLICATION_VERSION = '0.1.0';

export { maskUrlToken } from './log-masking';

export interface PushServer {
  url: string;
  /** The metrics port's base URL (`/metrics`, `/healthz`, `/readyz`); not routed by the Ingress. */
  metricsUrl: string;
  server: Server;
  close(): Promise<void>;
}

type Stores = { db: Kysely<PushDatabase>; redis: Redis };
type Services = ReturnType<typeof createServices>;
type WebSignIn = NonNullable<ReturnType<typeof wireWebSignIn>>;

/** The database and Redis. Without Redis at start-up the API runs degraded (limits fail open). */
async function openStores(config: PushConfig, logger: Logger): Promise<Stores> {
  const db = createKysely<PushDatabase>(config.db);
  // Every command gets our deadline: a frozen Redis costs a request at most that (limits fail open,
  // passphrase attempts fail closed).
  const redis = createRedis(config.redis.url, logger, { commandTimeoutMs: config.redis.commandTimeoutMs });
  if (!(await waitUntilReady(redis, 3000))) {
    logger.warn('redis not reachable at start-up; continuing degraded');
  }
  return { db, redis };
}

/** The domain services over the stores: pushes, their files (with an object store), users and tokens. */
function createServices(config: PushConfig, { db, redis }: Stores, events: PushEvents, logger: Logger) {
  const keyRing = new KeyRing(config.encryptionKeys);
  const pushStore = createPushRepository(db);
  const objectStore = config.features.filePushes && config.s3 ? createS3ObjectStore(config.s3) : undefined;
  const files =
    objectStore &&
    createFileService({
      files: createFileRepository(db),
      pushes: pushStore,
      keyRing,
      store: objectStore,
      signer: new DownloadLinkSigner(config.encryptionKeys),
      publicUrl: config.publicUrl,
      graceSeconds: config.files.graceSeconds,
      downloadsPerView: config.files.downloadsPerView,
      maxAuditEntries: config.limits.maxAuditEntries,
    });
  const passphraseLimiter = createPassphraseLimiter(redis, {
    prefix: config.redis.prefix,
    perPush: config.rateLimits.passphrasePerPush,
    perIp: config.rateLimits.passphrasePerIp,
  });
  const pushes = createPushService({
    store: pushStore,
    keyRing,
    files,
    fileGraceSeconds: config.files.graceSeconds,
    passphraseLimiter,
    events,
    maxAuditEntries: config.limits.maxAuditEntries,
    idempotencyTtlSeconds: config.idempotency.ttlSeconds,
    reveals: {
      memory: createRevealMemory(redis, config.redis.prefix, logger),
      windowSeconds: config.reveals.retrySeconds,
      lastView: config.reveals.retryLastView,
    },
    emailStore: createEmailRepository(db),
    email: { ...config.emailLimits, enabled: config.mail !== null, languages: config.i18n.languages },
  });
  const requests = wireRequestService(config, db, keyRing, { passphraseLimiter, events, files, objectStore });
  const users = createUserTokenService({ store: createUserRepository(db) });
  const webhookEndpoints = createWebhookEndpointRepository(db);
  const webhooks = createWebhookService({
    endpoints: webhookEndpoints,
    deliveries: createWebhookDeliveryRepository(db),
    keyRing,
    allowHttp: config.webhooks.allowHttp,
  });
  return { objectStore, files, pushes, requests, keyRing, users, webhooks, webhookEndpoints };
}

/** Deadline of each request to the sign-in provider, in seconds. */
const OIDC_TIMEOUT_SECONDS = 5;

/**
 * The web app's sign-in (OpenID Connect) and sessions (Redis), where an issuer is configured; its
 * users are also confirmed with the issuer at least once a minute when they use a personal token
 * (session/user-status.ts), where the issuer has an accounts endpoint (ours does).
 */
function wireWebSignIn(
  config: PushConfig,
  redis: Redis,
  { pushes, users, webhookEndpoints }: Services,
  logger: Logger,
) {
  if (!config.signIn) return undefined;
  const sessionStore = new SessionStore(redis, config.redis.prefix, config.sessions);
  const relyingParty = createRelyingParty({
    ...config.signIn,
    redirectUri: `${config.publicUrl}/sign-in/callback`,
    postLogoutRedirectUri: `${config.publicUrl}/signed-out`,
    timeoutSeconds: OIDC_TIMEOUT_SECONDS,
  });
  const issuerAccounts = createIssuerAccounts(relyingParty, {
    ...config.signIn,
    timeoutSeconds: OIDC_TIMEOUT_SECONDS,
  });
  const userStatus = createUserStatus({
    accounts: issuerAccounts,
    issuer: config.signIn.issuer,
    intervalSeconds: config.sessions.recheckSeconds,
    refusals: sessionStore,
  });
  const sessions = createWebSessions({
    store: sessionStore,
    relyingParty,
    users,
    settings: config.sessions,
    logger,
    // A re-check may wait for the issuer's discovery and its refresh, each under the deadline.
    refreshLockMs: (2 * OIDC_TIMEOUT_SECONDS + 5) * 1000,
  });
  return {
    sessions,
    users,
    userStatus,
    signIn: { relyingParty, store: sessionStore, sessions, users, publicUrl: config.publicUrl, logger },
    account: {
      store: sessionStore,
      relyingParty,
      deleteAccount: createAccountDeletion({ pushes, users, webhooks: webhookEndpoints }),
      issuerAccounts,
      forgetUserStatus: (userId: string) => userStatus.forget(userId),
    },
  };
}

/**
 * Bearer tokens: access tokens are introspected at the auth service; personal tokens (`spu_…`) are
 * checked in our own database and never leave this service (their users confirmed with the issuer
 * where there is web sign-in).
 */
function wireTokenVerifier(
  config: PushConfig,
  users: Services['users'],
  web: WebSignIn | undefined,
  metrics: PushMetrics,
  logger: Logger,
) {
  const personalTokens = createPersonalTokenVerifier({
    tokens: users,
    cacheSeconds: config.personalTokens.cacheSeconds,
    onLookup: (outcome) => metrics.personalTokens.inc({ outcome }),
    onUseNotRecorded: (err) =>
      logger.warn({ err: (err as Error).message }, 'personal token last use not recorded'),
  });
  return routeTokens({
    accessTokens: createIntrospectionVerifier({
      ...config.auth,
      audience: 'push-api',
      onLookup: (outcome) => metrics.introspection.inc({ outcome }),
    }),
    personalTokens: web ? confirmingUsers(personalTokens, (u) => web.userStatus.isActive(u)) : personalTokens,
  });
}

/**
 * Ready means "can serve its core": creating and retrieving pushes needs the database only.
 * Without Redis, limits fail open and only passphrase attempts (which must be counted) are
 * refused; without the object store, only file pushes and downloads are. Both stay in the /readyz
 * body and in push_dependency_up, for alerts, without taking every replica out of the Service at
 * once (which would turn a partial outage into a total one).
 */
function wireReadiness({ db, redis }: Stores, objectStore: Services['objectStore'], metrics: PushMetrics) {
  return exportDependencyStates(
    createReadiness({
      database: { check: () => sql`select 1`.execute(db), required: true },
      redis: { check: () => redis.ping(), required: false },
      ...(objectStore ? { object_store: { check: () => objectStore.check(), required: false } } : {}),
    }),
    metrics.registry,
    'push',
  );
}

/** The request-path limits: create and retrieve counted locally first, the others in Redis (they fail open without it). */
function wireRateLimits(config: PushConfig, redis: Redis, logger: Logger) {
  const { prefix } = config.redis;
  const limits = config.rateLimits;
  const general = (name: string, perMinute: number) => ({ prefix, name, perMinute });
  return {
    invalidTokens: createInvalidTokenLimiter(
      redis,
      { prefix, perMinute: limits.invalidTokensPerMinute },
      logger,
    ),
    // The general limits of the hot paths: counted locally, shared through Redis in batches.
    create: localFirstRateLimit(redis, general('create', limits.createPerMinute), logger),
    retrieve: localFirstRateLimit(redis, general('retrieve', limits.retrievePerMinute), logger),
    lookup: perIpRateLimit(redis, general('lookup', limits.lookupPerMinute), logger),
    ...answerRateLimits(config, redis, logger),
  };
}

/** The Express app over the services: its settings from the config, its edges from the wiring above. */
function wireApp(
  config: PushConfig,
  parts: { services: Services; web?: WebSignIn; verifier: TokenVerifier; redis: Redis },
  observe: { metrics: PushMetrics; readiness: Readiness; logger: Logger },
) {
  const { services, web, verifier, redis } = parts;
  const { metrics, readiness, logger } = observe;
  const f = config.features;
  const enabledKinds = new Set<PushKind>(['text']);
  if (f.urlPushes) enabledKinds.add('url');
  if (f.qrPushes) enabledKinds.add('qr');
  if (f.filePushes) enabledKinds.add('file');
  const { invalidTokens, answer, answerPerRequest, ...rateLimits } = wireRateLimits(config, redis, logger);
  const openapi = buildOpenApi(config);
  const { files, objectStore } = services;
  return createApp({
    pushes: services.pushes,
    webhooks: services.webhooks,
    ...(f.requestsEnabled
      ? requestAppDeps(config, services.requests, { redis, logger, rateLimits, answer, answerPerRequest })
      : {}),
    verifier,
    invalidTokens,
    logger,
    httpLogger: createHttpLogger(logger, {
      ignorePaths: [...OPERATIONS_PATHS],
      maskPath: maskUrlToken,
      slowMs: config.logSlowRequestMs,
    }),
    metrics,
    publicUrl: config.publicUrl,
    branding: config.branding,
    i18n: pushI18n(config.i18n),
    trustedProxies: config.http.trustedProxies,
    corsOrigins: config.http.corsOrigins,
    version: versionBody(APPLICATION_VERSION, f, { emailAutoDispatch: config.mail !== null }),
    rules: { ...config.limits, enabledKinds },
    webForm: config.webForm,
    features: {
      anonymousAccess: f.anonymousAccess,
      pushesEnabled: f.pushesEnabled,
      fileRequiresAuth: f.filePushesRequireAuth,
    },
    rateLimits,
    ...(config.mail
      ? {
          notifyEmails: {
            rateLimit: notifyEmailsRateLimit(
              redis,
              { prefix: config.redis.prefix, perMinute: config.rateLimits.notifyEmailsPerMinute },
              logger,
            ),
            // The web app's "Send the link by email": the same budget, counted for the person.
            pageRateLimit: notifyEmailsRateLimit(
              redis,
              {
                prefix: config.redis.prefix,
                perMinute: config.rateLimits.notifyEmailsPerMinute,
                keyOf: webUserKey,
              },
              logger,
            ),
          },
        }
      : {}),
    files:
      files && objectStore
        ? { service: files, uploads: uploadPipeline(files, objectStore, config.files, newPushId) }
        : undefined,
    requestPages: requestPagesOf(config, services.requests, services.keyRing, redis),
    respondPages: respondPagesWiring(config, services.requests, { redis, logger, answer, answerPerRequest }),
    readiness,
    openapi,
    docsHtml: renderDocsHtml(openapi),
    web,
  });
}

/** The main port (the app) and the operations port (/metrics, /healthz, /readyz). */
async function listen(config: PushConfig, app: Express, readiness: Readiness, metrics: PushMetrics) {
  const server = createHttpServer(app, config.httpLimits);
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
 * Wires the push API: stores, domain services, web sign-in, token verification, readiness, the
 * Express app, its listeners. `main-api.ts` and the test helper both start it this way. Nothing is
 * queued for expiry: the worker finds what is due in the database. `extraEvents` observes
 * committed changes (tests).
 */
export async function startPushServer(
  config: PushConfig,
  logger: Logger,
  options: { extraEvents?: PushEvents } = {},
): Promise<PushServer> {
  const stores = await openStores(config, logger);
  const metrics = createPushMetrics();
  const events = combineEvents(metricsEvents(metrics), ...(options.extraEvents ? [options.extraEvents] : []));
  const services = createServices(config, stores, events, logger);
  const web = wireWebSignIn(config, stores.redis, services, logger);
  const verifier = wireTokenVerifier(config, services.users, web, metrics, logger);
  const readiness = wireReadiness(stores, services.objectStore, metrics);
  const app = wireApp(
    config,
    { services, web, verifier, redis: stores.redis },
    { metrics, readiness, logger },
  );
  const { url, server, operations } = await listen(config, app, readiness, metrics);
  logger.info({ url, metrics_url: operations.url, public_url: config.publicUrl }, 'push API listening');

  return {
    url,
    metricsUrl: operations.url,
    server,
    async close() {
      await Promise.all([closeHttpServer(server), operations.close()]);
      await Promise.allSettled([stores.db.destroy(), closeRedis(stores.redis)]);
      services.objectStore?.close();
    },
  };
}
