/**
 * The database's clock, for the in-memory stores: every store of one test reads the same instant,
 * which only moves when the test moves it (as `now()` is the only clock of the SQL statements).
 */
export interface TestClock {
  now(): Date;
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
  set(at: Date): void;
}

export function createTestClock(start: Date = new Date('2026-01-01T00:00:00.000Z')): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(at) {
      current = at.getTime();
    },
  };
}
