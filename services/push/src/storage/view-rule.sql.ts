import { type RawBuilder, sql } from 'kysely';

/*
 * The view rule as SQL, in one place (domain/view-policy.ts states the same rule for code, and
 * view-rule.sql.int.test.ts runs their shared case table through both at exact instants):
 *
 * - a push is viewable while it is not expired, has views left, and `at < expires_at` (the window
 *   is half-open: at `expires_at` it is past its window);
 * - the view that brings `views` to `expire_after_views` is the last one: it expires the push;
 * - `deleted` implies `expired`.
 *
 * Every predicate takes the instant `at` (default: the statement's `now()`, the database's clock,
 * the only clock the rule uses) and an optional table alias for its columns. Statements compose
 * these; none spells the rule out again.
 */

export type Instant = RawBuilder<Date>;

/** The database's clock: the transaction's `now()`. */
export const NOW: Instant = sql<Date>`now()`;

/** An exact instant bound as a parameter (tests, and anything that must judge at a given time). */
export const instant = (at: Date): Instant => sql<Date>`${at}::timestamptz`;

const col = (alias: string | undefined, column: string) => sql.ref(alias ? `${alias}.${column}` : column);

/** Within its window at `at`. */
export const withinWindow = (at: Instant = NOW, alias?: string) =>
  sql<boolean>`(${col(alias, 'expires_at')} > ${at})`;

/** Views left: fewer counted than allowed. */
export const hasViewsLeft = (alias?: string) =>
  sql<boolean>`(${col(alias, 'views')} < ${col(alias, 'expire_after_views')})`;

/** Counting one more view uses the last one. */
export const isLastView = (alias?: string) =>
  sql<boolean>`(${col(alias, 'views')} + 1 >= ${col(alias, 'expire_after_views')})`;

/** The whole rule: a view may be counted now. */
export const viewable = (at: Instant = NOW, alias?: string) =>
  sql<boolean>`(not ${col(alias, 'expired')} and ${hasViewsLeft(alias)} and ${withinWindow(at, alias)})`;

/** Past its window but not yet flagged: what the read path and the sweep expire by time. */
export const pastWindow = (at: Instant = NOW, alias?: string) =>
  sql<boolean>`(not ${col(alias, 'expired')} and not ${withinWindow(at, alias)})`;

/** The columns that expiry wipes, set to null. */
export const WIPE_SECRETS = sql`payload_sealed = null, note_sealed = null, passphrase_hash = null`;

/** A file push that expires now (by time, or deleted) has its files purged now. */
export const PURGE_FILES_NOW = sql`files_purge_after = case when kind = 'file' then now() end`;

/**
 * Files can be downloaded while their push is within its window and not expired, and after the
 * push expired only until `files_purge_after` (the grace period after a last view; a time expiry
 * or a DELETE sets it to the moment of expiry). Over the push's alias `p`.
 */
export const filesDownloadable = (at: Instant = NOW) =>
  sql<boolean>`(not p.files_purged and ((not p.expired and ${withinWindow(at, 'p')}) or p.files_purge_after > ${at}))`;
