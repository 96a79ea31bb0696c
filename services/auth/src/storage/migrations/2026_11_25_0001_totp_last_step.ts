/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import type { Kysely } from 'kysely';

/**
 * The TOTP time step (RFC 6238: Unix time / 30 s) of the last code an account used. A code is
 * accepted only for a later step, so a code seen once (over a shoulder, in a phishing proxy) cannot
 * be used again. Null until the first code; cleared with the secret (`users reset-mfa`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account').addColumn('totp_last_step', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account').dropColumn('totp_last_step').execute();
}
