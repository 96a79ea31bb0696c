import {
  type ClosedByTime,
  type RequestClosingStore,
  closingLagSeconds,
  createRequestClosing,
  isDueToClose,
} from './request-closing';

// The close-by-time rule and the worker's batching over a scripted store. The statement itself runs
// against PostgreSQL through the worker in test/request-events.int.test.ts.

const at = (iso: string) => new Date(iso);
const NOW = at('2026-11-27T12:00:00.000Z');

describe('isDueToClose', () => {
  it.each([
    ['open', '2026-11-27T11:59:59.999Z', true],
    ['open', '2026-11-27T12:00:00.000Z', true],
    ['open', '2026-11-27T12:00:00.001Z', false],
    ['answered', '2026-11-27T11:00:00.000Z', true],
    ['answered', '2026-11-28T11:00:00.000Z', false],
    ['closed', '2026-11-27T11:00:00.000Z', false],
  ] as const)('%s with its window ending %s → %s', (state, end, due) => {
    expect(isDueToClose({ state, closeAfterAt: at(end) }, NOW)).toBe(due);
  });
});

describe('closingLagSeconds', () => {
  it('is the time from the end of the window to the close, never negative', () => {
    expect(
      closingLagSeconds({ closeAfterAt: at('2026-11-27T12:00:00Z'), closedAt: at('2026-11-27T12:00:02.5Z') }),
    ).toBe(2.5);
    expect(
      closingLagSeconds({ closeAfterAt: at('2026-11-27T12:00:01Z'), closedAt: at('2026-11-27T12:00:00Z') }),
    ).toBe(0);
  });
});

function scriptedStore(total: number) {
  let left = total;
  const calls: number[] = [];
  const store: RequestClosingStore = {
    closeDueBatch(batch) {
      calls.push(batch);
      const n = Math.min(batch, left);
      left -= n;
      return Promise.resolve(
        Array.from({ length: n }, (_, i): ClosedByTime => ({
          id: `r${left + i}`,
          owner: 'user:1',
          from: 'open',
          closeAfterAt: NOW,
          closedAt: NOW,
          announced: false,
        })),
      );
    },
  };
  return { store, calls, left: () => left };
}

describe('closeDue', () => {
  it('closes batch after batch until one comes back short', async () => {
    const s = scriptedStore(5);
    const closed = await createRequestClosing({ store: s.store }).closeDue(2);
    expect(closed).toHaveLength(5);
    expect(s.calls).toEqual([2, 2, 2]);
    expect(s.left()).toBe(0);
  });

  it('stops after maxBatches or when asked to, leaving the rest for the next tick', async () => {
    const s = scriptedStore(5);
    const closing = createRequestClosing({ store: s.store });
    expect(await closing.closeDue(2, { maxBatches: 1 })).toHaveLength(2);
    expect(await closing.closeDue(2, { shouldStop: () => true })).toHaveLength(0);
    expect(s.left()).toBe(3);
    expect(await closing.closeDue(2)).toHaveLength(3);
  });
});
