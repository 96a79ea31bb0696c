import { type MigrationSet, createKysely, ensureDatabase, migrateToLatest } from '@secret-push/db-kit';
import { type TotpResealer, resealTotpSecrets } from '../totp-secret.repository';
import * as createOidcPayload from './2026_11_21_0001_create_oidc_payload';
import * as partialLookupIndexes from './2026_11_21_0002_partial_lookup_indexes';
import * as createAccount from './2026_11_24_0001_create_account';
import * as totpLastStep from './2026_11_25_0001_totp_last_step';
import * as accountEmailVerified from './2026_11_25_0002_account_email_verified';
import * as secondFactorFailures from './2026_11_26_0001_second_factor_failures';
import { sealTotpSecrets } from './2026_11_26_0002_seal_totp_secrets';
import * as authEmail from './2026_12_01_0001_auth_email';

/**
 * Every migration of the auth database, in order. `reseal` (from the data key ring) is what the
 * migration sealing the TOTP secrets seals with; without it, that migration passes only on a
 * database without TOTP secrets (a new one, as in the tests).
 */
export const authMigrationSet = (reseal?: TotpResealer): MigrationSet => ({
  '2026_11_21_0001_create_oidc_payload': createOidcPayload,
  '2026_11_21_0002_partial_lookup_indexes': partialLookupIndexes,
  '2026_11_24_0001_create_account': createAccount,
  '2026_11_25_0001_totp_last_step': totpLastStep,
  '2026_11_25_0002_account_email_verified': accountEmailVerified,
  '2026_11_26_0001_second_factor_failures': secondFactorFailures,
  '2026_11_26_0002_seal_totp_secrets': sealTotpSecrets(reseal),
  '2026_12_01_0001_auth_email': authEmail,
});

/** What the migrate command prints of `runAuthMigrations`' result. */
export function migrationReport({ applied, resealed }: { applied: string[]; resealed: number }): string {
  const done = applied.length ? `applied: ${applied.join(', ')}` : 'auth database is up to date';
  return resealed ? `${done}; re-sealed ${resealed} TOTP secret(s) with the first data key` : done;
}

/** The migrations without a data key: for a new database. */
export const authMigrations: MigrationSet = authMigrationSet();

/**
 * Creates the auth database if needed and applies pending migrations (returns the names applied).
 * With `reseal` (the migrate command's data key ring), it then re-seals every TOTP secret sealed
 * by an older key with the first one (key rotation), so that the old key can be dropped (returns
 * how many).
 */
export async function runAuthMigrations(
  url: string,
  reseal?: TotpResealer,
): Promise<{ applied: string[]; resealed: number }> {
  await ensureDatabase(url);
  const db = createKysely({ url, poolSize: 1 });
  try {
    const applied = await migrateToLatest(db, authMigrationSet(reseal));
    return { applied, resealed: reseal ? await resealTotpSecrets(db, reseal) : 0 };
  } finally {
    await db.destroy();
  }
}
