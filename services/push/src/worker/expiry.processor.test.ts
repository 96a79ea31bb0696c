import { type Job, UnrecoverableError } from 'bullmq';
import type { TickReport } from './expiry-ticker';
import { expiryProcessor } from './expiry.processor';
import type { ExpiryJobName, TickJobData } from './queues';

// The processor's dispatch against a scripted tick. (The tick's statements run against PostgreSQL
// and Redis in test/worker*.int.test.ts.)

const job = (name: string) => ({ name, data: {} }) as unknown as Job<TickJobData, string, ExpiryJobName>;

function run(name: string, report: TickReport = { expired: 3 }) {
  const calls = { tick: 0, seen: 0 };
  const process = expiryProcessor({
    tick: () => {
      calls.tick++;
      return Promise.resolve(report);
    },
    onQueueTick: () => void calls.seen++,
  });
  return { result: process(job(name)), calls };
}

describe('expiry job processor', () => {
  it('runs the tick for a tick job, and says the queue ticks', async () => {
    const { result, calls } = run('tick');
    await expect(result).resolves.toBe('expired 3');
    expect(calls).toEqual({ tick: 1, seen: 1 });
  });

  it('reports a tick skipped because another one runs in this process', async () => {
    await expect(run('tick', { expired: 0, skipped: 'busy' }).result).resolves.toBe('skipped (busy)');
  });

  it.each(['expire', 'purge', 'sweep'])(
    'completes a %s job of an earlier version without doing anything',
    async (name) => {
      const { result, calls } = run(name);
      await expect(result).resolves.toMatch(/^nothing to do/);
      expect(calls).toEqual({ tick: 0, seen: 0 });
    },
  );

  it('fails an unknown job for good', async () => {
    await expect(run('other').result).rejects.toBeInstanceOf(UnrecoverableError);
  });
});
