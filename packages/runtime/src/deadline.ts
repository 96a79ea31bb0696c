/** A promise given a deadline did not settle within it. */
export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';

  constructor(
    /** What was waited for, as the message names it (`no answer from Redis within 500 ms`). */
    readonly what: string,
    readonly ms: number,
  ) {
    super(`no answer from ${what} within ${ms} ms`);
  }
}

/**
 * `promise`'s outcome if it settles within `ms`, else a rejection with DeadlineExceeded. The timer
 * is cleared as soon as either happens, and a rejection of `promise` after the deadline is
 * swallowed (the caller has already been answered), never reported as unhandled.
 */
export function withDeadline<T>(promise: PromiseLike<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(what, ms)), ms);
  });
  const work = Promise.resolve(promise);
  work.catch(() => {}); // a failure after the deadline: the caller was already answered
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
