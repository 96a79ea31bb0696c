import { createKysely } from './create-kysely';
import { ensureDatabase } from './database-admin';
import { type MigrationSet, migrateToLatest } from './migrate';

/** The `migrate` command of a service: create the database if needed, apply pending migrations. */
export async function migrateDatabase(url: string, migrations: MigrationSet): Promise<string[]> {
  await ensureDatabase(url);
  const db = createKysely({ url, poolSize: 1 });
  try {
    return await migrateToLatest(db, migrations);
  } finally {
    await db.destroy();
  }
}

/** The migrate entry point: runs migrateDatabase and exits 1 on failure. */
export function runMigrationsCommand(label: string, url: string | undefined, migrations: MigrationSet): void {
  if (!url) {
    console.error(`migration failed: the database URL is not set`);
    process.exit(1);
  }
  migrateDatabase(url, migrations).then(
    (applied) =>
      console.log(applied.length ? `applied: ${applied.join(', ')}` : `${label} database is up to date`),
    (err: Error) => {
      console.error(`migration failed: ${err.message}`);
      process.exit(1);
    },
  );
}
