/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * `account.email_verified`: whether the address was vouched for. Accounts the operator creates
 * (`users create`, and every account from before this migration) are verified: the operator gave
 * the address. Accounts people make themselves (self sign-up, AUTH_SELF_SIGNUP) are not: nobody
 * checked that the address is theirs. The id token and userinfo report it as `email_verified`.
 *
 * `oidc_payload_account_idx`: what oidc-provider stored for an account (sessions, grants, codes,
 * access and refresh tokens all carry `accountId` in their payload), found at once when the account
 * is deleted (the accounts API's DELETE). Partial: client-credentials tokens, the rows written
 * most, have no account and cost the index nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('account')
    .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await sql`create index oidc_payload_account_idx on oidc_payload ((payload->>'accountId'))
            where payload->>'accountId' is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('oidc_payload_account_idx').execute();
  await db.schema.alterTable('account').dropColumn('email_verified').execute();
}
