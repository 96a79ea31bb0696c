/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import {
  SEALED_PATTERN,
  type TotpResealer,
  countClearTotpSecrets,
  resealTotpSecrets,
} from '../totp-secret.repository';

/**
 * TOTP secrets sealed at rest with the data key ring (AUTH_DATA_KEYS): every secret stored in
 * clear is sealed, then the check constraint `account_totp_secret_sealed` refuses a clear one from
 * then on. The key reaches the migration from the migrate command (`node dist/main-migrate.js`,
 * `secret-push-auth migrate`), which reads AUTH_DATA_KEYS; without it (`reseal` undefined) the
 * migration passes only when there is no secret to seal (a new database) and otherwise fails,
 * naming the variable, and changes nothing.
 *
 * Down drops the constraint only: the secrets stay sealed (the code before this cannot read them;
 * `users reset-mfa` is the way back for an account).
 */
export function sealTotpSecrets(reseal?: TotpResealer): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (reseal) await resealTotpSecrets(db, reseal);
      const clear = await countClearTotpSecrets(db);
      if (clear > 0) {
        throw new Error(
          `${clear} TOTP secret(s) are stored in clear: run the migrate command with AUTH_DATA_KEYS set to seal them`,
        );
      }
      await sql`alter table account add constraint account_totp_secret_sealed
        check (totp_secret is null or totp_secret like ${sql.lit(SEALED_PATTERN)})`.execute(db);
    },
    async down(db: Kysely<any>): Promise<void> {
      await sql`alter table account drop constraint account_totp_secret_sealed`.execute(db);
    },
  };
}
