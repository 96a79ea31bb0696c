import request from 'supertest';
import { type ConnectionOptions, Queue } from 'bullmq';
import { sql } from 'kysely';
import { createLogger } from '@secret-push/logger';
import { createRedis } from '@secret-push/redis-kit';
import { startPrivateRedis } from '@secret-push/testing';
import { loadPushConfig } from '../config';
import { createPushService } from '../domain/push-service';
import type { NewPush } from '../domain/push';
import { createPassphraseLimiter } from '../http/rate-limits';
import { KeyRing } from '../security/key-ring';
import { createPushRepository } from '../storage/push.repository';
import { type TestPush, startPush, startTestWorker } from '../testing';
import { createExpiryScheduler } from '../worker/expiry-scheduler';
import {
  EXPIRY_QUEUE,
  type ExpireJobData,
  type ExpiryJobName,
  bullConnection,
  bullPrefix,
  expireJobId,
  closeBull,
} from '../worker/queues';
import type { ExpiryWorkerService } from '../worker-server';
import { type Harness, createPush, harness, waitFor } from './helpers';

// Real workers, real delays: these tests wait for seconds-long windows.
jest.setTimeout(90_000);

const silent = createLogger({ name: 'test', level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.stop());

/** The domain service wired as the API wires it, so pushes can get windows of seconds. */
async function domainService(push: TestPush) {
  const config = loadPushConfig(push.env);
  const redis = createRedis(config.redis.url, silent);
  const queue = new Queue<ExpireJobData, unknown, ExpiryJobName>(EXPIRY_QUEUE, {
    connection: redis as unknown as ConnectionOptions,
    prefix: bullPrefix(config.redis.prefix),
  });
  const service = createPushService({
    store: createPushRepository(push.db),
    keyRing: new KeyRing(config.encryptionKeys),
    passphraseLimiter: createPassphraseLimiter(redis, { prefix: config.redis.prefix, perPush: 5, perIp: 30 }),
    events: createExpiryScheduler(queue, silent),
    maxAuditEntries: 2000,
    fileGraceSeconds: 600,
  });
  const input = (ttlSeconds: number): NewPush => ({
    kind: 'text',
    payload: 'short-lived secret',
    ttlSeconds,
    expireAfterDays: 1,
    expireAfterViews: 5,
    deletableByViewer: true,
    retrievalStep: false,
    passphrase: null,
    name: null,
    note: 'n',
  });
  await queue.waitUntilReady();
  return {
    queue,
    create: async (ttlSeconds: number) =>
      (await service.create(input(ttlSeconds), null, { ip: null, userAgent: '', referrer: '' })).snapshot
        .push,
    async close() {
      await closeBull(queue, 2000);
      redis.disconnect();
    },
  };
}

interface Row {
  expired: boolean;
  payload_sealed: Buffer | null;
  lag_ms: number | null;
  expiries: string;
}
const state = async (db: TestPush['db'], id: string): Promise<Row> =>
  (
    await sql<Row>`
      select expired, payload_sealed,
             (extract(epoch from expired_on - expires_at) * 1000)::float8 as lag_ms,
             (select count(*) from audit_entry a where a.push_id = p.id and a.kind = 'expire_by_time') as expiries
      from push p where id = ${id}`.execute(db)
  ).rows[0]!;

const expiredAmong = async (db: TestPush['db'], ids: string[]): Promise<number> =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from push where id = any(${ids}) and expired`.execute(db))
      .rows[0]!.n,
  );

/** A domain service and one worker on the shared harness, closed afterwards whatever happens. */
async function withWorker(
  env: Record<string, string>,
  body: (svc: Awaited<ReturnType<typeof domainService>>, worker: ExpiryWorkerService) => Promise<void>,
): Promise<void> {
  const svc = await domainService(h.push);
  const worker = await startTestWorker(h.push, env);
  try {
    await body(svc, worker);
  } finally {
    await worker.close();
    await svc.close();
  }
}

describe('expiry worker', () => {
  it('expires a push within about a second of its window, with no read, exactly once', async () => {
    await withWorker({}, async (svc, worker) => {
      const push = await svc.create(2);
      expect(await (await svc.queue.getJob(expireJobId(push.id)))?.isDelayed()).toBe(true);
      await waitFor(async () => (await state(h.push.db, push.id)).expired, 10_000);
      const row = await state(h.push.db, push.id);
      expect(row.payload_sealed).toBeNull();
      // Never early; and the delayed job did it (this worker's sweep runs hourly). How late it is
      // under load is a benchmark figure (pnpm bench expiry: lag p99), not a timed assertion here.
      expect(row.lag_ms).toBeGreaterThanOrEqual(0);
      expect(row.lag_ms).toBeLessThan(8000);
      expect(row.expiries).toBe('1');

      // Idempotent: the same job again changes nothing and audits nothing.
      await svc.queue.add('expire', { pushId: push.id }, { jobId: `${expireJobId(push.id)}-again` });
      await sleep(500);
      expect((await state(h.push.db, push.id)).expiries).toBe('1');

      const metrics = await request(worker.url).get('/metrics');
      expect(metrics.text).toMatch(/push_expiry_lag_seconds_count \d+/);
      expect(metrics.text).toContain('push_worker_jobs_total{name="expire",outcome="completed"}');
      expect((await request(worker.url).get('/readyz')).body).toEqual({
        status: 'ready',
        checks: { database: 'ok', redis: 'ok' },
      });
      expect((await request(worker.url).get('/metrics')).text).toContain(
        'push_worker_dependency_up{dependency="redis"} 1',
      );
    });
  });

  it('never expires early: a job that fires before the window (clock skew) is delayed again', async () => {
    await withWorker({}, async (svc) => {
      const push = await svc.create(2);
      await svc.queue.remove(expireJobId(push.id));
      await svc.queue.add('expire', { pushId: push.id }, { jobId: `${expireJobId(push.id)}-early` });
      await sleep(800);
      expect((await state(h.push.db, push.id)).expired).toBe(false);
      await waitFor(async () => (await state(h.push.db, push.id)).expired, 10_000);
      const row = await state(h.push.db, push.id);
      expect(row.lag_ms).toBeGreaterThanOrEqual(0);
      expect(row.lag_ms).toBeLessThan(8000);
    });
  });

  it('expires by the sweep a push whose job was lost', async () => {
    await withWorker({ PUSH_SWEEP_INTERVAL_SECONDS: '1' }, async (svc, worker) => {
      const push = await svc.create(1);
      expect(await svc.queue.remove(expireJobId(push.id))).toBe(1);
      await waitFor(async () => (await state(h.push.db, push.id)).expired, 5000);
      expect(await state(h.push.db, push.id)).toMatchObject({ payload_sealed: null, expiries: '1' });
      expect((await request(worker.url).get('/metrics')).text).toContain(
        'push_worker_jobs_total{name="sweep",outcome="completed"}',
      );
    });
  });

  it('with two workers (jobs and sweeps racing), expires every push exactly once', async () => {
    const svc = await domainService(h.push);
    const workers = [
      await startTestWorker(h.push, { PUSH_SWEEP_INTERVAL_SECONDS: '1', PUSH_SWEEP_BATCH_SIZE: '7' }),
      await startTestWorker(h.push, { PUSH_SWEEP_INTERVAL_SECONDS: '1', PUSH_SWEEP_BATCH_SIZE: '7' }),
    ];
    try {
      const pushes = await Promise.all(Array.from({ length: 120 }, (_, i) => svc.create(1 + (i % 3))));
      const ids = pushes.map((p) => p.id);
      await waitFor(async () => {
        return (await expiredAmong(h.push.db, ids)) === ids.length;
      }, 15_000);
      const { rows } = await sql<{ push_id: string; n: string }>`
        select push_id, count(*) as n from audit_entry where push_id = any(${ids}) and kind = 'expire_by_time' group by push_id`.execute(
        h.push.db,
      );
      expect(rows).toHaveLength(ids.length);
      expect(rows.every((r) => r.n === '1')).toBe(true);
    } finally {
      await Promise.all(workers.map((w) => w.close()));
      await svc.close();
    }
  });

  it('loses no job on shutdown: close() finishes running jobs, the rest stay queued for the next worker', async () => {
    const svc = await domainService(h.push);
    const pushes: { id: string }[] = [];
    for (let i = 0; i < 6; i++) {
      pushes.push(...(await Promise.all(Array.from({ length: 100 }, () => svc.create(3)))));
    }
    const ids = pushes.map((p) => p.id);
    const expiredCount = () => expiredAmong(h.push.db, ids);
    const first = await startTestWorker(h.push, { PUSH_WORKER_CONCURRENCY: '2' });
    await waitFor(async () => (await expiredCount()) >= 10, 10_000);
    await first.close(); // what SIGTERM does: running jobs finish, nothing new starts
    expect(await expiredCount()).toBeLessThan(600);

    const { rows } = await sql<{
      id: string;
    }>`select id from push where id = any(${ids}) and not expired`.execute(h.push.db);
    const states = await Promise.all(
      rows.map(async (r) => (await svc.queue.getJob(expireJobId(r.id)))?.getState()),
    );
    expect(states.every((s) => s === 'waiting' || s === 'delayed' || s === 'prioritized')).toBe(true);

    const second = await startTestWorker(h.push);
    try {
      await waitFor(async () => (await expiredCount()) === 600, 60_000).catch(async (err: unknown) => {
        // Say where the missing pushes' jobs are, so that a failure can be diagnosed from CI's log.
        const { rows: left } = await sql<{
          id: string;
        }>`select id from push where id = any(${ids}) and not expired`.execute(h.push.db);
        const jobs = await Promise.all(
          left.map(async (r) => {
            const job = await svc.queue.getJob(expireJobId(r.id));
            return {
              id: r.id,
              state: await job?.getState(),
              attempts: job?.attemptsMade,
              reason: job?.failedReason,
            };
          }),
        );
        throw new Error(`${String(err)}: ${JSON.stringify(jobs.slice(0, 5))} (${left.length} left)`);
      });
    } finally {
      await second.close();
      await svc.close();
    }
  });
});

describe('with Redis down at create time (a private redis-server)', () => {
  it('still creates (201), and once Redis is back the sweep expires the push', async () => {
    const redis = await startPrivateRedis();
    const push = await startPush(h.auth, { env: { PUSH_REDIS_URL: redis.url } });
    try {
      await redis.stop();
      const res = await createPush(push.url, {
        payload: 'created while redis is down',
        expire_after_duration: 0,
      });
      expect(res.status).toBe(201);
      expect((await request(push.metricsUrl).get('/metrics')).text).toContain(
        'push_expiry_schedule_failures_total 1',
      );
      // Fifteen minutes later, in one statement:
      await sql`update push set expires_at = now() - interval '1 second'`.execute(push.db);
      await redis.start();
      const worker = await startTestWorker(push, { PUSH_SWEEP_INTERVAL_SECONDS: '1' });
      try {
        const { rows } = await sql<{ id: string }>`select id from push`.execute(push.db);
        await waitFor(async () => (await state(push.db, rows[0]!.id)).expired, 6000);
      } finally {
        await worker.close();
      }
    } finally {
      await push.stop();
      await redis.stop();
    }
  });
});

describe('scheduling from the API', () => {
  it('queues one delayed job per created push, firing at expires_at, and drops it when the push expires otherwise', async () => {
    const queue = new Queue<ExpireJobData, unknown, ExpiryJobName>(EXPIRY_QUEUE, {
      connection: bullConnection(h.push.env.PUSH_REDIS_URL!, 'producer'),
      prefix: bullPrefix(h.push.env.PUSH_REDIS_PREFIX!),
    });
    try {
      const res = await createPush(h.push.url, { payload: 'x', expire_after_duration: 0 });
      const { rows } = await sql<{
        id: string;
      }>`select id from push where token_hash = sha256(convert_to(${res.body.url_token}, 'UTF8'))`.execute(
        h.push.db,
      );
      const job = await queue.getJob(expireJobId(rows[0]!.id));
      expect(job?.data).toEqual({ pushId: rows[0]!.id });
      expect(job!.timestamp + job!.delay).toBeGreaterThanOrEqual(Date.parse(res.body.expires_at) - 50);
      expect(job!.timestamp + job!.delay).toBeLessThanOrEqual(Date.parse(res.body.expires_at) + 1000);

      await request(h.push.url).delete(`/api/v2/pushes/${res.body.url_token}`);
      expect(await queue.getJob(expireJobId(rows[0]!.id))).toBeUndefined();
    } finally {
      await queue.close();
    }
  });
});
