import { type Instant, NOW, isLastView, pastWindow, viewable } from '../view-rule.sql';

/** The view rule's fragments a visit uses, at `at` (built once for the database's now()). */
export const visitRule = (at: Instant) => ({
  viewable: viewable(at),
  due: pastWindow(at),
  last: isLastView(),
});
export const RULE_NOW = visitRule(NOW);
