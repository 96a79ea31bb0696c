/*
 * The short deadlines the suite configures, and the latency bound each fault is held to: the
 * longest deadline that applies to the faulted dependency, plus one second.
 */

/** Redis commands (rate limits, passphrase attempts, the auth throttle, queue adds). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** S3: connecting, and one request. */
export const S3_CONNECT_TIMEOUT_MS = 500;
export const S3_REQUEST_TIMEOUT_MS = 2000;
/**
 * PostgreSQL: the server's statement_timeout, the client's own deadline for an answer (which must
 * be longer), and the pool's wait for a connection (a new one, or a free one when the pool is full:
 * a frozen server accepts TCP connections and never answers the start-up).
 */
export const DATABASE_STATEMENT_TIMEOUT_MS = 2000;
export const DATABASE_QUERY_TIMEOUT_MS = 2500;
export const DATABASE_CONNECT_TIMEOUT_MS = 1000;
/** Token introspection at the auth service. */
export const INTROSPECTION_TIMEOUT_MS = 1000;

/** The variables, as both services and the worker are given them. */
export const DEADLINE_ENV = {
  push: {
    PUSH_REDIS_COMMAND_TIMEOUT_MS: String(REDIS_COMMAND_TIMEOUT_MS),
    PUSH_S3_CONNECT_TIMEOUT_MS: String(S3_CONNECT_TIMEOUT_MS),
    PUSH_S3_REQUEST_TIMEOUT_MS: String(S3_REQUEST_TIMEOUT_MS),
    PUSH_DATABASE_STATEMENT_TIMEOUT_MS: String(DATABASE_STATEMENT_TIMEOUT_MS),
    PUSH_DATABASE_QUERY_TIMEOUT_MS: String(DATABASE_QUERY_TIMEOUT_MS),
    PUSH_DATABASE_CONNECT_TIMEOUT_MS: String(DATABASE_CONNECT_TIMEOUT_MS),
    PUSH_INTROSPECTION_TIMEOUT_MS: String(INTROSPECTION_TIMEOUT_MS),
  },
  auth: {
    AUTH_REDIS_COMMAND_TIMEOUT_MS: String(REDIS_COMMAND_TIMEOUT_MS),
    AUTH_DATABASE_STATEMENT_TIMEOUT_MS: String(DATABASE_STATEMENT_TIMEOUT_MS),
    AUTH_DATABASE_QUERY_TIMEOUT_MS: String(DATABASE_QUERY_TIMEOUT_MS),
    AUTH_DATABASE_CONNECT_TIMEOUT_MS: String(DATABASE_CONNECT_TIMEOUT_MS),
  },
};

/** What a phase faults: a dependency, a push replica, or the webhook receiver (no request waits on it). */
export type Target = 'postgres' | 'redis' | 's3' | 'auth' | 'push-1' | 'receiver';

/** The deadline that governs requests while `target` is faulted. */
export function deadlineFor(target: Target | 'none'): { ms: number; what: string } {
  switch (target) {
    case 'postgres':
      // A statement first waits for a connection (a busy pool, or a new connection to a frozen
      // server: the connect timeout), then for its answer (the query timeout): both can fall in one
      // request when the pool's connections are all held by statements to the frozen server.
      return {
        ms: DATABASE_CONNECT_TIMEOUT_MS + Math.max(DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS),
        what: 'PostgreSQL connect timeout 1000 ms + query timeout 2500 ms (statement timeout 2000 ms)',
      };
    case 'redis':
      // A passphrase retrieve waits on two Redis commands one after the other (its attempts per
      // push, then per IP; the general retrieve limit no longer waits on Redis): both can time out.
      return {
        ms: 2 * REDIS_COMMAND_TIMEOUT_MS,
        what: 'two Redis command timeouts (passphrase attempts per push, then per IP)',
      };
    case 's3':
      return { ms: Math.max(S3_CONNECT_TIMEOUT_MS, S3_REQUEST_TIMEOUT_MS), what: 'S3 request timeout' };
    case 'auth':
      return { ms: INTROSPECTION_TIMEOUT_MS, what: 'introspection timeout' };
    case 'push-1':
    case 'receiver':
    case 'none':
      // The other replica has no faulted dependency: the longest configured deadline, generously.
      return {
        ms: Math.max(DATABASE_QUERY_TIMEOUT_MS, S3_REQUEST_TIMEOUT_MS, INTROSPECTION_TIMEOUT_MS),
        what: 'longest configured deadline',
      };
  }
}

/** No request (except those sent to the faulted process itself) may take longer than this. */
export const latencyBoundMs = (target: Target | 'none') => deadlineFor(target).ms + 1000;

/** After the faulted process is back (or thawed), every probe must succeed within this. */
export const RECOVERY_BOUND_MS = 5000;
/** Pushes due while Redis was down must be flagged expired within this after it is back. */
export const EXPIRY_AFTER_OUTAGE_BOUND_MS = 10_000;
