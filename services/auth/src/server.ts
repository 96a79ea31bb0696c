import { sql } from 'kysely';
import type { Provider } from 'oidc-provider';
import { createKysely } from '@secret-push/db-kit';
import { closeRedis, createRedis, waitUntilReady } from '@secret-push/redis-kit';
import { OPERATIONS_PATHS, closeHttpServer, createReadiness, listening } from '@secret-push/runtime';
import { createHttpLogger, type Logger } from '@secret-push/logger';
import type { AuthConfig } from './config';
import {
  authorizationServerMetadata,
  observeRequests,
  responseFixups,
  throttleFailedClientAuth,
} from './http/middleware';
import { operationalEndpoints } from './http/operations';
import { createAuthMetrics } from './observability/metrics';
import { ClientAuthThrottle } from './policy/client-auth-throttle';
import { installClientThrottle } from './provider/client-throttle';
import { createProvider } from './provider/create-provider';
import { attachProviderEvents } from './provider/events';
import type { AuthDatabase } from './storage/database';
import { createKyselyAdapter } from './storage/kysely-adapter';
import { deleteExpiredPayloads } from './storage/oidc-payload.repository';

export interface AuthServer {
  url: string;
  provider: Provider;
  close(): Promise<void>;
}

/**
 * Wires and starts the auth service: database, Redis, provider, middleware, listener, and the
 * periodic purge of expired rows. `main.ts` and the test helper both start it this way.
 */
export async function startAuthServer(config: AuthConfig, logger: Logger): Promise<AuthServer> {
  const db = createKysely<AuthDatabase>(config.db);
  const redis = createRedis(config.redis.url, logger);
  if (!(await waitUntilReady(redis, 3000))) {
    logger.warn('redis not reachable at start-up; continuing degraded');
  }
  const metrics = createAuthMetrics();
  const throttle = new ClientAuthThrottle(redis, { ...config.throttle, prefix: config.redis.prefix }, logger);

  const provider = createProvider(config, createKyselyAdapter(db));
  installClientThrottle(provider, throttle);
  attachProviderEvents(provider, { logger, metrics, throttle });
  provider.use(
    observeRequests(
      createHttpLogger(logger, {
        ignorePaths: [...OPERATIONS_PATHS],
        slowMs: config.logSlowRequestMs,
      }),
      metrics,
    ),
  );
  provider.use(
    operationalEndpoints({
      // Both are required: tokens are stored in the database, the failed-auth throttle in Redis.
      readiness: createReadiness({
        database: { check: () => sql`select 1`.execute(db), required: true },
        redis: { check: () => redis.ping(), required: true },
      }),
      registry: metrics.registry,
    }),
  );
  provider.use(authorizationServerMetadata());
  provider.use(throttleFailedClientAuth(throttle));
  provider.use(responseFixups());

  const purge = setInterval(() => {
    deleteExpiredPayloads(db, 3600).then(
      (n) => n > 0 && logger.info({ rows: n }, 'purged expired tokens'),
      (err: Error) => logger.warn({ err: err.message }, 'purge of expired tokens failed'),
    );
  }, config.purgeIntervalSeconds * 1000);
  purge.unref();

  const server = provider.listen(config.http.port, config.http.host);
  const url = await listening(server, config.http.host);
  logger.info({ url, issuer: config.issuer }, 'auth service listening');

  return {
    url,
    provider,
    async close() {
      clearInterval(purge);
      await closeHttpServer(server);
      await Promise.allSettled([db.destroy(), closeRedis(redis)]);
    },
  };
}
