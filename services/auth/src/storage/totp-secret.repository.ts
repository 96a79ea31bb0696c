/* eslint-disable @typescript-eslint/no-explicit-any -- also run by a migration, against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * What a stored TOTP secret becomes: the value sealed by the data key ring's first key, or
 * undefined when it already is (users/totp-secrets.ts `totpResealer`).
 */
export type TotpResealer = (accountId: string, stored: string) => string | undefined;

/** The form every stored secret has once sealed (the check constraint `account_totp_secret_sealed`). */
export const SEALED_PATTERN = 'sealed:%';

const BATCH = 500;

/**
 * Seals every TOTP secret stored in clear, and re-seals those sealed by an older key, in batches
 * by id. Each row is one conditional UPDATE (only if the secret is still the one read), so a
 * secret enrolled or removed meanwhile is left as it is. Returns how many rows changed.
 */
export async function resealTotpSecrets(db: Kysely<any>, reseal: TotpResealer): Promise<number> {
  let changed = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await sql<{ id: string; totp_secret: string }>`
      select id, totp_secret from account
      where totp_secret is not null and id > ${after}::uuid order by id limit ${BATCH}`.execute(db);
    for (const row of rows) {
      const next = reseal(row.id, row.totp_secret);
      if (next === undefined) continue;
      const res = await sql`update account set totp_secret = ${next}, updated_at = now()
        where id = ${row.id} and totp_secret = ${row.totp_secret}`.execute(db);
      changed += Number(res.numAffectedRows ?? 0);
    }
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return changed;
    after = last.id;
  }
}

/** How many TOTP secrets are stored in clear (not sealed). */
export async function countClearTotpSecrets(db: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from account
    where totp_secret is not null and totp_secret not like ${SEALED_PATTERN}`.execute(db);
  return rows[0]?.n ?? 0;
}
