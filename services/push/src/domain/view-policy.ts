import type { ViewState } from './push';

/*
 * The view rule, in one place for code. The database enforces the same rule atomically with the
 * predicates of storage/view-rule.sql.ts; storage/view-rule.sql.int.test.ts runs this module's case
 * table (view-policy.cases.ts) through both at exact instants and checks that they agree.
 *
 * - A push can be viewed while it is not expired, has views left, and `now < expiresAt`.
 * - The window is half-open: at `now === expiresAt` the push is past its window.
 * - Taking the last view expires the push at once (`burned`), in the same step.
 * - `now` is always the database's clock, passed in; this module never reads a clock.
 */

export type ViewDenial = 'deleted' | 'expired' | 'exhausted' | 'past_window';
export type ViewCheck = { ok: true } | { ok: false; reason: ViewDenial };

const DAY_MS = 86_400_000;

export function isPastWindow(p: ViewState, now: Date): boolean {
  return now.getTime() >= p.expiresAt.getTime();
}

export function canView(p: ViewState, now: Date): ViewCheck {
  if (p.deleted) return { ok: false, reason: 'deleted' };
  if (p.expired) return { ok: false, reason: 'expired' };
  if (p.views >= p.expireAfterViews) return { ok: false, reason: 'exhausted' };
  if (isPastWindow(p, now)) return { ok: false, reason: 'past_window' };
  return { ok: true };
}

/** Expired for every reader, whether or not a statement has flagged it yet. */
export function isEffectivelyExpired(p: ViewState, now: Date): boolean {
  return !canView(p, now).ok;
}

/** The state after one view; throws when the view is not allowed. */
export function consumeView<T extends ViewState>(p: T, now: Date): { next: T; burned: boolean } {
  const check = canView(p, now);
  if (!check.ok) throw new Error(`view not allowed: ${check.reason}`);
  const views = p.views + 1;
  const burned = views >= p.expireAfterViews;
  return { next: { ...p, views, expired: burned }, burned };
}

export function viewsRemaining(p: ViewState): number {
  return Math.max(0, p.expireAfterViews - p.views);
}

export function daysRemaining(p: ViewState, now: Date): number {
  return Math.max(0, Math.ceil((p.expiresAt.getTime() - now.getTime()) / DAY_MS));
}
