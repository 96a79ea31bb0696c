import { z } from 'zod';
import { envBoolean, envInt, envSection, statementDeadlineProblems } from '@secret-push/config';

const MIB = 1024 * 1024;

/** The database variables the API, the worker and the operator CLI share. */
const databaseVars = {
  PUSH_DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/ })
    .describe('PostgreSQL URL of the push database. Required.'),
  PUSH_DATABASE_POOL_SIZE: envInt(1, 200).default(10).describe('Connections per process'),
  PUSH_DATABASE_CONNECT_TIMEOUT_MS: envInt(100, 60_000)
    .default(3000)
    .describe(
      'Deadline for a database connection: opening one, and waiting for a free one when the pool is ' +
        'busy (then 503). API and worker.',
    ),
};

/** The API's statement deadlines (the operator CLI's too); the worker has its own. */
const apiStatementVars = {
  PUSH_DATABASE_STATEMENT_TIMEOUT_MS: envInt(100, 3_600_000)
    .default(5000)
    .describe(
      "PostgreSQL's `statement_timeout` for the API's sessions: a longer statement is cancelled by the " +
        'server (503). The worker has its own (below).',
    ),
  PUSH_DATABASE_QUERY_TIMEOUT_MS: envInt(100, 3_600_000)
    .default(6000)
    .describe(
      "Our own deadline for a statement's answer, for a server that cannot cancel anything (frozen, " +
        'partitioned): 503, and the connection is destroyed. Must be above ' +
        '`PUSH_DATABASE_STATEMENT_TIMEOUT_MS`.',
    ),
};

/** The API's database: `db`. */
export const apiDatabaseSection = envSection(
  'Database',
  { ...databaseVars, ...apiStatementVars },
  (v) => ({
    db: {
      url: v.PUSH_DATABASE_URL,
      poolSize: v.PUSH_DATABASE_POOL_SIZE,
      connectTimeoutMs: v.PUSH_DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: v.PUSH_DATABASE_STATEMENT_TIMEOUT_MS,
      queryTimeoutMs: v.PUSH_DATABASE_QUERY_TIMEOUT_MS,
    },
  }),
  {
    secretFiles: ['PUSH_DATABASE_URL'],
    check: (v) =>
      statementDeadlineProblems(
        'PUSH_DATABASE',
        v.PUSH_DATABASE_STATEMENT_TIMEOUT_MS,
        v.PUSH_DATABASE_QUERY_TIMEOUT_MS,
      ),
  },
);

/** The worker's database: its batches get longer statement deadlines than the API's requests. */
export const workerDatabaseSection = envSection(
  'Database',
  {
    ...databaseVars,
    PUSH_WORKER_DATABASE_STATEMENT_TIMEOUT_MS: envInt(100, 3_600_000)
      .default(30_000)
      .describe(
        "The worker's `statement_timeout`: longer than the API's, for the tick's statements over " +
          '`PUSH_SWEEP_BATCH_SIZE` rows (raise both together)',
      ),
    PUSH_WORKER_DATABASE_QUERY_TIMEOUT_MS: envInt(100, 3_600_000)
      .default(35_000)
      .describe("The worker's own deadline for a statement's answer; must be above the previous one"),
  },
  (v) => ({
    db: {
      url: v.PUSH_DATABASE_URL,
      poolSize: v.PUSH_DATABASE_POOL_SIZE,
      connectTimeoutMs: v.PUSH_DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: v.PUSH_WORKER_DATABASE_STATEMENT_TIMEOUT_MS,
      queryTimeoutMs: v.PUSH_WORKER_DATABASE_QUERY_TIMEOUT_MS,
    },
  }),
  {
    secretFiles: ['PUSH_DATABASE_URL'],
    check: (v) => [
      ...statementDeadlineProblems(
        'PUSH_WORKER_DATABASE',
        v.PUSH_WORKER_DATABASE_STATEMENT_TIMEOUT_MS,
        v.PUSH_WORKER_DATABASE_QUERY_TIMEOUT_MS,
      ),
      // An outbox round holds one connection (its transaction) while its consumers write with another.
      ...(v.PUSH_DATABASE_POOL_SIZE < 2
        ? ['PUSH_DATABASE_POOL_SIZE: the worker needs at least 2 connections (an outbox round holds one)']
        : []),
    ],
  },
);

/**
 * What the operator CLI (`secret-push-push`, cli/run-cli.ts) and the migrate job need: the
 * database alone, on one connection; the service's other variables are ignored.
 */
