import { VIEW_CASES } from './view-policy.cases';
import { canView, consumeView, daysRemaining, isEffectivelyExpired, viewsRemaining } from './view-policy';

const now = new Date('2026-11-21T12:00:00.000Z');
const state = (c: (typeof VIEW_CASES)[number]) => ({
  views: c.views,
  expireAfterViews: c.expireAfterViews,
  expiresAt: new Date(now.getTime() + c.windowLeftMs),
  expired: c.expired,
  deleted: c.deleted,
});

describe('view policy', () => {
  it.each(VIEW_CASES)('$name', (c) => {
    const check = canView(state(c), now);
    if (c.expect.ok) {
      expect(check).toEqual({ ok: true });
      const { next, burned } = consumeView(state(c), now);
      expect(burned).toBe(c.expect.burned);
      expect(next.views).toBe(c.views + 1);
      expect(next.expired).toBe(c.expect.burned);
      expect(viewsRemaining(next)).toBe(c.expireAfterViews - c.views - 1);
    } else {
      expect(check).toEqual({ ok: false, reason: c.expect.reason });
      expect(isEffectivelyExpired(state(c), now)).toBe(true);
      expect(() => consumeView(state(c), now)).toThrow(c.expect.reason);
    }
  });

  it.each([
    [7 * 86_400_000, 7],
    [6 * 86_400_000 + 1, 7],
    [6 * 86_400_000, 6],
    [1, 1],
    [0, 0],
    [-5000, 0],
  ])('days_remaining for %i ms left is %i', (left, days) => {
    expect(daysRemaining({ ...state(VIEW_CASES[0]!), expiresAt: new Date(now.getTime() + left) }, now)).toBe(
      days,
    );
  });

  it('never reports negative views remaining', () => {
    expect(viewsRemaining({ ...state(VIEW_CASES[0]!), views: 7, expireAfterViews: 5 })).toBe(0);
  });
});
