import { createLogger } from '@secret-push/logger';
import type { OutboxEvent } from '../../domain/outbox';
import type { OutboxStore } from '../../domain/ports/outbox-store';
import { dispatchOutboxJob } from './dispatch-outbox';

const silent = createLogger({ name: 't', level: 'silent' });
const event = (n: number): OutboxEvent => ({
  id: `e${n}`,
  pushId: 'p',
  requestId: null,
  kind: 'view',
  auditId: null,
  emailId: null,
  at: new Date(0),
});

/** An outbox holding `waiting` events whose rounds fail while `failing` is set. */
function memoryOutbox(count: number) {
  const state = { waiting: Array.from({ length: count }, (_, i) => event(i)), failing: false };
  const store: OutboxStore = {
    async drain(limit, handle) {
      if (state.failing) throw new Error('database down');
      const batch = state.waiting.slice(0, limit);
      if (batch.length === 0) return 0;
      await handle(batch);
      state.waiting = state.waiting.slice(batch.length);
      return batch.length;
    },
    oldestAgeSeconds: () => Promise.resolve(0),
  };
  return { state, store };
}

test('hands every batch to every consumer, up to the rounds of a tick', async () => {
  const { state, store } = memoryOutbox(25);
  const a: string[] = [];
  const b: string[] = [];
  const job = dispatchOutboxJob({
    outbox: store,
    consumers: [
      { name: 'a', accept: (e) => Promise.resolve(void a.push(...e.map((x) => x.id))) },
      { name: 'b', accept: (e) => Promise.resolve(void b.push(...e.map((x) => x.id))) },
    ],
    batchSize: 10,
    maxBatchesPerTick: 2,
    logger: silent,
  });
  expect(await job.run({ shouldStop: () => false })).toBe(20);
  expect(await job.run({ shouldStop: () => false })).toBe(5);
  expect(a).toEqual(b);
  expect(a).toHaveLength(25);
  expect(state.waiting).toEqual([]);
});

test('a consumer that fails leaves the batch for later, after a growing backoff', async () => {
  let clock = 0;
  const { state, store } = memoryOutbox(3);
  let down = true;
  const job = dispatchOutboxJob({
    outbox: store,
    consumers: [{ name: 'x', accept: () => (down ? Promise.reject(new Error('smtp')) : Promise.resolve()) }],
    batchSize: 10,
    maxBatchesPerTick: 5,
    logger: silent,
    now: () => clock,
  });
  expect(await job.run({ shouldStop: () => false })).toBe(0);
  expect(state.waiting).toHaveLength(3);
  expect(job.due!()).toBe(false);
  clock += 1000;
  expect(job.due!()).toBe(true);
  state.failing = true;
  await job.run({ shouldStop: () => false });
  clock += 1000;
  expect(job.due!()).toBe(false); // 2 s after the second failure
  clock += 1000;
  state.failing = false;
  down = false;
  expect(await job.run({ shouldStop: () => false })).toBe(3);
  expect(job.due!()).toBe(true);
});
