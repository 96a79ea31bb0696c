import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { type PushDatabase, pushMigrations } from '@secret-push/push';
import { REDIS_URL, deleteRedisKeys, freePort, freshDatabase, uniquePrefix } from '@secret-push/testing';
import { NODE_FLAGS } from './processes';
import type { BenchResult, Figure } from './report';

const N = Number(process.env.BENCH_EXPIRY_PUSHES ?? 100_000);
/** `BENCH_EXPIRY_WORKERS=1,2`: one run per entry, with that many worker processes. */
const WORKER_COUNTS = (process.env.BENCH_EXPIRY_WORKERS ?? '1,2').split(',').map(Number).filter(Boolean);
const LEAD_SECONDS = 10; // set-up time before the first window (insert, workers starting)
const SPREAD_SECONDS = 60;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function procStatus(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    peakRssMiB: Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024),
    cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100,
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * `workers` real worker processes (`main-worker.js`, default tick and batch) against 100,000 pushes
 * whose windows are spread evenly over one minute: how late each push is expired (expired_on −
 * expires_at, both by the database's clock), and how long after the last window everything is
 * expired. Nothing is queued per push (the ticks find what is due); rows are inserted in SQL (the
 * API's create path is measured by its own benchmark); the worker does not decrypt, so payloads
 * are opaque bytes.
 */
async function run(root: string, workers: number): Promise<Figure[]> {
  const database = await freshDatabase<PushDatabase>('bench_expiry', pushMigrations);
  const prefix = uniquePrefix('bench');
  const children: ChildProcess[] = [];
  const label = `${workers} worker${workers > 1 ? 's' : ''}`;
  try {
    console.log(
      `expiry (${label}): inserting ${N} pushes with windows from +${LEAD_SECONDS}s over ${SPREAD_SECONDS}s`,
    );
    await sql`
      insert into push (id, token_hash, token_sealed, key_id, kind, payload_sealed, expire_after_days,
                        expire_after_views, expires_at, retrieval_step, audit_entries)
      select gen_random_uuid(), sha256(convert_to(i::text, 'UTF8')), '\\x00', 'bench', 'text', '\\x01', 1, 5,
             now() + make_interval(secs => ${LEAD_SECONDS} + i * ${SPREAD_SECONDS}::float8 / ${N}), false, 0
      from generate_series(0, ${N - 1}) as i`.execute(database.db);
    await sql`analyze push`.execute(database.db);
    for (let i = 0; i < workers; i++) {
      children.push(
        spawn(process.execPath, [...NODE_FLAGS.worker, join(root, 'services/push/dist/main-worker.js')], {
          env: {
            ...process.env,
            NODE_ENV: 'production',
            LOG_LEVEL: 'warn',
            PUSH_DATABASE_URL: database.url,
            PUSH_REDIS_URL: REDIS_URL,
            PUSH_REDIS_PREFIX: prefix,
            PUSH_WORKER_PORT: String(await freePort()),
            // The worker unseals emails' links with these (issue 26): required since then.
            PUSH_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
            PUSH_PUBLIC_URL: 'https://push.example.org',
          },
          stdio: ['ignore', 'inherit', 'inherit'],
        }),
      );
    }
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
    const procs = children.map((c) => procStatus(c.pid!));
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
    return [
      { name: `${label}: expiry lag p50`, value: round(Number(s.p50)), unit: 's' },
      {
        name: `${label}: expiry lag p99`,
        value: round(Number(s.p99)),
        unit: 's',
        target: '≤ 1 s',
        pass: Number(s.p99) <= 1,
      },
      { name: `${label}: expiry lag max`, value: round(Number(s.max)), unit: 's' },
      {
        name: `${label}: all expired after the last window`,
        value: round(afterLast),
        unit: 's',
        target: '≤ 30 s',
        pass: allExpiredAt !== undefined && afterLast <= 30,
      },
      {
        name: `${label}: expire_by_time audit entries (exactly once)`,
        value: Number(s.audits),
        unit: `of ${N}`,
        pass: Number(s.audits) === N,
      },
      {
        name: `${label}: worker CPU over the run (all workers)`,
        value: round(procs.reduce((a, p) => a + p.cpuSeconds, 0)),
        unit: 's',
      },
      {
        name: `${label}: worker peak RSS (largest)`,
        value: Math.max(...procs.map((p) => p.peakRssMiB)),
        unit: 'MiB',
      },
    ];
  } finally {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }),
    );
    await database.drop();
    await deleteRedisKeys(REDIS_URL, prefix);
  }
}

export async function expiryBenchmark(root: string): Promise<BenchResult> {
  const figures: Figure[] = [];
  for (const workers of WORKER_COUNTS) figures.push(...(await run(root, workers)));
  return {
    benchmark: 'Expiry by time',
    description: `${N} pushes, windows spread evenly over ${SPREAD_SECONDS} s, nothing queued per push; worker processes (${WORKER_COUNTS.join(', then ')}) ticking every ${process.env.PUSH_WORKER_TICK_MS ?? 'default, 250'} ms, batches of ${process.env.PUSH_SWEEP_BATCH_SIZE ?? 'default, 500'}; worker Node flags \`${NODE_FLAGS.worker.join(' ')}\` (the pod's).`,
    figures,
  };
}
