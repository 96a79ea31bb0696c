/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * The sweep of stale upload intents claims them in a statement of its own and deletes their
 * objects after it, with no transaction open across the object store (storage/file.repository.ts,
 * `sweepStaleUploadIntents`):
 * - `claimed_at`: set once by the sweep; from then on the intent is the sweep's, for good.
 * - `lease_until`: the sweep working on it; other sweeps leave it alone until then (a sweep that
 *   crashed is taken over after it), and a failed deletion releases it for the next sweep.
 * - `objects_deleted`: set by the sweep, with the row's deletion, once the objects are gone.
 * A claimed intent whose objects are not known to be deleted cannot be deleted (the trigger
 * skips the row): a create that consumes its intents after the claim counts one missing and
 * fails with UploadIntentLost (push.repository.ts) instead of committing a push whose objects the
 * sweep is deleting, and the claimed keys are never lost if their deletion fails.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('upload_intent')
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('objects_deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`
    create function upload_intent_keep_claimed() returns trigger language plpgsql as $$
    begin
      return null; -- skip the row: it belongs to the sweep until its objects are deleted
    end $$`.execute(db);
  await sql`
    create trigger upload_intent_keep_claimed before delete on upload_intent
    for each row when (old.claimed_at is not null and not old.objects_deleted)
    execute function upload_intent_keep_claimed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger upload_intent_keep_claimed on upload_intent`.execute(db);
  await sql`drop function upload_intent_keep_claimed()`.execute(db);
  await db.schema
    .alterTable('upload_intent')
    .dropColumn('objects_deleted')
    .dropColumn('lease_until')
    .dropColumn('claimed_at')
    .execute();
}
