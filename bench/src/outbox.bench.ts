import { randomBytes } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { runAuthMigrations } from '@secret-push/auth';
import { dropDatabase, withDatabase } from '@secret-push/db-kit';
import { runPushMigrations } from '@secret-push/push';
import { REDIS_URL, deleteRedisKeys, uniquePrefix } from '@secret-push/testing';
import { token } from './auth-client';
import { type LoadResult, SECONDS, load, withMachineCpu } from './load';
import { type Proc, NODE_FLAGS_NOTE, startProcess } from './processes';
import { startServiceStack } from './stack';
import type { BenchResult, Figure } from './report';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number) => Math.round(x * 100) / 100;

/** A webhook receiver on 127.0.0.1 that answers 204 at once and counts what it got. */
async function receiver(): Promise<{
  server: Server;
  url: string;
  received: () => number;
  times: number[];
  ids: Set<string>;
}> {
  const times: number[] = [];
  const ids = new Set<string>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      times.push(Date.now());
      ids.add(String(req.headers['webhook-id']));
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook`, received: () => times.length, times, ids };
}

/** p-quantile of a Prometheus histogram (the upper bound of the bucket it falls in). */
function histogramQuantile(metrics: string, name: string, q: number): number | null {
  const buckets = [...metrics.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\d+)`, 'gm'))].map(
    (m) => ({ le: m[1] === '+Inf' ? Infinity : Number(m[1]), count: Number(m[2]) }),
  );
  const total = buckets.at(-1)?.count ?? 0;
  if (total === 0) return null;
  return buckets.find((b) => b.count >= q * total)?.le ?? null;
}

/**
 * The outbox under load (issues 26 and 27): the push API, the auth service and one worker in
 * production mode; a client's creates (autocannon, 16 connections) first with nobody listening,
 * then with one enabled webhook endpoint (each create is then also an outbox event and a signed
 * delivery to a local receiver); retrieves likewise (each view an event and a delivery). Machine CPU
 * per request in both runs, the outbox lag (event
 * written → handed to the consumers) p99 from the worker's histogram, and deliveries per second
 * by the one worker.
 */
