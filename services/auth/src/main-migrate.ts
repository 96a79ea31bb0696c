import { readSecretFiles } from '@secret-push/config';
import { migrateDatabase, runMigrationsCommand } from '@secret-push/db-kit';
import { authMigrations } from './storage/migrations';

/** Creates the auth database if needed and applies pending migrations. */
export const runAuthMigrations = (url: string): Promise<string[]> => migrateDatabase(url, authMigrations);

if (require.main === module) {
  const { env } = readSecretFiles(process.env, ['AUTH_DATABASE_URL']);
  runMigrationsCommand('auth', env.AUTH_DATABASE_URL, authMigrations);
}
