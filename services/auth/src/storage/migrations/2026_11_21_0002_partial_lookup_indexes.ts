/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * The grant, uid and user-code lookups only ever ask for a value, and the rows the service writes
 * most (client-credentials tokens) have none of the three: indexing their NULLs cost three index
 * insertions per issued token for nothing. Partial indexes keep the lookups and drop that work.
 */
const LOOKUPS = [
  ['oidc_payload_grant_idx', 'grant_id'],
  ['oidc_payload_uid_idx', 'uid'],
  ['oidc_payload_user_code_idx', 'user_code'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, column] of LOOKUPS) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on('oidc_payload')
      .column(column)
      .where(sql.ref(column), 'is not', null)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name, column] of LOOKUPS) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('oidc_payload').column(column).execute();
  }
}
