import { z } from 'zod';
import { envInt, envSection, statementDeadlineProblems } from '@secret-push/config';

/** The database URL, for the service and for its migrations alike. */
const databaseUrl = z
  .url({ protocol: /^postgres(ql)?$/ })
  .describe('PostgreSQL URL of the auth database. Required.');

/** The database: `db`. */
export const databaseSection = envSection(
  'Database',
  {
    AUTH_DATABASE_URL: databaseUrl,
    AUTH_DATABASE_POOL_SIZE: envInt(1, 200).default(10).describe('Connections per process'),
    AUTH_DATABASE_CONNECT_TIMEOUT_MS: envInt(100, 60_000)
      .default(3000)
      .describe(
        'Deadline for a database connection: opening one, and waiting for a free one when the pool ' +
          'is busy (then 503)',
      ),
    AUTH_DATABASE_STATEMENT_TIMEOUT_MS: envInt(100, 3_600_000)
      .default(5000)
      .describe(
        "PostgreSQL's `statement_timeout` for the service's sessions: a longer statement is cancelled " +
          'by the server (503)',
      ),
    AUTH_DATABASE_QUERY_TIMEOUT_MS: envInt(100, 3_600_000)
      .default(6000)
      .describe(
        "Our own deadline for a statement's answer, for a server that cannot cancel anything (frozen, " +
          'partitioned): 503, and the connection is destroyed. Must be above ' +
          '`AUTH_DATABASE_STATEMENT_TIMEOUT_MS`.',
      ),
  },
  (v) => ({
    db: {
      url: v.AUTH_DATABASE_URL,
      poolSize: v.AUTH_DATABASE_POOL_SIZE,
      connectTimeoutMs: v.AUTH_DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: v.AUTH_DATABASE_STATEMENT_TIMEOUT_MS,
      queryTimeoutMs: v.AUTH_DATABASE_QUERY_TIMEOUT_MS,
    },
  }),
  {
    secretFiles: ['AUTH_DATABASE_URL'],
    check: (v) =>
      statementDeadlineProblems(
        'AUTH_DATABASE',
        v.AUTH_DATABASE_STATEMENT_TIMEOUT_MS,
        v.AUTH_DATABASE_QUERY_TIMEOUT_MS,
      ),
  },
);

/** What `main-migrate.ts` needs: the database URL alone (AUTH_DATABASE_URL or AUTH_DATABASE_URL_FILE). */
export const migrateDatabaseSection = envSection(
  'Database',
  { AUTH_DATABASE_URL: databaseUrl },
  (v) => ({ db: { url: v.AUTH_DATABASE_URL } }),
  { secretFiles: ['AUTH_DATABASE_URL'] },
);

/** Redis: `redis`. */
export const redisSection = envSection(
  'Redis',
  {
    AUTH_REDIS_URL: z
      .url({ protocol: /^rediss?$/ })
      .describe(
        'Redis URL (failed client-authentication and sign-in throttles). Required; without it tokens ' +
          'are still issued, but the sign-in forms answer 503.',
      ),
    AUTH_REDIS_PREFIX: z.string().default('auth:').describe('Key prefix in Redis'),
    AUTH_REDIS_COMMAND_TIMEOUT_MS: envInt(50, 60_000)
      .default(500)
      .describe(
        "Deadline for each Redis command's reply; past it the failed client-authentication throttle " +
          'fails open and the login form answers 503',
      ),
  },
  (v) => ({
    redis: {
      url: v.AUTH_REDIS_URL,
      prefix: v.AUTH_REDIS_PREFIX,
      commandTimeoutMs: v.AUTH_REDIS_COMMAND_TIMEOUT_MS,
    },
  }),
  { secretFiles: ['AUTH_REDIS_URL'] },
);
