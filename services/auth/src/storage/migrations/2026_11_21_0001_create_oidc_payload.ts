/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oidc_payload')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('client_id', 'text')
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('oidc_payload_pkey', ['model', 'id'])
    .execute();
  await db.schema
    .createIndex('oidc_payload_expires_at_idx')
    .on('oidc_payload')
    .column('expires_at')
    .execute();
  await db.schema
    .createIndex('oidc_payload_client_idx')
    .on('oidc_payload')
    .columns(['client_id', 'model'])
    .execute();
  await db.schema.createIndex('oidc_payload_grant_idx').on('oidc_payload').column('grant_id').execute();
  await db.schema.createIndex('oidc_payload_uid_idx').on('oidc_payload').column('uid').execute();
  await db.schema.createIndex('oidc_payload_user_code_idx').on('oidc_payload').column('user_code').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oidc_payload').execute();
}
