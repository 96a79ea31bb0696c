import { runMigrationsCommand } from '@secret-push/db-kit';
import { loadConfigOrExit } from '@secret-push/runtime';
import { loadAuthMigrateConfig } from './config';
import { authMigrations } from './storage/migrations';

// Creates the auth database if needed and applies pending migrations (`node dist/main-migrate.js`).
runMigrationsCommand('auth', loadConfigOrExit(loadAuthMigrateConfig).db.url, authMigrations);
