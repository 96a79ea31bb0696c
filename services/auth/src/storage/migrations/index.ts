import { type MigrationSet, migrateDatabase } from '@secret-push/db-kit';
import * as createOidcPayload from './2026_11_21_0001_create_oidc_payload';
import * as partialLookupIndexes from './2026_11_21_0002_partial_lookup_indexes';
import * as createAccount from './2026_11_24_0001_create_account';
import * as totpLastStep from './2026_11_25_0001_totp_last_step';
import * as accountEmailVerified from './2026_11_25_0002_account_email_verified';
import * as secondFactorFailures from './2026_11_26_0001_second_factor_failures';

/** Every migration of the auth database, in order. */
export const authMigrations: MigrationSet = {
  '2026_11_21_0001_create_oidc_payload': createOidcPayload,
  '2026_11_21_0002_partial_lookup_indexes': partialLookupIndexes,
  '2026_11_24_0001_create_account': createAccount,
  '2026_11_25_0001_totp_last_step': totpLastStep,
  '2026_11_25_0002_account_email_verified': accountEmailVerified,
  '2026_11_26_0001_second_factor_failures': secondFactorFailures,
};

/** Creates the auth database if needed and applies pending migrations; returns the names applied. */
export const runAuthMigrations = (url: string): Promise<string[]> => migrateDatabase(url, authMigrations);
