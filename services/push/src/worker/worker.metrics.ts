import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram } from 'prom-client';
import { createMetricsRegistry } from '@secret-push/runtime';

/** Prometheus metrics of the expiry worker. */
export function createWorkerMetrics(queue: Queue) {
  const registry = createMetricsRegistry();
  return {
    registry,
    expiryLag: new Histogram({
      name: 'push_expiry_lag_seconds',
      help: 'Actual expiry time minus expires_at, for pushes this worker expired by time',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'push_worker_jobs_total',
      help: 'Jobs finished, by name and outcome',
      labelNames: ['name', 'outcome'],
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: 'push_expiry_queue_jobs',
      help: 'Jobs in the expiry queue, by state',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        const counts = await queue
          .getJobCounts('waiting', 'delayed', 'active', 'failed')
          .catch(() => undefined);
        for (const [state, n] of Object.entries(counts ?? {})) this.set({ state }, n);
      },
    }),
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
