import { isConnectionError } from '@secret-push/db-kit';

interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Combines the calls made during one turn of the event loop into one call of `runMany`: every
 * request whose socket became readable in that turn (the poll phase) gets there before the batch
 * is sent (the check phase, `setImmediate`), so under load concurrent requests share one statement
 * (one round trip, one socket write and read, one commit) instead of one each. A lone call waits
 * for nothing but the end of the current turn.
 *
 * Failure stays per call: when a batch of several fails for any reason but a connection-class
 * error (the database down, frozen or over its deadline, which every call would meet anyway), each
 * call is run again on its own (`runOne`), so that nothing one request sent can fail another's.
 * `runMany` answers one result per item, in order.
 */
export function turnBatcher<T, R>(
  runMany: (items: T[]) => Promise<R[]>,
  runOne: (item: T) => Promise<R>,
): (item: T) => Promise<R> {
  let pending: Pending<T, R>[] = [];
  const settle = (batch: Pending<T, R>[]) => {
    runMany(batch.map((p) => p.item)).then(
      (results) => batch.forEach((p, i) => p.resolve(results[i]!)),
      (err: unknown) => {
        if (batch.length === 1 || isConnectionError(err)) {
          for (const p of batch) p.reject(err);
          return;
        }
        for (const p of batch) runOne(p.item).then(p.resolve, p.reject);
      },
    );
  };
  const flush = () => {
    const batch = pending;
    pending = [];
    settle(batch);
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ item, resolve, reject });
    });
}
