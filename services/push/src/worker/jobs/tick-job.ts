/**
 * A job of the worker's tick (worker/ticker.ts). Each tick runs the `awaited` jobs one after the
 * other (the tick lasts as long as they do, and fails when one fails), then starts each
 * `background` job that is due and not still running from an earlier tick (never awaited: a slow
 * dependency of one never delays the next tick). A job finds its work in the database, so any
 * worker's tick can do it; `SKIP LOCKED` shares the rows between workers.
 *
 * A new job is one module in worker/jobs/ and one line in worker/jobs/registry.ts.
 */
export interface TickJob {
  /** Its name in the tick's report and logs (kebab-case). */
  readonly name: string;
  readonly mode: 'awaited' | 'background';
  /** Whether it should start now (a background job's interval or backoff); absent: every tick. */
  due?(): boolean;
  /**
   * Does the job's work; `shouldStop()` turns true when the worker closes (stop before the next
   * statement). Resolves to how many items it handled. A background job handles its own failures
   * (logs, backoff); one that still rejects is logged by the ticker.
   */
  run(control: { shouldStop: () => boolean }): Promise<number>;
}
