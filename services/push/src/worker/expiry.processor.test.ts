import { DelayedError, type Job } from 'bullmq';
import type { Expiry } from '../domain/expiry';
import type { PushSnapshot } from '../domain/push';
import { expiryProcessor } from './expiry.processor';
import type { ExpireJobData, ExpiryJobName } from './queues';

// The processor's decision logic against a scripted expiry port: each call to the port answers
// the next scripted value, so the races between its two statements can be replayed exactly.
// (The real statements are exercised against PostgreSQL and Redis in worker.int.test.ts.)

const snapshot = { push: { id: 'p1' } } as unknown as PushSnapshot;

function scripted(
  expireAnswers: (PushSnapshot | undefined)[],
  msAnswers: (number | undefined)[],
  dueNow: PushSnapshot[] = [],
) {
  const calls = { expire: 0, ms: 0 };
  const expiry = {
    expireIfPastWindow: () => Promise.resolve(expireAnswers[calls.expire++]),
    msUntilWindowEnds: () => Promise.resolve(msAnswers[calls.ms++]),
    sweep: () => Promise.resolve(dueNow),
  } as unknown as Expiry;
  return { expiry, calls };
}

function expireJob() {
  const delayedTo: number[] = [];
  const job = {
    name: 'expire',
    data: { pushId: 'p1' },
    moveToDelayed: (ts: number) => {
      delayedTo.push(ts);
      return Promise.resolve();
    },
  } as unknown as Job<ExpireJobData, unknown, ExpiryJobName>;
  return { job, delayedTo };
}

function run(expiry: Expiry, job: Job<ExpireJobData, unknown, ExpiryJobName>) {
  const expired: PushSnapshot[] = [];
  const process = expiryProcessor({
    expiry,
    sweepBatchSize: 10,
    staleUploadSeconds: 3600,
    onExpired: (s) => expired.push(s),
  });
  return { result: process(job, 'token'), expired };
}

describe('expire job processor', () => {
  it('expires a due push', async () => {
    const { expiry } = scripted([snapshot], []);
    const { result, expired } = run(expiry, expireJob().job);
    await expect(result).resolves.toBe('expired');
    expect(expired).toEqual([snapshot]);
  });

  it('expires every push that is due in one batch, this one included', async () => {
    const other = { push: { id: 'p2' } } as unknown as PushSnapshot;
    const { expiry, calls } = scripted([], [], [other, snapshot]);
    const { result, expired } = run(expiry, expireJob().job);
    await expect(result).resolves.toBe('expired, with 1 others');
    expect(expired).toEqual([other, snapshot]);
    expect(calls).toEqual({ expire: 0, ms: 0 });
  });

  it('when the window ends between its two statements, expires on the next try instead of completing', async () => {
    const { expiry, calls } = scripted([undefined, snapshot], [-0.4]);
    const { result, expired } = run(expiry, expireJob().job);
    await expect(result).resolves.toBe('expired');
    expect(expired).toHaveLength(1);
    expect(calls).toEqual({ expire: 2, ms: 1 });
  });

  it('fired early: delays itself again by the time left', async () => {
    const { expiry } = scripted([undefined], [1500]);
    const { job, delayedTo } = expireJob();
    const before = Date.now();
    await expect(run(expiry, job).result).rejects.toBeInstanceOf(DelayedError);
    expect(delayedTo[0]).toBeGreaterThanOrEqual(before + 1500);
  });

  it('does nothing for a push that is gone or already expired', async () => {
    const { expiry } = scripted([undefined], [undefined]);
    await expect(run(expiry, expireJob().job).result).resolves.toBe('nothing to do');
  });

  it('fails (and is retried with backoff) rather than complete while the push stays active past its window', async () => {
    const { expiry } = scripted([undefined, undefined, undefined], [0, 0, 0]);
    await expect(run(expiry, expireJob().job).result).rejects.toThrow('push still active');
  });
});
