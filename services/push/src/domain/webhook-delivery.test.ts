import { WEBHOOK_RETRY_SCHEDULE } from './webhook';
import { decideAttempt, retryDelaySeconds } from './webhook-delivery';

const answered = (status: number, retryAfterSeconds: number | null = null) =>
  ({ kind: 'answered', status, latencyMs: 12, answer: 'ok', retryAfterSeconds }) as const;
const mid = () => 0.5; // no jitter

describe('what an attempt means', () => {
  test.each([200, 201, 202, 204, 299])('%i succeeds', (status) => {
    expect(decideAttempt(1, answered(status))).toMatchObject({
      outcome: 'succeeded',
      record: { status: 'succeeded', lastStatus: status, latencyMs: 12, response: 'ok' },
    });
  });

  test.each([301, 302, 303, 307, 308])('%i is a failure, retried (redirects are not followed)', (status) => {
    const d = decideAttempt(1, answered(status), mid);
    expect(d.record).toMatchObject({ status: 'pending', retryInSeconds: 5 });
    expect(d.record.lastError).toContain('redirects are not followed');
  });

  test.each([400, 404, 429, 500, 502, 503])('%i is retried on the schedule', (status) => {
    expect(decideAttempt(3, answered(status), mid).record).toMatchObject({
      status: 'pending',
      retryInSeconds: 1800,
    });
  });

  test('410 fails at once and disables the endpoint', () => {
    expect(decideAttempt(1, answered(410))).toMatchObject({
      record: { status: 'failed' },
      disable: expect.any(String),
    });
  });

  test('Retry-After longer than the schedule wins, bounded to a day; shorter changes nothing', () => {
    expect(decideAttempt(1, answered(429, 600), mid).record.retryInSeconds).toBe(600);
    expect(decideAttempt(1, answered(429, 1), mid).record.retryInSeconds).toBe(5);
    expect(decideAttempt(1, answered(503, 10 * 86_400), mid).record.retryInSeconds).toBe(86_400);
  });

  test('after the last attempt of the schedule: failed, endpoint disabled', () => {
    const last = WEBHOOK_RETRY_SCHEDULE.length + 1;
    expect(decideAttempt(last - 1, answered(500), mid).record.status).toBe('pending');
    const d = decideAttempt(last, answered(500), mid);
    expect(d).toMatchObject({ outcome: 'failed', record: { status: 'failed' }, disable: expect.any(String) });
  });

  test('a refused destination and a network failure are retried', () => {
    expect(decideAttempt(1, { kind: 'refused', reason: 'destination refused: x' }, mid)).toMatchObject({
      outcome: 'refused',
      record: { status: 'pending', latencyMs: null, lastError: 'destination refused: x' },
    });
    expect(decideAttempt(1, { kind: 'failed', reason: 'ECONNREFUSED', latencyMs: 3 }, mid)).toMatchObject({
      outcome: 'retrying',
    });
  });

  test('the schedule: about three days, each delay ±20 %', () => {
    const days = WEBHOOK_RETRY_SCHEDULE.reduce((a, b) => a + b, 0) / 86_400;
    expect(days).toBeGreaterThan(3);
    expect(days).toBeLessThan(3.3);
    expect(retryDelaySeconds(2, () => 0)).toBe(240);
    expect(retryDelaySeconds(2, () => 1)).toBe(360);
    expect(retryDelaySeconds(10)).toBeNull();
  });
});
