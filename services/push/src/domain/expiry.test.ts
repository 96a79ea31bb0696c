import { createExpiry } from './expiry';
import {
  type InMemoryDomain,
  createInMemoryDomain,
  testCtx,
  textPush,
} from '../test/support/in-memory-domain';

// createExpiry over the in-memory PushStore: expiry by time, on the read path and in the worker's
// batches. The same over PostgreSQL (SKIP LOCKED, several workers): expiry.int.test.ts.

let d: InMemoryDomain;
beforeEach(() => {
  d = createInMemoryDomain();
});

const HOUR = 3_600_000;
const createFor = async (hours: number) =>
  (await d.pushes.create(textPush({ ttlSeconds: hours * 3600 }), { owner: null, audit: testCtx })).snapshot
    .push.id;

describe('expireDue', () => {
  it('expires every push past its window, oldest window first, in batches, each once', async () => {
    const ids = [await createFor(3), await createFor(1), await createFor(2), await createFor(10)];
    d.clock.advance(3 * HOUR);
    const expiry = createExpiry({ store: d.store, events: d.events });
    const expired = await expiry.expireDue(2);
    expect(expired.map((s) => s.push.id)).toEqual([ids[1], ids[2], ids[0]]);
    expect(expired.every((s) => s.push.expired && !s.push.deleted)).toBe(true);
    expect(await expiry.expireDue(2)).toEqual([]);
    expect(d.store.auditOf(ids[0]!).map((e) => e.kind)).toEqual(['creation', 'expire_by_time']);
    expect(d.store.rowOf(ids[0]!)!.payloadSealed).toBeNull();
    expect(d.store.rowOf(ids[3]!)!.push.expired).toBe(false);
    expect(d.events.log.filter((e) => e.event === 'expired').map((e) => e.reason)).toEqual([
      'time',
      'time',
      'time',
    ]);
  });

  it('stops after maxBatches or when asked to, leaving the rest for the next call', async () => {
    for (let i = 0; i < 5; i++) await createFor(1);
    d.clock.advance(HOUR);
    const expiry = createExpiry({ store: d.store });
    expect(await expiry.expireDue(2, { maxBatches: 1 })).toHaveLength(2);
    expect(await expiry.expireDue(2, { shouldStop: () => true })).toHaveLength(0);
    expect(await d.store.countDue(10)).toBe(3);
    expect(await expiry.expireDue(2)).toHaveLength(3);
  });
});

describe('expireIfPastWindow', () => {
  it('expires a push only once it is past its window', async () => {
    const id = await createFor(1);
    const expiry = createExpiry({ store: d.store, events: d.events });
    expect(await expiry.expireIfPastWindow(id)).toBeUndefined();
    d.clock.advance(HOUR);
    expect((await expiry.expireIfPastWindow(id))?.push.expired).toBe(true);
    expect(await expiry.expireIfPastWindow(id)).toBeUndefined();
    expect(d.events.log.at(-1)).toEqual({ event: 'expired', id, reason: 'time' });
  });
});
