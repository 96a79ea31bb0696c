import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';

/** Migrations keyed by a name that sorts by time (`2026_11_21_0001_create_x`). */
export type MigrationSet = Record<string, Migration>;

/**
 * Applies every pending migration. Kysely's migrator takes a lock row inside a transaction, so two
 * processes running this at once apply each migration exactly once.
 */
// Migrations are written against Kysely<any>, as Kysely recommends: they outlive the current types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>, migrations: MigrationSet): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
