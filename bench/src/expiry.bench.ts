import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { sql } from 'kysely';
import { type PushDatabase, pushMigrations } from '@secret-push/push';
import { REDIS_URL, deleteRedisKeys, freePort, freshDatabase, uniquePrefix } from '@secret-push/testing';
import type { BenchResult } from './report';

const N = Number(process.env.BENCH_EXPIRY_PUSHES ?? 100_000);
const LEAD_SECONDS = 30; // set-up time before the first window
const SPREAD_SECONDS = 60;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/**
 * 100,000 pushes whose windows are spread evenly over one minute, their delayed jobs queued as
 * the API queues them, and one real worker process (`main-worker.js`, default concurrency and sweep):
 * how late each push is expired (expired_on − expires_at, both by the database's clock), and how
 * long after the last window everything is expired. Rows are inserted in SQL (the API's create path
 * is measured by its own benchmark); the worker does not decrypt, so payloads are opaque bytes.
 */
export async function expiryBenchmark(root: string): Promise<BenchResult> {
  const database = await freshDatabase<PushDatabase>('bench_expiry', pushMigrations);
  const prefix = uniquePrefix('bench');
  const queue = new Queue('push-expiry', {
    connection: { host: '127.0.0.1', port: 6379 },
    prefix: `${prefix}bull`,
  });
  let worker: ReturnType<typeof spawn> | undefined;
  try {
    console.log(`expiry: inserting ${N} pushes with windows from +${LEAD_SECONDS}s over ${SPREAD_SECONDS}s`);
    await sql`
      insert into push (id, token_hash, token_sealed, key_id, kind, payload_sealed, expire_after_days,
                        expire_after_views, expires_at, retrieval_step, audit_entries)
      select gen_random_uuid(), sha256(convert_to(i::text, 'UTF8')), '\\x00', 'bench', 'text', '\\x01', 1, 5,
             now() + make_interval(secs => ${LEAD_SECONDS} + i * ${SPREAD_SECONDS}::float8 / ${N}), false, 0
      from generate_series(0, ${N - 1}) as i`.execute(database.db);
    const { rows } = await sql<{ id: string; ms: number }>`
      select id, (extract(epoch from expires_at) * 1000)::float8 as ms from push`.execute(database.db);
    console.log('expiry: queueing delayed jobs');
    const queueStart = Date.now();
    for (let i = 0; i < rows.length; i += 5000) {
      await queue.addBulk(
        rows.slice(i, i + 5000).map((r) => ({
          name: 'expire',
          data: { pushId: r.id },
          opts: {
            jobId: `expire-${r.id}`,
            delay: Math.max(0, r.ms - Date.now()),
            removeOnComplete: true,
            attempts: 8,
          },
        })),
      );
    }
    const queueSeconds = (Date.now() - queueStart) / 1000;

    worker = spawn(process.execPath, [join(root, 'services/push/dist/main-worker.js')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        PUSH_DATABASE_URL: database.url,
        PUSH_REDIS_URL: REDIS_URL,
        PUSH_REDIS_PREFIX: prefix,
        PUSH_WORKER_PORT: String(await freePort()),
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const { rows: last } = await sql<{
      ms: number;
    }>`select (extract(epoch from max(expires_at)) * 1000)::float8 as ms from push`.execute(database.db);
    const lastWindow = last[0]!.ms;
    let allExpiredAt: number | undefined;
    while (Date.now() < lastWindow + 120_000) {
      const { rows: c } = await sql<{ n: string }>`select count(*) as n from push where not expired`.execute(
        database.db,
      );
      if (Number(c[0]!.n) === 0) {
        allExpiredAt = Date.now();
        break;
      }
      await sleep(250);
    }
    const workerRss = peakRssMiB(worker.pid!);
    const { rows: stats } = await sql<{
      p50: number;
      p99: number;
      max: number;
      last_done: number;
      audits: string;
    }>`
      select percentile_cont(0.5) within group (order by extract(epoch from expired_on - expires_at)) as p50,
             percentile_cont(0.99) within group (order by extract(epoch from expired_on - expires_at)) as p99,
             max(extract(epoch from expired_on - expires_at))::float8 as max,
             (extract(epoch from max(expired_on)) * 1000)::float8 as last_done,
             (select count(*) from audit_entry where kind = 'expire_by_time') as audits
      from push where expired`.execute(database.db);
    const s = stats[0]!;
    const afterLast = ((allExpiredAt !== undefined ? s.last_done : Date.now()) - lastWindow) / 1000;
    const round = (x: number) => Math.round(x * 1000) / 1000;
    return {
      benchmark: 'Expiry by time',
      description: `${N} pushes, windows spread evenly over ${SPREAD_SECONDS} s, one worker process (concurrency ${process.env.PUSH_WORKER_CONCURRENCY ?? 'default, 64'}), delayed jobs queued with addBulk in ${round(queueSeconds)} s.`,
      figures: [
        { name: 'expiry lag p50', value: round(Number(s.p50)), unit: 's' },
        {
          name: 'expiry lag p99',
          value: round(Number(s.p99)),
          unit: 's',
          target: '≤ 1 s',
          pass: Number(s.p99) <= 1,
        },
        { name: 'expiry lag max', value: round(Number(s.max)), unit: 's' },
        {
          name: 'all expired after the last window',
          value: round(afterLast),
          unit: 's',
          target: '≤ 30 s',
          pass: allExpiredAt !== undefined && afterLast <= 30,
        },
        {
          name: 'expire_by_time audit entries (exactly once)',
          value: Number(s.audits),
          unit: `of ${N}`,
          pass: Number(s.audits) === N,
        },
        { name: 'worker peak RSS', value: workerRss, unit: 'MiB' },
      ],
    };
  } finally {
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await new Promise((r) => worker!.once('exit', r));
    }
    await queue.close();
    await database.drop();
    await deleteRedisKeys(REDIS_URL, prefix);
  }
}
