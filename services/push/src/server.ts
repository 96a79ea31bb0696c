import type { Server } from 'node:http';
import { sql } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import { createHttpLogger, type Logger } from '@secret-push/logger';
import { closeRedis, createRedis, waitUntilReady } from '@secret-push/redis-kit';
import {
  OPERATIONS_PATHS,
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
import { createUserTokenService } from './domain/user-tokens';
import { createS3ObjectStore } from './files/object-store';
import type { PushKind } from './domain/push';
import { createApp } from './app';
import { createRelyingParty } from './session/relying-party';
import { SessionStore } from './session/session-store';
import { createWebSessions } from './session/web-session';
import { uploadPipeline } from './uploads/pipeline';
import { createIntrospectionVerifier } from './http/introspection-client';
import { confirmingUsers, createPersonalTokenVerifier, routeTokens } from './http/personal-token-verifier';
import { createIssuerAccounts } from './session/issuer-accounts';
import { createUserStatus } from './session/user-status';
import { createAccountDeletion } from './domain/account-deletion';
import { createPushMetrics, metricsEvents } from './http/metrics';
import { buildOpenApi, renderDocsHtml } from './http/openapi';
import { createInvalidTokenLimiter, createPassphraseLimiter, perIpRateLimit } from './http/rate-limits';
import { versionBody } from './http/version.routes';
import { DownloadLinkSigner } from './security/download-link';
import { KeyRing } from './security/key-ring';
import type { PushDatabase } from './storage/database';
import { createFileRepository } from './storage/file.repository';
import { createPushRepository } from './storage/push.repository';
import { createUserRepository } from './storage/user.repository';

export const APPLICATION_VERSION = '0.1.0';

/** A url_token reads the secret: it never reaches the logs (`/api/v2/pushes/…/audit`). */
export const maskUrlToken = (path: string) =>
  path.replace(/(\/pushes\/|\/[pfr]\/)(?!active(?:\.json)?(?:$|\/)|expired(?:\.json)?(?:$|\/))[^/]+/i, '$1…');

export interface PushServer {
  url: string;
  /** The metrics port's base URL (`/metrics`, `/healthz`, `/readyz`); not routed by the Ingress. */
  metricsUrl: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Wires the push API: database, Redis, key ring, token verification (introspection and personal
 * tokens), domain services, Express app, listener. `main-api.ts` and the test helper both start it
 * this way. Nothing is queued for expiry: the worker finds what is due in the database.
 * `extraEvents` observes committed changes (tests).
 */
export async function startPushServer(
  config: PushConfig,
  logger: Logger,
  options: { extraEvents?: PushEvents } = {},
): Promise<PushServer> {
  const db = createKysely<PushDatabase>(config.db);
  // Every command gets our deadline: a frozen Redis costs a request at most that (limits fail open,
  // passphrase attempts fail closed).
  const redis = createRedis(config.redis.url, logger, { commandTimeoutMs: config.redis.commandTimeoutMs });
  if (!(await waitUntilReady(redis, 3000))) {
    logger.warn('redis not reachable at start-up; continuing degraded');
  }
  const metrics = createPushMetrics();
  const events = combineEvents(metricsEvents(metrics), ...(options.extraEvents ? [options.extraEvents] : []));
  const keyRing = new KeyRing(config.encryptionKeys);
  const pushStore = createPushRepository(db);
  const f = config.features;
  const store = f.filePushes && config.s3 ? createS3ObjectStore(config.s3) : undefined;
  const files =
    store &&
    createFileService({
      files: createFileRepository(db),
      pushes: pushStore,
      keyRing,
      store,
      signer: new DownloadLinkSigner(config.encryptionKeys),
      publicUrl: config.publicUrl,
      graceSeconds: config.files.graceSeconds,
      downloadsPerView: config.files.downloadsPerView,
      maxAuditEntries: config.limits.maxAuditEntries,
    });
  const pushes = createPushService({
    store: pushStore,
    keyRing,
    files,
    fileGraceSeconds: config.files.graceSeconds,
    passphraseLimiter: createPassphraseLimiter(redis, {
      prefix: config.redis.prefix,
      perPush: config.rateLimits.passphrasePerPush,
      perIp: config.rateLimits.passphrasePerIp,
    }),
    events,
    maxAuditEntries: config.limits.maxAuditEntries,
    idempotencyTtlSeconds: config.idempotency.ttlSeconds,
  });
  const users = createUserTokenService({ store: createUserRepository(db) });
  // The web app's sign-in (OpenID Connect) and sessions (Redis), where an issuer is configured;
  // its users are also confirmed with the issuer at least once a minute when they use a personal
  // token (session/user-status.ts), where the issuer has an accounts endpoint (ours does).
  const web = config.signIn
    ? (() => {
        const sessionStore = new SessionStore(redis, config.redis.prefix, config.sessions);
        const relyingParty = createRelyingParty({
          ...config.signIn,
          redirectUri: `${config.publicUrl}/sign-in/callback`,
          postLogoutRedirectUri: `${config.publicUrl}/`,
          timeoutSeconds: 5,
        });
        const issuerAccounts = createIssuerAccounts(relyingParty, { ...config.signIn, timeoutSeconds: 5 });
        const userStatus = createUserStatus({
          accounts: issuerAccounts,
          issuer: config.signIn.issuer,
          intervalSeconds: config.sessions.recheckSeconds,
        });
        const sessions = createWebSessions({
          store: sessionStore,
          relyingParty,
          users,
          settings: config.sessions,
          logger,
        });
        return {
          sessions,
          users,
          userStatus,
          signIn: { relyingParty, store: sessionStore, sessions, users, publicUrl: config.publicUrl, logger },
          account: {
            store: sessionStore,
            deleteAccount: createAccountDeletion({ pushes, users }),
            issuerAccounts,
            forgetUserStatus: (userId: string) => userStatus.forget(userId),
          },
        };
      })()
    : undefined;
  const personalTokens = createPersonalTokenVerifier({
    tokens: users,
    cacheSeconds: config.personalTokens.cacheSeconds,
    onLookup: (outcome) => metrics.personalTokens.inc({ outcome }),
    onUseNotRecorded: (err) =>
      logger.warn({ err: (err as Error).message }, 'personal token last use not recorded'),
  });
  // Access tokens are introspected at the auth service; personal tokens (`spu_…`) are checked in
  // our own database and never leave this service.
  const verifier = routeTokens({
    accessTokens: createIntrospectionVerifier({
      ...config.auth,
      audience: 'push-api',
      onLookup: (outcome) => metrics.introspection.inc({ outcome }),
    }),
    personalTokens: web ? confirmingUsers(personalTokens, (u) => web.userStatus.isActive(u)) : personalTokens,
  });
  const enabledKinds = new Set<PushKind>(['text']);
  if (f.urlPushes) enabledKinds.add('url');
  if (f.qrPushes) enabledKinds.add('qr');
  if (f.filePushes) enabledKinds.add('file');
  const openapi = buildOpenApi(config);

  // Ready means "can serve its core": creating and retrieving pushes needs the database only.
  // Without Redis, limits fail open and only passphrase attempts (which must be counted) are
  // refused; without the object store, only file pushes and downloads are. Both stay in the
  // /readyz body and in push_dependency_up, for alerts, without taking every replica out of the
  // Service at once (which would turn a partial outage into a total one).
  const readiness = exportDependencyStates(
    createReadiness({
      database: { check: () => sql`select 1`.execute(db), required: true },
      redis: { check: () => redis.ping(), required: false },
      ...(store ? { object_store: { check: () => store.check(), required: false } } : {}),
    }),
    metrics.registry,
    'push',
  );

  const app = createApp({
    pushes,
    verifier,
    invalidTokens: createInvalidTokenLimiter(
      redis,
      { prefix: config.redis.prefix, perMinute: config.rateLimits.invalidTokensPerMinute },
      logger,
    ),
    logger,
    httpLogger: createHttpLogger(logger, {
      ignorePaths: [...OPERATIONS_PATHS],
      maskPath: maskUrlToken,
      slowMs: config.logSlowRequestMs,
    }),
    metrics,
    publicUrl: config.publicUrl,
    trustedProxies: config.http.trustedProxies,
    corsOrigins: config.http.corsOrigins,
    version: versionBody(APPLICATION_VERSION, f),
    rules: { ...config.limits, enabledKinds },
    features: {
      anonymousAccess: f.anonymousAccess,
      pushesEnabled: f.pushesEnabled,
      fileRequiresAuth: f.filePushesRequireAuth,
    },
    rateLimits: {
      create: perIpRateLimit(
        redis,
        { prefix: config.redis.prefix, name: 'create', perMinute: config.rateLimits.createPerMinute },
        logger,
      ),
      retrieve: perIpRateLimit(
        redis,
        { prefix: config.redis.prefix, name: 'retrieve', perMinute: config.rateLimits.retrievePerMinute },
        logger,
      ),
    },
    files:
      files && store
        ? {
            service: files,
            uploads: uploadPipeline(files, store, config.files, newPushId),
          }
        : undefined,
    readiness,
    openapi,
    docsHtml: renderDocsHtml(openapi),
    web,
  });

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
  logger.info({ url, metrics_url: operations.url, public_url: config.publicUrl }, 'push API listening');

  return {
    url,
    metricsUrl: operations.url,
    server,
    async close() {
      await Promise.all([closeHttpServer(server), operations.close()]);
      await Promise.allSettled([db.destroy(), closeRedis(redis)]);
      store?.close();
    },
  };
}
