import { sql } from 'kysely';

/**
 * The view rule as SQL, by the database's clock (domain/view-policy.ts states the same rule):
 * not expired, views left, window not passed. `deleted` implies `expired`.
 */
export const VIEWABLE = sql`not expired and views < expire_after_views and expires_at > now()`;

/** Past its window but not yet flagged: what the read path and the sweep expire by time. */
export const PAST_WINDOW = sql`not expired and expires_at <= now()`;

/** The columns that expiry wipes, set to null. */
export const WIPE_SECRETS = sql`payload_sealed = null, note_sealed = null, passphrase_hash = null`;

/** A file push that expires now (by time, or deleted) has its files purged now. */
export const PURGE_FILES_NOW = sql`files_purge_after = case when kind = 'file' then now() end`;

/**
 * Files can be downloaded while their push is viewable by time, and after the push expired only
 * until `files_purge_after` (the grace period after a last view; never after a time expiry or a
 * DELETE, which set it to the moment of expiry). Over `p` = push.
 */
export const FILES_DOWNLOADABLE = sql`not p.files_purged and ((not p.expired and p.expires_at > now()) or p.files_purge_after > now())`;
