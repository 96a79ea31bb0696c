import { retryAfterSeconds } from './client-auth-throttle';

describe('retryAfterSeconds', () => {
  it('is 0 while every counter is within its cap, the last allowed failure included', () => {
    expect(retryAfterSeconds([])).toBe(0);
    expect(retryAfterSeconds([{ consumed: 1, max: 10, msLeft: 300_000 }])).toBe(0);
    expect(
      retryAfterSeconds([
        { consumed: 100, max: 100, msLeft: 1_000 },
        { consumed: 10, max: 10, msLeft: 2_000 },
      ]),
    ).toBe(0);
  });

  it('counts from the first failure over a cap, in whole seconds rounded up', () => {
    expect(retryAfterSeconds([{ consumed: 11, max: 10, msLeft: 299_001 }])).toBe(300);
    expect(retryAfterSeconds([{ consumed: 500, max: 10, msLeft: 1_000 }])).toBe(1);
  });

  it('is at least 1 second, even when the window is ending', () => {
    expect(retryAfterSeconds([{ consumed: 11, max: 10, msLeft: 0 }])).toBe(1);
    expect(retryAfterSeconds([{ consumed: 11, max: 10, msLeft: -1 }])).toBe(1);
  });

  it('waits for the longest window among the counters over their caps only', () => {
    const perIp = { consumed: 101, max: 100, msLeft: 30_000 };
    const perClientIp = { consumed: 11, max: 10, msLeft: 90_000 };
    expect(retryAfterSeconds([perIp, perClientIp])).toBe(90);
    expect(retryAfterSeconds([perIp, { ...perClientIp, consumed: 10 }])).toBe(30);
    expect(retryAfterSeconds([{ ...perIp, consumed: 5 }, perClientIp])).toBe(90);
    expect(retryAfterSeconds([{ ...perIp, consumed: 5, msLeft: 600_000 }, perClientIp])).toBe(90);
  });
});
