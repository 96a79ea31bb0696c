/**
 * Closing requests by time (issue 28): a request is open (waiting for its answer) or answered until
 * its window (`close_after_at`) passes; then the worker's tick closes it, like push expiry. One rule,
 * written once here and applied by the store's statement (storage/request/close-due.sql.ts):
 *
 * - due: state `open` or `answered`, and `close_after_at` at or before the database's now;
 * - the close: state `closed`, `closed_reason` `time`, `closed_at` now; a `close_by_time` audit entry;
 *   the requester's attachments released for purging now (`files_purge_after`); and, when somebody
 *   listens to the request (`request.outbox`), a `request_closed` outbox event tied to that entry —
 *   all in the statement that closes it, so each request is closed, audited and announced once
 *   whatever the number of workers ticking.
 *
 * The answer push, if any, is a push like any other: closing the request does not touch it (its own
 * window and views decide its life).
 */

export type RequestState = 'open' | 'answered' | 'closed';

/** The states the window applies to. */
export const CLOSABLE_STATES: readonly RequestState[] = ['open', 'answered'];

/** The audit kind and the event kind of a close by time, and the reason recorded. */
export const CLOSE_BY_TIME = { audit: 'close_by_time', event: 'request_closed', reason: 'time' } as const;

/** Whether a request is past its window and still to be closed (what the statement selects). */
export function isDueToClose(request: { state: RequestState; closeAfterAt: Date }, now: Date): boolean {
  return CLOSABLE_STATES.includes(request.state) && request.closeAfterAt.getTime() <= now.getTime();
}

/** A request the worker closed by time (for its metrics and logs: no secret). */
export interface ClosedByTime {
  id: string;
  owner: string;
  /** The state it was closed from. */
  from: 'open' | 'answered';
  closeAfterAt: Date;
  closedAt: Date;
  /** An event was written (somebody listens). */
  announced: boolean;
}

/** Seconds between the end of the window and the close (the closing lag; never negative). */
export const closingLagSeconds = (r: Pick<ClosedByTime, 'closeAfterAt' | 'closedAt'>): number =>
  Math.max(0, (r.closedAt.getTime() - r.closeAfterAt.getTime()) / 1000);

/** What closing by time needs from the database (storage/request-closing.repository.ts). */
export interface RequestClosingStore {
  /**
   * Closes up to `batch` due requests in one statement, oldest window first, skipping rows another
   * worker (or an answer, or an owner's close) holds (`SKIP LOCKED`); returns what it closed.
   */
  closeDueBatch(batch: number): Promise<ClosedByTime[]>;
}

export interface CloseDueOptions {
  /** Statements at most; what is left stays for the next call. Default 1000. */
  maxBatches?: number;
  /** Checked before each statement: true ends the call early (shutdown). */
  shouldStop?: () => boolean;
}

/** The worker's use case: closes every due request, `batchSize` per statement, until a batch comes back short. */
export function createRequestClosing(deps: { store: RequestClosingStore }) {
  return {
    async closeDue(batchSize: number, options: CloseDueOptions = {}): Promise<ClosedByTime[]> {
      const { maxBatches = 1000, shouldStop = () => false } = options;
      const all: ClosedByTime[] = [];
      for (let i = 0; i < maxBatches && !shouldStop(); i++) {
        const batch = await deps.store.closeDueBatch(batchSize);
        all.push(...batch);
        if (batch.length < batchSize) break;
      }
      return all;
    },
  };
}

export type RequestClosing = ReturnType<typeof createRequestClosing>;
