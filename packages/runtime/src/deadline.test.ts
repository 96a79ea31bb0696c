import { DeadlineExceeded, withDeadline } from './deadline';

/** A promise settled from outside, to decide when it answers. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('withDeadline', () => {
  it('answers with the promise when it settles in time, and clears its timer', async () => {
    jest.useFakeTimers();
    try {
      await expect(withDeadline(Promise.resolve(42), 1000, 'x')).resolves.toBe(42);
      const failure = new Error('refused');
      await expect(withDeadline(Promise.reject(failure), 1000, 'x')).rejects.toBe(failure);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('rejects with DeadlineExceeded naming what did not answer', async () => {
    const never = new Promise<never>(() => {});
    const err = await withDeadline(never, 20, 'Redis').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeadlineExceeded);
    expect(err).toMatchObject({ name: 'DeadlineExceeded', what: 'Redis', ms: 20 });
    expect((err as Error).message).toBe('no answer from Redis within 20 ms');
  });

  it('ignores an outcome that arrives after the deadline', async () => {
    const late = deferred<string>();
    const answer = withDeadline(late.promise, 10, 'slow');
    await expect(answer).rejects.toBeInstanceOf(DeadlineExceeded);
    late.resolve('too late');
    await expect(answer).rejects.toBeInstanceOf(DeadlineExceeded);
  });

  it('leaves no unhandled rejection when the promise fails after the deadline', async () => {
    // Jest fails the running test on an unhandled rejection, so this fails if the late one leaks.
    const late = deferred<never>();
    await expect(withDeadline(late.promise, 10, 'slow')).rejects.toBeInstanceOf(DeadlineExceeded);
    late.reject(new Error('late failure'));
    await sleep(20);
  });
});
