import { type Kysely, sql } from 'kysely';
import type { PushDatabase } from './database';

/*
 * The purge of stored files, shared by pushes (file.repository.ts, `push_file`) and requests'
 * attachments (request-file.repository.ts, `request_file`): the same columns (`files_purge_after`,
 * `files_purged`) on the owning row, the same child table shape (`<owner>_id`, `object_key`,
 * `position`), so one statement each for both.
 */

type Db = Kysely<PushDatabase>;

/** Whose files: the owning table, and its file table (keyed by `<owner>_id`). */
export type FileOwner = 'push' | 'request';

const tables = (owner: FileOwner) => ({
  owner: sql.table(owner),
  files: sql.table(`${owner}_file`),
  key: sql.ref(`${owner}_id`),
  childKey: sql.ref(`f.${owner}_id`),
});

/**
 * Up to `batch` owners whose files are due (`files_purge_after` passed, by the database's clock)
 * and not yet purged, oldest first, each with its object keys by position (through the owner's
 * `…_files_purge_idx`). A row that another transaction holds at that moment is skipped
 * (`SKIP LOCKED`) and left for the next tick. The lock ends with the statement: no transaction is
 * open while the objects are deleted, so two workers may both purge one (objects already gone are
 * fine, `markFilesPurged` twice changes nothing). `exclude`: owners whose purge failed lately.
 */
export async function filesDue(
  db: Db,
  owner: FileOwner,
  batch: number,
  exclude: readonly string[],
): Promise<{ id: string; objectKeys: string[] }[]> {
  const t = tables(owner);
  const { rows } = await sql<{ id: string; object_keys: string[] }>`
    with due as (
      select id, files_purge_after from ${t.owner}
      where not files_purged and files_purge_after <= now() and not (id = any(${[...exclude]}::uuid[]))
      order by files_purge_after limit ${batch}
      for update skip locked
    )
    select due.id,
           array(select f.object_key from ${t.files} f where ${t.childKey} = due.id order by f.position) as object_keys
    from due order by due.files_purge_after, due.id`.execute(db);
  return rows.map((r) => ({ id: r.id, objectKeys: r.object_keys }));
}

/** After the objects are deleted: the file rows go (with what hangs on them), the owner is marked purged. */
export async function markFilesPurged(db: Db, owner: FileOwner, id: string): Promise<void> {
  const t = tables(owner);
  await sql`
    with d as (delete from ${t.files} where ${t.key} = ${id})
    update ${t.owner} set files_purged = true where id = ${id}`.execute(db);
}
