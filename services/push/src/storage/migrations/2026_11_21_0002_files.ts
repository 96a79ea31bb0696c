/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * File pushes: the files of a push (object key, sealed name and per-file key), the
 * upload intents that let the sweep delete objects a crash left behind, the per-(view, file)
 * download counters, and on the push when its files are due for purging.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('push')
    .addColumn('files_purge_after', 'timestamptz')
    .addColumn('files_purged', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create index push_files_purge_idx on push (files_purge_after) where not files_purged and files_purge_after is not null`.execute(
    db,
  );

  await db.schema
    .createTable('push_file')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('push_id', 'uuid', (c) => c.notNull().references('push.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('object_key', 'text', (c) => c.notNull().unique())
    .addColumn('filename_sealed', 'bytea', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size >= 0`))
    .addColumn('key_sealed', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('push_file_push_idx')
    .on('push_file')
    .columns(['push_id', 'position'])
    .execute();

  await db.schema
    .createTable('upload_intent')
    .addColumn('object_key', 'text', (c) => c.primaryKey())
    .addColumn('push_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('upload_intent_created_idx').on('upload_intent').column('created_at').execute();

  await db.schema
    .createTable('file_download')
    .addColumn('view_id', 'bigint', (c) => c.notNull().references('audit_entry.id').onDelete('cascade'))
    .addColumn('file_id', 'uuid', (c) => c.notNull().references('push_file.id').onDelete('cascade'))
    .addColumn('downloads', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_download_pk', ['view_id', 'file_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('file_download').execute();
  await db.schema.dropTable('upload_intent').execute();
  await db.schema.dropTable('push_file').execute();
  await db.schema.alterTable('push').dropColumn('files_purged').dropColumn('files_purge_after').execute();
}
