import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  type MigrationSet,
  createKysely,
  dropDatabase,
  ensureDatabase,
  migrateToLatest,
  withDatabase,
} from '@secret-push/db-kit';

/** Test databases are named `sptest_<epoch seconds>_<label>_<random>`; global setup drops stale ones. */
export const TEST_DATABASE_PREFIX = 'sptest_';
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase<DB> {
  url: string;
  db: Kysely<DB>;
  drop(): Promise<void>;
}

/** A new database with every migration applied: one per test file, so files run in parallel. */
export async function freshDatabase<DB>(label: string, migrations: MigrationSet): Promise<TestDatabase<DB>> {
  const name = `${TEST_DATABASE_PREFIX}${Math.floor(Date.now() / 1000)}_${label}_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(SERVER_URL, name);
  await ensureDatabase(url);
  const db = createKysely<DB>({ url, poolSize: 5 });
  await migrateToLatest(db, migrations);
  return {
    url,
    db,
    async drop() {
      await db.destroy();
      await dropDatabase(url);
    },
  };
}
