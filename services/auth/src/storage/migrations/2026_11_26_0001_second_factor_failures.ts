/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import type { Kysely } from 'kysely';

/**
 * `account.second_factor_failures`: wrong second-factor codes (TOTP or recovery) in a row, kept
 * across sign-ins. At SECOND_FACTOR_LOCK_AFTER (users/second-factor.ts) the factor is locked: TOTP
 * codes are refused, right ones included, until the owner uses a recovery code or the operator
 * unlocks it (`users unlock-mfa`, or `users reset-mfa`). A right code sets it back to 0.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('account')
    .addColumn('second_factor_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account').dropColumn('second_factor_failures').execute();
}
