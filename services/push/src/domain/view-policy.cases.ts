import type { ViewDenial } from './view-policy';

/**
 * The case table of the view rule. view-policy.test.ts runs it through the pure module;
 * storage/view-rule.sql.int.test.ts runs the same cases through every SQL predicate and the visit
 * statement, at an exact instant, and checks that both give the same answers.
 */
export interface ViewCase {
  name: string;
  views: number;
  expireAfterViews: number;
  /** expiresAt − now, in ms. */
  windowLeftMs: number;
  expired: boolean;
  deleted: boolean;
  expect: { ok: true; burned: boolean } | { ok: false; reason: ViewDenial };
}

const DAY = 86_400_000;

export const VIEW_CASES: ViewCase[] = [
  { name: 'fresh push', views: 0, expireAfterViews: 5, windowLeftMs: DAY, expired: false, deleted: false, expect: { ok: true, burned: false } },
  { name: 'one view left: the last view burns it', views: 4, expireAfterViews: 5, windowLeftMs: DAY, expired: false, deleted: false, expect: { ok: true, burned: true } },
  { name: 'single-view push', views: 0, expireAfterViews: 1, windowLeftMs: DAY, expired: false, deleted: false, expect: { ok: true, burned: true } },
  { name: 'views used up but not flagged', views: 5, expireAfterViews: 5, windowLeftMs: DAY, expired: false, deleted: false, expect: { ok: false, reason: 'exhausted' } },
  { name: 'window ends exactly now', views: 0, expireAfterViews: 5, windowLeftMs: 0, expired: false, deleted: false, expect: { ok: false, reason: 'past_window' } },
  { name: 'window passed a second ago', views: 0, expireAfterViews: 5, windowLeftMs: -1000, expired: false, deleted: false, expect: { ok: false, reason: 'past_window' } },
  { name: 'window ends in five seconds', views: 2, expireAfterViews: 5, windowLeftMs: 5000, expired: false, deleted: false, expect: { ok: true, burned: false } },
  { name: 'already expired', views: 1, expireAfterViews: 5, windowLeftMs: DAY, expired: true, deleted: false, expect: { ok: false, reason: 'expired' } },
  { name: 'deleted', views: 0, expireAfterViews: 5, windowLeftMs: DAY, expired: true, deleted: true, expect: { ok: false, reason: 'deleted' } },
]; // prettier-ignore
