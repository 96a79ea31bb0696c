import { Counter, Gauge, Histogram } from 'prom-client';
import { createMetricsRegistry, withDeadline } from '@secret-push/runtime';

/** `push_expiry_due` counts at most this many (one bounded walk of the partial index per scrape). */
export const DUE_COUNT_LIMIT = 1_000_000;

/**
 * Prometheus metrics of the worker. `countDue`: the active pushes past their window, by the
 * database (collected at each scrape, within 2 s; the last value stays if it fails).
 */
export function createWorkerMetrics(deps: {
  countDue: (limit: number) => Promise<number>;
  outboxAge: () => Promise<number>;
}) {
  const registry = createMetricsRegistry();
  return {
    registry,
    expiryLag: new Histogram({
      name: 'push_expiry_lag_seconds',
      help: 'Actual expiry time minus expires_at, for pushes this worker expired by time',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    requestsClosed: new Histogram({
      name: 'push_request_close_lag_seconds',
      help: 'Actual close time minus close_after_at, for requests this worker closed by time',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'push_worker_jobs_total',
      help: 'Queue jobs finished, by name and outcome',
      labelNames: ['name', 'outcome'],
      registers: [registry],
    }),
    ticks: new Counter({
      name: 'push_worker_ticks_total',
      help: 'Ticks run by this process, by trigger (queue: the job scheduler; local: its own timer, while the queue does not tick)',
      labelNames: ['trigger'],
      registers: [registry],
    }),
    schedulerRepairs: new Counter({
      name: 'push_worker_scheduler_repairs_total',
      help: 'Times this process (re)created the tick job scheduler, by reason (created, missing, stalled, interval)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    filesPurged: new Counter({
      name: 'push_files_purged_total',
      help: 'File pushes whose stored files this process purged',
      registers: [registry],
    }),
    emails: new Counter({
      name: 'push_emails_total',
      help: 'Emails this worker tried to send, by purpose (push_link, notice_…) and outcome (sent: accepted by the SMTP server; deferred: a temporary failure, retried; failed: final)',
      labelNames: ['purpose', 'outcome'],
      registers: [registry],
    }),
    purgeFailures: new Counter({
      name: 'push_files_purge_failures_total',
      help: 'Purges that failed (the object store down?); retried with backoff',
      registers: [registry],
    }),
    outboxLag: new Histogram({
      name: 'push_outbox_lag_seconds',
      help: 'Time from an event being written (its statement) to its hand-over to the consumers, per event',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    outboxEvents: new Counter({
      name: 'push_outbox_events_total',
      help: 'Outbox events this process handed over to the consumers',
      registers: [registry],
    }),
    outboxOldest: new Gauge({
      name: 'push_outbox_oldest_seconds',
      help: 'Age of the oldest outbox event still waiting (0: none); grows when dispatch stalls',
      registers: [registry],
      async collect() {
        const n = await withDeadline(deps.outboxAge(), 2000, 'database').catch(() => undefined);
        if (n !== undefined) this.set(n);
      },
    }),
    due: new Gauge({
      name: 'push_expiry_due',
      help: 'Active pushes whose window has passed (what the next ticks expire); near 0 when the worker keeps up',
      registers: [registry],
      async collect() {
        const n = await withDeadline(deps.countDue(DUE_COUNT_LIMIT), 2000, 'database').catch(() => undefined);
        if (n !== undefined) this.set(n);
      },
    }),
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