export const cliDatabaseSection = envSection(
  'Database',
  {
    PUSH_DATABASE_URL: databaseVars.PUSH_DATABASE_URL,
    PUSH_DATABASE_CONNECT_TIMEOUT_MS: databaseVars.PUSH_DATABASE_CONNECT_TIMEOUT_MS,
    PUSH_DATABASE_STATEMENT_TIMEOUT_MS: apiStatementVars.PUSH_DATABASE_STATEMENT_TIMEOUT_MS,
  },
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

/** The migrate job's: the URL alone (it gets the whole push ConfigMap; nothing else is required). */
export const migrateDatabaseSection = envSection(
  'Database',
  { PUSH_DATABASE_URL: databaseVars.PUSH_DATABASE_URL },
  (v) => ({ db: { url: v.PUSH_DATABASE_URL } }),
  { secretFiles: ['PUSH_DATABASE_URL'] },
);

/** Redis: `redis`. */
export const redisSection = envSection(
  'Redis',
  {
    PUSH_REDIS_URL: z
      .url({ protocol: /^rediss?$/ })
      .describe('Redis URL (rate limits, passphrase attempt counters). Required.'),
    PUSH_REDIS_PREFIX: z.string().default('push:').describe('Key prefix in Redis'),
    PUSH_REDIS_COMMAND_TIMEOUT_MS: envInt(50, 60_000)
      .default(500)
      .describe(
        "Deadline for each Redis command's reply on the request path: past it rate limits fail open, " +
          "passphrase attempts are refused (503). Not applied to the worker's queue connections, which " +
          'block on purpose.',
      ),
  },
  (v) => ({
    redis: {
      url: v.PUSH_REDIS_URL,
      prefix: v.PUSH_REDIS_PREFIX,
      commandTimeoutMs: v.PUSH_REDIS_COMMAND_TIMEOUT_MS,
    },
  }),
  { secretFiles: ['PUSH_REDIS_URL'] },
);

const s3Vars = {
  PUSH_S3_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('S3 endpoint for MinIO, s3rver or another S3-compatible store; unset for AWS S3')
    .meta({ defaultText: 'AWS default' }),
  PUSH_S3_REGION: z.string().min(1).default('us-east-1').describe('Region'),
  PUSH_S3_BUCKET: z
    .string()
    .min(3)
    .max(63)
    .optional()
    .describe('Bucket for the files of file pushes; unset: no file pushes'),
  PUSH_S3_ACCESS_KEY_ID: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Static credentials (with the next); unset: the AWS SDK default chain (IAM role, web identity, …)',
    ),
  PUSH_S3_SECRET_ACCESS_KEY: z.string().min(1).optional().describe('The secret of `PUSH_S3_ACCESS_KEY_ID`'),
  PUSH_S3_FORCE_PATH_STYLE: envBoolean().default(false).describe('Path-style addressing (MinIO, s3rver)'),
  PUSH_S3_CHECKSUMS: z
    .enum(['when_required', 'when_supported'])
    .default('when_required')
    .describe(
      '`when_required` (right for third-party stores, which may store aws-chunked framing verbatim ' +
        'otherwise) or `when_supported`',
    ),
  PUSH_S3_PART_SIZE_MIB: envInt(5, 512)
    .default(8)
    .describe(
      'Multipart part size: each upload holds (`PUSH_S3_QUEUE_SIZE` + 1) part buffers, 24 MiB at the defaults',
    ),
  PUSH_S3_QUEUE_SIZE: envInt(1, 16).default(2).describe('Multipart parts in flight per upload'),
  PUSH_S3_CONNECT_TIMEOUT_MS: envInt(100, 60_000)
    .default(3000)
    .describe('Deadline for a TCP (and TLS) connection to the object store'),
  PUSH_S3_REQUEST_TIMEOUT_MS: envInt(1000, 600_000)
    .default(30_000)
    .describe(
      "Deadline for one object-store request from sending it to the response's headers (an upload " +
        "part's body included), and the idle limit of its socket: no byte either way for this long " +
        'ends it, also while a download streams. A download that makes progress is never cut, however ' +
        'long it takes. Each request is tried twice.',
    ),
};

/** The object store of file pushes (AWS S3, MinIO, s3rver…): `s3`, null without a bucket. */
export const s3Section = envSection(
  'Object store',
  s3Vars,
  (v) => ({
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
  }),
  { secretFiles: ['PUSH_S3_ACCESS_KEY_ID', 'PUSH_S3_SECRET_ACCESS_KEY'] },
);

export type S3Config = NonNullable<ReturnType<(typeof s3Section)['shape']>['s3']>;
