/**
 * Seconds to wait before each retry of a temporary failure: quick at first, then spread over about
 * a day (a mail server down for a night still gets the message). After the last, the failure is final.
 */
export const MAIL_RETRY_SCHEDULE: readonly number[] = [
  30,
  120,
  600,
  1800,
  3600,
  3 * 3600,
  6 * 3600,
  12 * 3600,
];

/**
 * The delay before retry number `attempt` (1 = the first retry) with ±20 % jitter, so that many
 * messages deferred together do not come back together; null when the schedule is spent.
 */
export function retryDelaySeconds(
  attempt: number,
  schedule: readonly number[] = MAIL_RETRY_SCHEDULE,
  random: () => number = Math.random,
): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return Math.max(1, Math.round(base * (0.8 + 0.4 * random())));
}
