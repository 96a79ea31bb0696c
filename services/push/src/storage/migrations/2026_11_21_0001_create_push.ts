/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('push')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('token_sealed', 'bytea', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('text', 'url', 'qr', 'file')`))
    .addColumn('owner', 'text')
    .addColumn('name', 'text')
    .addColumn('payload_sealed', 'bytea')
    .addColumn('note_sealed', 'bytea')
    .addColumn('passphrase_hash', 'text')
    .addColumn('passphrase_protected', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('expire_after_days', 'integer', (c) => c.notNull())
    .addColumn('expire_after_views', 'integer', (c) => c.notNull().check(sql`expire_after_views > 0`))
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('deletable_by_viewer', 'boolean')
    .addColumn('retrieval_step', 'boolean', (c) => c.notNull())
    .addColumn('expired', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('expired_on', 'timestamptz')
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('audit_entries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('audit_dropped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('push_views_within_limit', sql`views >= 0 and views <= expire_after_views`)
    .addCheckConstraint(
      'push_expired_is_wiped',
      sql`not expired or (payload_sealed is null and note_sealed is null and passphrase_hash is null)`,
    )
    .execute();
  await sql`create index push_owner_created_idx on push (owner, created_at desc, id desc) where owner is not null`.execute(
    db,
  );
  await sql`create index push_active_expires_at_idx on push (expires_at) where not expired`.execute(db);

  await db.schema
    .createTable('audit_entry')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('push_id', 'uuid', (c) => c.notNull().references('push.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('referrer', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_entry_push_idx').on('audit_entry').columns(['push_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_entry').execute();
  await db.schema.dropTable('push').execute();
}
