import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { isQueryTimeout } from './errors';

export interface DbOptions {
  url: string;
  /** @defaultValue 10 */
  poolSize?: number;
  /**
   * Milliseconds to wait for a connection before failing (a down database must not hang
   * requests): both opening a new one and waiting for a free one when the pool is full.
   * @defaultValue 3000
   */
  connectTimeoutMs?: number;
  /**
   * The server's `statement_timeout` for this pool's sessions: PostgreSQL cancels a statement
   * running longer (SQLSTATE 57014, a connection-class error for `isConnectionError`). Absent: the
   * server's setting.
   */
  statementTimeoutMs?: number;
  /**
   * Our own deadline for each statement's answer (pg `query_timeout`), for a server that cannot
   * cancel anything (frozen, partitioned): the statement rejects with "Query read timeout" and its
   * connection is destroyed, never handed to the next caller with the statement still running on
   * it. Keep it above `statementTimeoutMs`, so that a server that is up answers first. Absent: none.
   */
  queryTimeoutMs?: number;
  /** Called with the SQL of every statement sent (tests count statements with it). */
  onQuery?: (sql: string) => void;
}

/**
 * A hot statement names itself with a leading SQL comment, `prepared:<name>` between `/*` and `*\/`, as
 * the very first characters of its text: the driver sends
 * it as a named prepared statement, so PostgreSQL parses and plans it once per connection instead
 * of on every request (Kysely sends every statement unnamed). Only statements marked so are named:
 * their number per connection stays small and fixed. The name sent is the marker's plus a hash of
 * the text, so two texts can never share a name. Named statements live in the server session:
 * they need session pooling (or PgBouncer 1.21+ with `max_prepared_statements`) in front of
 * PostgreSQL (docs/operations.md).
 */
const PREPARED = /^\/\*prepared:([a-z0-9_]{1,40})\*\//;

/** Names already computed, by text: a marked text is sent on every request, its hash made once. */
const preparedNames = new Map<string, string>();

export function preparedName(text: string): string | undefined {
  const known = preparedNames.get(text);
  if (known !== undefined) return known;
  const marker = PREPARED.exec(text)?.[1];
  if (!marker) return undefined;
  const name = `${marker}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`;
  // Bounded by the marked statements in the code (a few texts each), never by the values.
  preparedNames.set(text, name);
  return name;
}

/**
 * The pool as Kysely sees it, with two changes:
 * - statements marked as hot are sent as named prepared statements ({@link preparedName});
 * - with `destroyTimedOut`, a client whose statement passed `queryTimeoutMs` is released as broken
 *   (pg-pool ends it, and pg destroys the socket of a client with a statement in flight), so that
 *   nothing else queues behind the statement that never answered. Until then, further statements
 *   on it (a transaction's ROLLBACK) fail at once with the same error instead of queuing behind it
 *   for another deadline.
 */
function wrapPool(pool: pg.Pool, destroyTimedOut: boolean): PostgresPool {
  return {
    options: pool.options,
    end: () => pool.end(),
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let timedOut: Error | undefined;
      const query = (...args: unknown[]) => {
        if (timedOut !== undefined) return Promise.reject(timedOut);
        const name = typeof args[0] === 'string' ? preparedName(args[0]) : undefined;
        const call = name ? [{ name, text: args[0], values: args[1] }] : args;
        const result = (client.query as (...a: unknown[]) => unknown)(...call);
        if (!destroyTimedOut || !(result instanceof Promise)) return result; // or a cursor
        return result.catch((err: unknown) => {
          if (isQueryTimeout(err)) timedOut = err as Error;
          throw err;
        });
      };
      return {
        get processID() {
          return (client as unknown as { processID?: number }).processID;
        },
        query: query as PostgresPoolClient['query'],
        release: (destroy?: boolean) => client.release(destroy || timedOut !== undefined ? true : undefined),
      };
    },
  };
}

export function createKysely<DB>(options: DbOptions): Kysely<DB> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // pg-pool applies it to a new connection and to the wait for a free one alike.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
    idleTimeoutMillis: 30_000,
    // Sent as start-up parameters: no statement of ours is needed to set them.
    ...(options.statementTimeoutMs !== undefined && { statement_timeout: options.statementTimeoutMs }),
    ...(options.queryTimeoutMs !== undefined && { query_timeout: options.queryTimeoutMs }),
  });
  // An idle client losing its connection emits 'error' on the pool; without a listener it crashes the process.
  pool.on('error', () => {});
  // pg-pool drops its own listener while a client is checked out, so a connection that dies in the
  // middle of a statement would emit an unhandled 'error' and end the process; the query itself
  // still rejects (→ 503), and the pool discards the broken client.
  pool.on('connect', (client) => client.on('error', () => {}));
  const { onQuery } = options;
  return new Kysely<DB>({
    dialect: new PostgresDialect({
      pool: wrapPool(pool, options.queryTimeoutMs !== undefined),
    }),
    ...(onQuery && { log: (event) => onQuery(event.query.sql) }),
  });
}
