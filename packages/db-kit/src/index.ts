export { createKysely, preparedName, type DbOptions } from './create-kysely';
export { dropDatabase, ensureDatabase, databaseName, withDatabase } from './database-admin';
export { migrateToLatest, type MigrationSet } from './migrate';
export { migrateDatabase, runMigrationsCommand } from './migrate-database';
export { isConnectionError, isQueryTimeout } from './errors';
export { statementTemplate, type StatementTemplate } from './statement-template';
