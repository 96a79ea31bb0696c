import { migrateDatabase, runMigrationsCommand } from '@secret-push/db-kit';
import { loadConfigOrExit } from '@secret-push/runtime';
import { loadPushMigrateConfig } from './config';
import { pushMigrations } from './storage/migrations';

/** Creates the push database if needed and applies pending migrations. */
export const runPushMigrations = (url: string): Promise<string[]> => migrateDatabase(url, pushMigrations);

// `node dist/main-migrate.js`; the package's index also imports this module, for runPushMigrations.
if (require.main === module) {
  runMigrationsCommand('push', loadConfigOrExit(loadPushMigrateConfig).db.url, pushMigrations);
}
