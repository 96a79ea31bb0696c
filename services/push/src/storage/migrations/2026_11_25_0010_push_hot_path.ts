/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * Cheaper writes on the hot path (a create writes a push and its `creation` entry; a view updates
 * the push and writes a `view` entry):
 *
 * - `audit_entry.push_id` loses its foreign key. Every audit entry is inserted by the statement
 *   that just inserted, locked or updated its push, from that push's own row (push.repository.ts),
 *   so it cannot name a push that does not exist; and pushes are never deleted (an expired push
 *   keeps its row and its audit log), so the key's `on delete cascade` never ran. What it cost was a
 *   referential check (a trigger and a lookup of the push) on every create and every view. Whatever
 *   deletes pushes in the future deletes their audit entries in the same statement.
 * - `push` gets a fill factor of 80: a view that is not the last changes no indexed column (views,
 *   audit_entries, updated_at), so with room left on the row's page PostgreSQL writes the new row
 *   version there without touching any index (a HOT update). New pages keep that room; existing
 *   pages get it as they are rewritten.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table audit_entry drop constraint audit_entry_push_id_fkey`.execute(db);
  await sql`alter table push set (fillfactor = 80)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table push reset (fillfactor)`.execute(db);
  await sql`
    alter table audit_entry add constraint audit_entry_push_id_fkey
      foreign key (push_id) references push (id) on delete cascade`.execute(db);
}
