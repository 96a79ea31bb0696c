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

/*
 * What a push becomes when the rule expires it, as the entries of an UPDATE's SET (column: value),
 * for the query builder's `.set()` and, through `setList`, for the hand-written hot statements.
 * Over the updated table's alias when the statement gives it one.
 */

/** The sealed secrets that expiry wipes. */
const SECRET_COLUMNS = ['payload_sealed', 'note_sealed', 'passphrase_hash'] as const;
type SecretColumn = (typeof SECRET_COLUMNS)[number];
type Sets = Record<string, RawBuilder<unknown>>;
/** A secret's new value: typed `never` so that it fits each secret column's own type (bytea or text). */
type SecretValue = RawBuilder<never>;

/** Each secret set to `values` (null: wiped) when `when` holds, kept otherwise. */
export const secretsWhen = (
  when: RawBuilder<boolean>,
  values: Record<SecretColumn, unknown> | null,
  alias?: string,
) =>
  Object.fromEntries(
    SECRET_COLUMNS.map((c) => [
      c,
      sql`case when ${when} then ${values ? values[c] : sql.lit(null)} else ${col(alias, c)} end`,
    ]),
  ) as Record<SecretColumn, SecretValue>;

/** The push expires at `at` when `when` holds (flagged, dated, its secrets wiped); unchanged otherwise. */
export const expireWhen = (when: RawBuilder<boolean>, at: Instant, alias?: string) => ({
  expired: sql<boolean>`${col(alias, 'expired')} or ${when}`,
  expired_on: sql<Date | null>`case when ${when} then ${at} else ${col(alias, 'expired_on')} end`,
  ...secretsWhen(when, null, alias),
});

/**
 * A file push's files become due for purging: at `at` when `now` holds (expired by time), after
 * the grace period but never after its window when `afterGrace` holds (its last view); unchanged
 * otherwise, and always for other kinds.
 */
export const purgeFilesWhen = (
  when: { now?: RawBuilder<boolean>; afterGrace: RawBuilder<boolean> },
  at: Instant,
  graceSeconds: number,
  alias?: string,
) => {
  const kept = col(alias, 'files_purge_after');
  const now = when.now ? sql`when ${when.now} then ${at} ` : sql``;
  const grace = sql`least(${at} + make_interval(secs => ${graceSeconds}), ${col(alias, 'expires_at')})`;
  return {
    files_purge_after: sql<Date | null>`case when ${col(alias, 'kind')} <> 'file' then ${kept} ${now}when ${when.afterGrace} then ${grace} else ${kept} end`,
  };
};

/** The inverse of `expireWhen` (a refunded last view): active again with the secrets `before` when `when` holds. */
export const unexpireWhen = (
  when: RawBuilder<boolean>,
  before: Record<SecretColumn, unknown>,
  alias?: string,
) => ({
  expired: sql<boolean>`case when ${when} then false else ${col(alias, 'expired')} end`,
  expired_on: sql<Date | null>`case when ${when} then null else ${col(alias, 'expired_on')} end`,
  ...secretsWhen(when, before, alias),
  files_purge_after: sql<Date | null>`case when ${when} then null else ${col(alias, 'files_purge_after')} end`,
});

/** A push that expires now (by time, or deleted): flagged, dated, secrets wiped, a file push's files due now. */
export const EXPIRED_NOW = {
  expired: sql<boolean>`true`,
  expired_on: NOW,
  ...Object.fromEntries(SECRET_COLUMNS.map((c) => [c, sql.lit(null)])),
  files_purge_after: sql<Date | null>`case when kind = 'file' then now() end`,
} as {
  expired: RawBuilder<boolean>;
  expired_on: Instant;
  files_purge_after: RawBuilder<Date | null>;
} & Record<SecretColumn, SecretValue>;

/** SET entries as the list of a hand-written UPDATE (`column = value, …`). */
export const setList = (sets: Sets) =>
  sql.join(
    Object.entries(sets).map(([column, value]) => sql`${sql.id(column)} = ${value}`),
    sql`,\n        `,
  );

/**
 * Files can be downloaded while their push is within its window and not expired, and after the
 * push expired only until `files_purge_after` (the grace period after a last view; a time expiry
 * or a DELETE sets it to the moment of expiry). Over the push's alias `p`.
 */
export const filesDownloadable = (at: Instant = NOW) =>
  sql<boolean>`(not p.files_purged and ((not p.expired and ${withinWindow(at, 'p')}) or p.files_purge_after > ${at}))`;
