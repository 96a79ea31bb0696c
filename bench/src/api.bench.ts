import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import { join } from 'node:path';
import { runAuthMigrations } from '@secret-push/auth';
import { createClient } from '@secret-push/client';
import { basic, token } from './auth-client';
import { dropDatabase, withDatabase } from '@secret-push/db-kit';
import { runPushMigrations } from '@secret-push/push';
import {
  type PrivateRedis,
  REDIS_URL,
  deleteRedisKeys,
  freePort,
  startPrivateRedis,
  uniquePrefix,
} from '@secret-push/testing';
import { type LoadResult, NO_LOAD, SECONDS, load, msPerOperation, withMachineCpu } from './load';
import { insertLoop, updateLoop } from './pg-loops';
import { type Proc, NODE_FLAGS_NOTE, startProcess } from './processes';
import { redisInfo } from './redis-info';
import { SPLIT_COLUMNS, sampleCpu, splitPerOperation } from './cpu-split';
import { startServiceStack } from './stack';
import {
  EXPRESS_CEILING,
  PAGE_SIZE,
  cpuTargetFigures,
  fullActivePage,
  rssAfterIdle,
  rssFigures,
  speedFactor,
} from './api-targets';
import type { BenchResult, Figure } from './report';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const POOL = 10; // the services' default pool size
const PAYLOAD_1KB = 'x'.repeat(1024);
/** `BENCH_ONLY=regex`: only the runs whose name matches (profiling one endpoint); the others are left out. */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const wanted = (name: string) => !ONLY || ONLY.test(name);
/** Creates of the Redis-memory run (`BENCH_REDIS_MEMORY_PUSHES`, default 100,000). */
const REDIS_MEMORY_PUSHES = Number(process.env.BENCH_REDIS_MEMORY_PUSHES ?? 100_000);
const REDIS_MEMORY_RUN = 'POST /pushes: Redis memory per active push';

/**
 * Throughput and latency of the services in production mode, one process each, each next to the
 * ceiling measured in the same run (the targets are listed in docs/performance.md). Load: autocannon, 16 connections unless stated,
 * BENCH_SECONDS (default 10) per run, all on 127.0.0.1.
 */
