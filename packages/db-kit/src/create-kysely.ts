import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

export interface DbOptions {
  url: string;
  /** @defaultValue 10 */
  poolSize?: number;
  /** Milliseconds to wait for a connection before failing (a down database must not hang requests). */
  connectTimeoutMs?: number;
  /** Called with the SQL of every statement sent (tests count statements with it). */
  onQuery?: (sql: string) => void;
}

export function createKysely<DB>(options: DbOptions): Kysely<DB> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection emits 'error' on the pool; without a listener it crashes the process.
  pool.on('error', () => {});
  const { onQuery } = options;
  return new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    ...(onQuery && { log: (event) => onQuery(event.query.sql) }),
  });
}
