import type { OutboxEvent } from '../outbox';

/** The outbox table (see domain/outbox.ts). */
export interface OutboxStore {
  /**
   * One round: locks up to `limit` events, oldest first, skipping those another round holds;
   * hands them to `handle`; deletes them when it resolves, all in one transaction (if `handle`
   * rejects, or the process dies, nothing is deleted and the events are the next round's). The
   * number of events handled.
   */
  drain(limit: number, handle: (events: readonly OutboxEvent[]) => Promise<void>): Promise<number>;
  /** Age in seconds of the oldest event waiting (0 when none): the outbox lag. */
  oldestAgeSeconds(): Promise<number>;
}
