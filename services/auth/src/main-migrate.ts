import { KeyRing } from '@secret-push/key-ring';
import { loadConfigOrExit } from '@secret-push/runtime';
import { loadAuthMigrateConfig } from './config';
import { migrationReport, runAuthMigrations } from './storage/migrations';
import { totpResealer, totpSecrets } from './users/totp-secrets';

// Creates the auth database if needed, applies pending migrations and seals the TOTP secrets with
// the first key of AUTH_DATA_KEYS (`node dist/main-migrate.js`); exits 1 on failure.
const config = loadConfigOrExit(loadAuthMigrateConfig);
runAuthMigrations(config.db.url, totpResealer(totpSecrets(new KeyRing(config.dataKeys)))).then(
  (result) => console.log(migrationReport(result)),
  (err: Error) => {
    console.error(`migration failed: ${err.message}`);
    process.exit(1);
  },
);
