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