export async function apiBenchmark(root: string): Promise<BenchResult> {
  const tag = randomBytes(4).toString('hex');
  const authDb = withDatabase(SERVER, `bench_auth_${tag}`);
  const pushDb = withDatabase(SERVER, `bench_push_${tag}`);
  const ceilingDb = withDatabase(SERVER, `bench_ceiling_${tag}`);
  const prefix = uniquePrefix('bench');
  const procs: Proc[] = [];
  let privateRedis: PrivateRedis | undefined;
  const start = async (script: string, env: Record<string, string>, ready: string) => {
    const p = await startProcess(join(root, script), env, ready);
    procs.push(p);
    return p;
  };
  try {
    await Promise.all([runAuthMigrations(authDb), runPushMigrations(pushDb), runPushMigrations(ceilingDb)]);
    const ports = {
      hello: await freePort(),
      express: await freePort(),
      oidc: await freePort(),
    };
    const {
      auth,
      push,
      worker,
      client,
      resourceServer: rs,
      pushEnv,
    } = await startServiceStack({
      authDb,
      pushDb,
      redisPrefix: prefix,
      logLevel: 'info',
      worker: true,
      pushEnv: {
        PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '1000000',
        PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE: '1000000',
      },
      start,
    });
    // Memory idle after start: ready, ~5 s of nothing, before any load or request.
    const idleRss = await rssAfterIdle({ push, worker, auth }, 5000);
    const hello = await start(
      'bench/dist/servers/http-hello.js',
      { PORT: String(ports.hello) },
      `http://127.0.0.1:${ports.hello}/`,
    );
    const bare = await start(
      'bench/dist/servers/express-json.js',
      { PORT: String(ports.express) },
      `http://127.0.0.1:${ports.express}/json`,
    );
    const oidc = await start(
      'bench/dist/servers/oidc-memory.js',
      { PORT: String(ports.oidc) },
      `http://127.0.0.1:${ports.oidc}/.well-known/openid-configuration`,
    );
    const bearer = await token(auth.url, client.client_id, client.client_secret);
    const memToken = await token(oidc.url, 'bench', 'bench-secret');

    const runs: Record<
      string,
      LoadResult & {
        cpuMs?: number;
        machineCpuMs: number;
        machineCpuSeconds: number;
        split?: ReturnType<typeof splitPerOperation>;
      }
    > = {};
    const splitSources = { push, worker, auth, redisUrl: REDIS_URL };
    /**
     * `server`: the service answering, whose CPU time per request is reported next to the
     * throughput; runs against our services (not the ceilings) also get the split by process.
     */
    const run = async (name: string, opts: Parameters<typeof load>[0], server?: Proc) => {
      if (!wanted(name)) return;
      console.log(`api: ${name}`);
      const ours = server === push || server === auth;
      const cpuBefore = server?.cpuSeconds() ?? 0;
      const sampleBefore = ours ? await sampleCpu(splitSources) : undefined;
      const result = await withMachineCpu(() => load(opts));
      const sampleAfter = ours ? await sampleCpu(splitSources) : undefined;
      runs[name] = {
        ...result,
        ...(server ? { cpuMs: msPerOperation(server.cpuSeconds() - cpuBefore, result.total) } : {}),
        ...(sampleBefore && sampleAfter
          ? { split: splitPerOperation(sampleBefore, sampleAfter, result.total) }
          : {}),
      };
    };
    /** A form POST to an OAuth endpoint with HTTP Basic client authentication. */
    const oauth = (base: string, path: string, id: string, secret: string, body: string) => ({
      url: `${base}${path}`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(id, secret) },
      body,
    });
    const grant = 'grant_type=client_credentials';
    const json = { 'content-type': 'application/json' };
    // Each endpoint is measured right after its ceiling, so that a change in the machine's load
    // between the two (other jobs on these shared cores) distorts the ratio as little as possible.
    await run('ceiling: node:http hello', { url: `${hello.url}/` }, hello);
    await run(EXPRESS_CEILING, { url: `${bare.url}/json` }, bare);
    await run('GET /api/v2/version', { url: `${push.url}/api/v2/version` }, push);
    const { client_id: id, client_secret: secret } = client;
    await run(
      'ceiling: oidc-provider token (memory)',
      oauth(oidc.url, '/connect/token', 'bench', 'bench-secret', grant),
      oidc,
    );
    await run('POST /connect/token', oauth(auth.url, '/connect/token', id, secret, grant), auth);
    const introspect = (base: string, rsId: string, rsSecret: string, t: string) =>
      oauth(base, '/connect/introspect', rsId, rsSecret, `token=${t}`);
    await run(
      'ceiling: oidc-provider introspect (memory)',
      introspect(oidc.url, 'rs', 'rs-secret', memToken),
      oidc,
    );
    await run('POST /connect/introspect', introspect(auth.url, rs.client_id, rs.client_secret, bearer), auth);
    const pgCeilings = wanted('ceiling: pg');
    const none = { rate: 0, total: 0, machineCpuMs: 0 };
    if (pgCeilings) console.log('api: ceiling: pg INSERT loop');
    const insert = pgCeilings ? await insertLoop(ceilingDb, 16, POOL) : none;
    const insertCeiling = insert.rate;
    const createBody = JSON.stringify({ push: { payload: PAYLOAD_1KB, expire_after_views: 100 } });
    await run(
      'POST /pushes anonymous 1 KB',
      {
        url: `${push.url}/api/v2/pushes`,
        method: 'POST',
        headers: json,
        body: createBody,
      },
      push,
    );
    await run(
      'POST /pushes with a bearer token',
      {
        url: `${push.url}/api/v2/pushes`,
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${bearer}` },
        body: createBody,
      },
      push,
    );
    await run(
      'POST /pushes anonymous, 64 connections',
      {
        url: `${push.url}/api/v2/pushes`,
        method: 'POST',
        headers: json,
        body: createBody,
        connections: 64,
      },
      push,
    );

    const tokens: string[] = [];
    const retrieving =
      wanted('GET /pushes/:token (uses a view)') || wanted('GET /pushes/:token, 64 connections');
    // Set-up: the pushes the retrieve runs use up, made through the SDK (anonymous, as the load's).
    const anonymous = createClient({ baseUrl: push.url });
    for (let i = 0; i < (retrieving ? 1000 : 0); i++) {
      const created = await anonymous.create({ payload: PAYLOAD_1KB, expire_after_views: 100 });
      tokens.push(created.url_token);
    }
    let next = 0;
    const retrieve = {
      url: `${push.url}/api/v2/pushes/x`,
      requests: [
        {
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            path: `/api/v2/pushes/${tokens[next++ % tokens.length]}`,
          }),
        },
      ],
    };
    if (pgCeilings) console.log('api: ceiling: pg consume-UPDATE loop');
    const update = pgCeilings ? await updateLoop(ceilingDb, 16, POOL) : none;
    const updateCeiling = update.rate;
    await run('GET /pushes/:token (uses a view)', retrieve, push);
    await run('GET /pushes/:token, 64 connections', { ...retrieve, connections: 64 }, push);
    // A full page of the bearer's active pushes (made if missing), the table analyzed first.
    const activePage = wanted('GET /pushes/active') ? await fullActivePage(push.url, pushDb, bearer) : 0;
    await run(
      'GET /pushes/active',
      {
        url: `${push.url}/api/v2/pushes/active`,
        headers: { authorization: `Bearer ${bearer}` },
      },
      push,
    );
    // Memory after the load runs on these processes, idle again (the Redis-memory run has its own).
    const afterLoadRss = await rssAfterIdle({ push, worker, auth }, 10_000);

    // Redis memory and CPU per create: a push API of its own on a redis-server of its own (nothing
    // else writes there), REDIS_MEMORY_PUSHES creates through HTTP, INFO before and after. Each
    // push stays active (7 days): Redis must hold nothing per push (target: used_memory grows by at
    // most 1 MiB whatever the count). A warm-up of 1,000 creates comes first (connections, the
    // rate limit's key).
    let redisMemory: { growthBytes: number; redisCpuUs: number } | undefined;
    if (wanted(REDIS_MEMORY_RUN)) {
      privateRedis = await startPrivateRedis();
      const port = await freePort();
      const memoryPush = await start(
        'services/push/dist/main-api.js',
        {
          ...pushEnv,
          PUSH_PORT: String(port),
          PUSH_PUBLIC_URL: `http://127.0.0.1:${port}`,
          PUSH_REDIS_URL: privateRedis.url,
        },
        `http://127.0.0.1:${port}/readyz`,
      );
      const create = {
        url: `${memoryPush.url}/api/v2/pushes`,
        method: 'POST' as const,
        headers: json,
        body: createBody,
      };
      await load({ ...create, amount: 1000 });
      const cpu = (info: Record<string, string>) =>
        Number(info.used_cpu_sys ?? 0) + Number(info.used_cpu_user ?? 0);
      const before = await redisInfo(privateRedis.url);
      await run(REDIS_MEMORY_RUN, { ...create, amount: REDIS_MEMORY_PUSHES }, memoryPush);
      const after = await redisInfo(privateRedis.url);
      redisMemory = {
        growthBytes: Number(after.used_memory) - Number(before.used_memory),
        redisCpuUs: Math.round(
          ((cpu(after) - cpu(before)) * 1e6) / Math.max(1, runs[REDIS_MEMORY_RUN]!.total),
        ),
      };
    }

    const figures: Figure[] = [];
    const r = (name: string) =>
      runs[name] ?? { ...NO_LOAD, machineCpuMs: 0, machineCpuSeconds: 0, cpuMs: undefined };
    const describe = (
      name: string,
      ceilingName: string | undefined,
      ceilingRps: number | undefined,
      target?: number,
      ceilingMachineCpuMs?: number,
    ) => {
      if (!runs[name]) return;
      const x = r(name);
      const ratio = ceilingRps ? Math.round((x.rps / ceilingRps) * 100) / 100 : undefined;
      // What the machine's CPU allows: the ceiling's cost per operation over the endpoint's.
      const bound =
        ceilingMachineCpuMs && x.machineCpuMs > 0
          ? `, machine-CPU bound ${Math.round((ceilingMachineCpuMs / x.machineCpuMs) * 100) / 100}×`
          : '';
      figures.push({
        name: `${name}: ${x.rps} req/s, p50 ${x.p50} ms, p99 ${x.p99} ms, max ${x.max} ms, non-2xx ${x.non2xx}, errors ${x.errors}${x.cpuMs !== undefined ? `, service CPU ${x.cpuMs} ms/req` : ''}, machine CPU ${x.machineCpuMs} ms/req${bound}`,
        value: ratio ?? x.rps,
        unit: ratio !== undefined ? `× ${ceilingName} (${ceilingRps}/s)` : 'req/s',
        ...(target !== undefined && ratio !== undefined
          ? { target: `≥ ${target}×`, pass: ratio >= target && x.non2xx === 0 && x.errors === 0 }
          : {}),
      });
    };
    for (const name of Object.keys(runs).filter((n) => n.startsWith('ceiling'))) {
      describe(name, undefined, undefined);
    }
    if (pgCeilings) {
      figures.push({
        name: 'ceiling: pg single-row INSERT loop (16 loops, pool 10)',
        value: insertCeiling,
        unit: `rows/s (machine CPU ${insert.machineCpuMs} ms/row)`,
      });
      figures.push({
        name: 'ceiling: pg consume-UPDATE loop (16 loops, pool 10)',
        value: updateCeiling,
        unit: `rows/s (machine CPU ${update.machineCpuMs} ms/row)`,
      });
    }
    const ceiling = (name: string) => [r(name).rps, r(name).machineCpuMs] as const;
    const [expressRps, expressCpu] = ceiling(EXPRESS_CEILING);
    const [tokenRps, tokenCpu] = ceiling('ceiling: oidc-provider token (memory)');
    const [introspectRps, introspectCpu] = ceiling('ceiling: oidc-provider introspect (memory)');
    const [anonRps, anonCpu] = ceiling('POST /pushes anonymous 1 KB');
    describe('GET /api/v2/version', 'Express route', expressRps, 0.8, expressCpu);
    describe('POST /connect/token', 'oidc memory', tokenRps, 0.6, tokenCpu);
    describe('POST /connect/introspect', 'oidc memory', introspectRps, 0.6, introspectCpu);
    describe('POST /pushes anonymous 1 KB', 'pg INSERT loop', insertCeiling, 0.5, insert.machineCpuMs);
    describe('POST /pushes with a bearer token', 'anonymous create', anonRps, 0.9, anonCpu);
    describe('POST /pushes anonymous, 64 connections', undefined, undefined);
    describe('GET /pushes/:token (uses a view)', 'pg UPDATE loop', updateCeiling, 0.5, update.machineCpuMs);
    describe('GET /pushes/:token, 64 connections', undefined, undefined);
    describe('GET /pushes/active', undefined, undefined);
    describe(REDIS_MEMORY_RUN, undefined, undefined);
    if (redisMemory) {
      const total = r(REDIS_MEMORY_RUN).total;
      figures.push({
        name: `Redis used_memory growth over ${total} creates (active pushes; ${Math.round((redisMemory.growthBytes / Math.max(1, total)) * 10) / 10} bytes per push)`,
        value: Math.round(redisMemory.growthBytes / 1024),
        unit: 'KiB',
        target: '≤ 1024 KiB',
        pass: redisMemory.growthBytes <= 1024 * 1024 && r(REDIS_MEMORY_RUN).non2xx === 0,
      });
      figures.push({ name: 'Redis CPU per create', value: redisMemory.redisCpuUs, unit: 'µs' });
    }
    for (const name of ['POST /pushes anonymous 1 KB', 'GET /pushes/:token (uses a view)']) {
      if (!runs[name]) continue;
      figures.push({
        name: `${name}: p99 at 16 connections`,
        value: r(name).p99,
        unit: 'ms',
        target: '≤ 25 ms',
        pass: r(name).p99 <= 25,
      });
    }
    if (runs['GET /pushes/active']) {
      figures.push({
        name: 'GET /pushes/active: pushes on the page the run lists',
        value: activePage,
        unit: `of ${PAGE_SIZE}`,
        target: 'a full page',
        pass: activePage === PAGE_SIZE,
      });
    }
    figures.push(...cpuTargetFigures(runs, speedFactor(runs[EXPRESS_CEILING])));
    figures.push(...rssFigures({ push, worker, auth }, idleRss, afterLoadRss));
    const splitRows = Object.entries(runs)
      .filter(([, x]) => x.split)
      .map(([name, x]) => [name, x.split!.machine, ...SPLIT_COLUMNS.map((c) => x.split![c])]);
    return {
      tables: [
        {
          title: 'CPU per request by process (ms; machine = all processes, from /proc/stat)',
          columns: ['run', 'machine', ...SPLIT_COLUMNS],
          rows: splitRows,
        },
      ],
      benchmark: 'API throughput and latency',
      description: `Production mode, one process per service, autocannon ${SECONDS} s per run at 16 connections unless stated, on the same 2 cores as the servers and PostgreSQL.${NODE_FLAGS_NOTE}`,
      figures,
    };
  } finally {
    await Promise.allSettled(procs.map((p) => p.stop()));
    // `BENCH_KEEP_DATABASES=1`: the databases stay, for inspection (table statistics, EXPLAIN).
    const keep = process.env.BENCH_KEEP_DATABASES === '1';
    if (keep) console.log(`api: databases kept: ${authDb} ${pushDb} ${ceilingDb}`);
    await Promise.allSettled([
      ...(keep ? [] : [dropDatabase(authDb), dropDatabase(pushDb), dropDatabase(ceilingDb)]),
      deleteRedisKeys(REDIS_URL, prefix),
      privateRedis?.stop(),
    ]);
  }
}
