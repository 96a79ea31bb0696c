import pg from 'pg';

/** The database name of a `postgres://…/name` URL. */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z_][\w-]{0,62}$/.test(name)) throw new Error(`unsupported database name in URL: "${name}"`);
  return name;
}

/** The same server URL pointing at another database. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

async function onMaintenanceDb<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: withDatabase(url, 'postgres'),
    connectionTimeoutMillis: 5000,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates the URL's database when it does not exist; safe when several processes race. */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  await onMaintenanceDb(url, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return;
    try {
      await client.query(`CREATE DATABASE "${name}"`);
    } catch (err) {
      // 42P04 duplicate_database, 23505 unique_violation: another process created it first.
      const code = (err as { code?: string }).code;
      if (code !== '42P04' && code !== '23505') throw err;
    }
  });
}

export async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  await onMaintenanceDb(url, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
