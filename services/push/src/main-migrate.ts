import { readSecretFiles } from '@secret-push/config';
import { migrateDatabase, runMigrationsCommand } from '@secret-push/db-kit';
import { pushMigrations } from './storage/migrations';

/** Creates the push database if needed and applies pending migrations. */
export const runPushMigrations = (url: string): Promise<string[]> => migrateDatabase(url, pushMigrations);

if (require.main === module) {
  const { env } = readSecretFiles(process.env, ['PUSH_DATABASE_URL']);
  runMigrationsCommand('push', env.PUSH_DATABASE_URL, pushMigrations);
}