export async function outboxBenchmark(root: string): Promise<BenchResult> {
  const tag = randomBytes(4).toString('hex');
  const authDb = withDatabase(SERVER, `bench_auth_${tag}`);
  const pushDb = withDatabase(SERVER, `bench_push_${tag}`);
  const prefix = uniquePrefix('bench');
  const procs: Proc[] = [];
  const hook = await receiver();
  const db = new pg.Pool({ connectionString: pushDb, max: 2 });
  try {
    await Promise.all([runAuthMigrations(authDb), runPushMigrations(pushDb)]);
    const start = async (script: string, env: Record<string, string>, ready: string) => {
      const p = await startProcess(join(root, script), env, ready);
      procs.push(p);
      return p;
    };
    const { auth, push, worker, client } = await startServiceStack({
      authDb,
      pushDb,
      redisPrefix: prefix,
      logLevel: 'warn',
      worker: true,
      pushEnv: {
        PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '1000000',
        PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE: '1000000',
        PUSH_WEBHOOK_ALLOW_HTTP: 'true',
        PUSH_WEBHOOK_ALLOWED_DESTINATIONS: '127.0.0.1',
      },
      start,
    });
    const bearer = `Bearer ${await token(auth.url, client.client_id, client.client_secret)}`;
    const creates = () =>
      withMachineCpu(() =>
        load({
          url: `${push.url}/api/v2/pushes`,
          method: 'POST',
          headers: { authorization: bearer, 'content-type': 'application/json' },
          body: JSON.stringify({ push: { payload: 'x'.repeat(1024), expire_after_views: 1 } }),
        }),
      );
    /** Pushes of the client with 100 views each, for a retrieve run to use up (made before it). */
    const retrievable = async (n: number) => {
      const tokens: string[] = [];
      for (let i = 0; i < n; i++) {
        const r = await fetch(`${push.url}/api/v2/pushes`, {
          method: 'POST',
          headers: { authorization: bearer, 'content-type': 'application/json' },
          body: JSON.stringify({ push: { payload: 'x'.repeat(1024), expire_after_views: 100 } }),
        });
        tokens.push(((await r.json()) as { url_token: string }).url_token);
      }
      return tokens;
    };
    const retrieves = (tokens: string[]) => {
      let next = 0;
      return withMachineCpu(() =>
        load({
          url: `${push.url}/api/v2/pushes/x`,
          requests: [
            {
              setupRequest: (req) => ({ ...req, path: `/api/v2/pushes/${tokens[next++ % tokens.length]}` }),
            },
          ],
        }),
      );
    };
    const RETRIEVABLE = 400;
    console.log('outbox: creates, nobody listening');
    const quiet: LoadResult & { machineCpuMs: number } = await creates();
    const quietTokens = await retrievable(RETRIEVABLE);
    console.log('outbox: retrieves, nobody listening');
    const quietRetrieve = await retrieves(quietTokens);
    const made = await fetch(`${push.url}/api/v2/webhooks`, {
      method: 'POST',
      headers: { authorization: bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ url: hook.url, event_types: ['push.created', 'push.viewed'] }),
    });
    if (made.status !== 201) throw new Error(`webhook create: ${made.status} ${await made.text()}`);
    // The pushes made before the endpoint are listened to from now on too: retrieve new ones, so
    // that the two retrieve runs differ only in the endpoint.
    console.log('outbox: creates, one enabled endpoint');
    const listened = await creates();
    const listenedTokens = await retrievable(RETRIEVABLE);
    console.log('outbox: retrieves, one enabled endpoint');
    const listenedRetrieve = await retrieves(listenedTokens);
    const loadEnded = Date.now();
    const expected =
      listened.total - listened.non2xx + RETRIEVABLE + listenedRetrieve.total - listenedRetrieve.non2xx;
    while (hook.received() < expected && Date.now() - loadEnded < 300_000) await sleep(200);
    const drainedAfter = (Date.now() - loadEnded) / 1000;
    const { rows } = await db.query<{ events: string }>('select count(*) as events from push_event');
    const metrics = await (await fetch(`${worker!.url}/metrics`)).text();
    const lagP99 = histogramQuantile(metrics, 'push_outbox_lag_seconds', 0.99);
    const lagP50 = histogramQuantile(metrics, 'push_outbox_lag_seconds', 0.5);
    const first = hook.times[0] ?? loadEnded;
    const last = hook.times.at(-1) ?? loadEnded;
    const figures: Figure[] = [
      { name: 'POST /pushes, nobody listening: req/s', value: quiet.rps, unit: 'req/s' },
      { name: '… machine CPU per create', value: quiet.machineCpuMs, unit: 'ms' },
      { name: 'POST /pushes, one enabled endpoint: req/s', value: listened.rps, unit: 'req/s' },
      {
        name: '… machine CPU per create (the event, its delivery and the worker included)',
        value: listened.machineCpuMs,
        unit: 'ms',
      },
      { name: '… p99 latency', value: listened.p99, unit: 'ms' },
      { name: 'GET /pushes/:token, nobody listening: req/s', value: quietRetrieve.rps, unit: 'req/s' },
      { name: '… machine CPU per retrieve', value: quietRetrieve.machineCpuMs, unit: 'ms' },
      { name: 'GET /pushes/:token, one enabled endpoint: req/s', value: listenedRetrieve.rps, unit: 'req/s' },
      {
        name: '… machine CPU per retrieve (the event, its delivery and the worker included)',
        value: listenedRetrieve.machineCpuMs,
        unit: 'ms',
      },
      { name: '… p99 latency', value: listenedRetrieve.p99, unit: 'ms' },
      {
        name: 'answers other than 2xx (all four runs)',
        value: quiet.non2xx + listened.non2xx + quietRetrieve.non2xx + listenedRetrieve.non2xx,
        unit: '',
        pass: quiet.non2xx + listened.non2xx + quietRetrieve.non2xx + listenedRetrieve.non2xx === 0,
      },
      {
        name: 'outbox lag p50 (event written → handed over; histogram bucket)',
        value: lagP50 ?? -1,
        unit: 's',
      },
      { name: 'outbox lag p99 (histogram bucket)', value: lagP99 ?? -1, unit: 's' },
      {
        name: 'deliveries per second, one worker (first to last received)',
        value: round(hook.received() / Math.max(0.001, (last - first) / 1000)),
        unit: '/s',
      },
      {
        name: 'every create and view delivered',
        value: hook.received(),
        unit: `of ${expected}`,
        pass: hook.received() >= expected,
      },
      {
        name: 'messages received twice or more (at least once: same webhook-id)',
        value: hook.received() - hook.ids.size,
        unit: '',
      },
      { name: 'all delivered this long after the load ended', value: round(drainedAfter), unit: 's' },
      {
        name: 'events left in the outbox',
        value: Number(rows[0]!.events),
        unit: '',
        pass: Number(rows[0]!.events) === 0,
      },
    ];
    return {
      benchmark: 'Outbox and webhooks under load',
      description: `Production mode, one process each (auth, push API, worker) on 127.0.0.1; autocannon ${SECONDS} s at 16 connections of POST /pushes (1 KiB, a client's bearer token) and of GET /pushes/:token (the client's pushes of 100 views, anonymous reads), first with nobody listening, then with one enabled webhook endpoint for push.created and push.viewed (a local receiver answering 204). Machine CPU per request counts every process.${NODE_FLAGS_NOTE}`,
      figures,
    };
  } finally {
    for (const p of procs.reverse()) await p.stop();
    await new Promise((r) => hook.server.close(r));
    await db.end();
    await dropDatabase(pushDb).catch(() => undefined);
    await dropDatabase(authDb).catch(() => undefined);
    await deleteRedisKeys(REDIS_URL, prefix);
  }
}
