import { z } from 'zod';
import { envSection } from './env-config';
import { envInt } from './env-types';

/** Variables every process reads: `NODE_ENV` and `LOG_LEVEL`. Spread into a service's schema. */
export const commonEnv = {
  NODE_ENV: z
    .enum(['development', 'test', 'production'])
    .default('development')
    .describe(
      '`development`, `test` or `production`. Production refuses development keys and missing secrets.',
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino level: `fatal` … `trace`, `silent`'),
};

/** `env` and `logLevel` of every process's config object. */
export const commonSection = envSection('Process', commonEnv, (v) => ({
  env: v.NODE_ENV,
  logLevel: v.LOG_LEVEL,
}));

/** `logSlowRequestMs` of an HTTP service's config object. */
export const requestLogSection = envSection(
  'Request log',
  {
    LOG_SLOW_REQUEST_MS: envInt(0, 3_600_000)
      .default(1000)
      .describe(
        'Requests are logged at `info` only when they take at least this many milliseconds; 5xx ' +
          'answers and aborted requests at `error`; every other request at `debug` ' +
          '(`LOG_LEVEL=debug` logs them all). Each line carries the request id.',
      ),
  },
  (v) => ({ logSlowRequestMs: v.LOG_SLOW_REQUEST_MS }),
);

/**
 * Our deadline on a statement's answer must come after the server's own: a server that is up
 * cancels the statement and says why; ours is for one that cannot answer at all.
 */
export function statementDeadlineProblems(prefix: string, statementMs: number, queryMs: number): string[] {
  return queryMs > statementMs
    ? []
    : [`${prefix}_QUERY_TIMEOUT_MS: must be above ${prefix}_STATEMENT_TIMEOUT_MS`];
}
