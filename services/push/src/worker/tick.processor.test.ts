import { type Job, UnrecoverableError } from 'bullmq';
import type { QueueJobName, TickJobData } from './queues';
import { tickProcessor } from './tick.processor';
import type { TickReport } from './ticker';

// The processor's dispatch against a scripted tick. (The tick's statements run against PostgreSQL
// and Redis in test/worker*.int.test.ts.)

const job = (name: string) => ({ name, data: {} }) as unknown as Job<TickJobData, string, QueueJobName>;

function run(name: string, report: TickReport = { done: { 'expire-due': 3, other: 0 } }) {
  const calls = { tick: 0, seen: 0 };
  const process = tickProcessor({
    tick: () => {
      calls.tick++;
      return Promise.resolve(report);
    },
    onQueueTick: () => void calls.seen++,
  });
  return { result: process(job(name)), calls };
}

describe('tick job processor', () => {
  it('runs the tick for a tick job, and says the queue ticks', async () => {
    const { result, calls } = run('tick');
    await expect(result).resolves.toBe('expire-due 3, other 0');
    expect(calls).toEqual({ tick: 1, seen: 1 });
  });

  it('reports a tick skipped because another one runs in this process', async () => {
    await expect(run('tick', { done: {}, skipped: 'busy' }).result).resolves.toBe('skipped (busy)');
  });

  it.each(['other', 'expire', 'purge', 'sweep'])(
    'fails an unknown job (%s) for good, without ticking',
    async (name) => {
      const { result, calls } = run(name);
      await expect(result).rejects.toBeInstanceOf(UnrecoverableError);
      expect(calls).toEqual({ tick: 0, seen: 0 });
    },
  );
});
