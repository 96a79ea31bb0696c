import { createHash, randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { type SecretPushClient, SecretPushError, UnauthorizedError, createClient } from '@secret-push/client';
import type { CheckResult } from '../validate/report';

export interface SmokeTargets {
  authReplicas: string[];
  pushReplicas: string[];
  workerReplicas: string[];
  authProxy: string;
  pushProxy: string;
  demo: { clientId: string; clientSecret: string };
  pushDatabaseUrl: string;
  redisUrl: string;
}

/*
 * The checks call the API through the SDK (@secret-push/client), one client per replica or proxy.
 * `retries: 0`: every call is one request, as a check must see the first answer of the replica it
 * names, not a repeat that another attempt got right. What the SDK does not express stays plain
 * HTTP: /readyz through the proxies and the workers' /metrics.
 */

/** An anonymous client of one push replica (or the push proxy). */
const anonymous = (pushUrl: string) => createClient({ baseUrl: pushUrl, retries: 0 });

/** A client of `pushUrl` holding a token fetched elsewhere. */
const withToken = (pushUrl: string, token: string) =>
  createClient({ baseUrl: pushUrl, auth: { token }, retries: 0 });

/** A client of `pushUrl` signed in as the demo client at the token endpoint of `authUrl`. */
const signedIn = (pushUrl: string, authUrl: string, demo: SmokeTargets['demo']) =>
  createClient({
    baseUrl: pushUrl,
    auth: { ...demo, tokenUrl: `${authUrl}/connect/token` },
    retries: 0,
  });

/** How a failed call is named in a check's message: `HTTP 404 not_found (Push not found.)`. */
function describe(err: unknown): string {
  if (err instanceof SecretPushError) {
    return err.status === 0
      ? `${err.code} (${err.message})`
      : `HTTP ${err.status} ${err.code} (${err.message})`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** `call`'s result; its failure as an Error saying what was being done (`create on http://…`). */
async function step<T>(what: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw new Error(`${what}: ${describe(err)}`, { cause: err });
  }
}

/** The SecretPushError that `call` fails with, or undefined when it succeeds (anything else is rethrown). */
async function failure(call: Promise<unknown>): Promise<SecretPushError | undefined> {
  try {
    await call;
    return undefined;
  } catch (err) {
    if (err instanceof SecretPushError) return err;
    throw err;
  }
}

/** The HTTP status a call was answered with: 200 when it succeeded, else its error's (0: no answer). */
const statusOf = async (call: Promise<unknown>) => (await failure(call))?.status ?? 200;

/** Reads the first page of the caller's active pushes: one GET /pushes/active. */
async function firstActivePage(client: SecretPushClient): Promise<void> {
  for await (const _page of client.active().pages()) return;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Each check as a named async function that throws on the first wrong observation. */
export function smokeChecks(t: SmokeTargets): [string, () => Promise<string | void>][] {
  return [
    [
      'a token from either auth replica works on either push replica',
      async () => {
        for (const auth of t.authReplicas) {
          const { token } = await step(
            `token from ${auth}`,
            signedIn(t.pushProxy, auth, t.demo).accessToken(),
          );
          for (const push of t.pushReplicas) {
            await step(`token of ${auth} on ${push}`, firstActivePage(withToken(push, token)));
          }
        }
        const bad = await failure(firstActivePage(withToken(t.pushProxy, 'nope')));
        if (!(bad instanceof UnauthorizedError) || bad.status !== 401) {
          throw new Error(`an unknown token answered ${bad ? describe(bad) : 'HTTP 200'}, not 401`);
        }
        return `${t.authReplicas.length}×${t.pushReplicas.length} combinations, unknown token 401`;
      },
    ],
    [
      'a push created on one push replica is read on the other, views counted across replicas',
      async () => {
        const [a, b] = t.pushReplicas as [string, string];
        for (const [from, to] of [
          [a, b],
          [b, a],
        ] as const) {
          const created = await step(
            `create on ${from}`,
            signedIn(from, t.authProxy, t.demo).create({ payload: `made on ${from}`, expire_after_views: 2 }),
          );
          const first = await step(`read on ${to}`, anonymous(to).retrieve(created.url_token));
          if (first.payload !== `made on ${from}`) {
            throw new Error(`read on ${to}: ${JSON.stringify(first)}`);
          }
          const second = await step(`second view on ${from}`, anonymous(from).retrieve(created.url_token));
          if (second.payload !== `made on ${from}`) throw new Error(`second view on ${from} failed`);
          // The expired answer (200, `expired: true`, no payload) as the API gives it, not as an error.
          const third = await step(
            `third view on ${to}`,
            anonymous(to).retrieve(created.url_token, { expired: 'return' }),
          );
          if (third.payload !== null || !third.expired) {
            throw new Error(`third view of a 2-view push on ${to} was not refused: ${JSON.stringify(third)}`);
          }
        }
      },
    ],
    [
      'passphrase attempts are limited across replicas (6th in a minute → 429, even when right)',
      async () => {
        const created = await step(
          `create on ${t.pushProxy}`,
          anonymous(t.pushProxy).create({ payload: 'guarded', passphrase: 'right one' }),
        );
        // Each attempt is a POST …/reveal with the passphrase in its body (the SDK's way).
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) {
          const replica = anonymous(t.pushReplicas[i % 2]!);
          statuses.push(await statusOf(replica.retrieve(created.url_token, { passphrase: `wrong ${i}` })));
        }
        if (statuses.some((s) => s !== 401)) {
          throw new Error(`wrong passphrases answered ${statuses.join(',')}`);
        }
        const sixth = await statusOf(
          anonymous(t.pushReplicas[1]!).retrieve(created.url_token, { passphrase: 'right one' }),
        );
        if (sixth !== 429) {
          throw new Error(`6th attempt (right passphrase) answered ${sixth}, not 429`);
        }
        return `attempts alternated between replicas: ${statuses.join(', ')}, then ${sixth}`;
      },
    ],
    ['each expiry happens exactly once', () => expiryExactlyOnce(t)],
    [
      'a file pushed on one replica downloads through the other, and a worker purges it on DELETE',
      () => fileAcrossReplicas(t),
    ],
    [
      'the round-robin proxies reach every replica, and pages link to the public URL',
      async () => {
        const created = await step(
          `create on ${t.pushProxy}`,
          anonymous(t.pushProxy).create({ payload: 'links' }),
        );
        const html = created.html_url ?? '';
        if (!html.startsWith(`${t.pushProxy}/`)) {
          throw new Error(`html_url ${html} is not under ${t.pushProxy}`);
        }
        // /readyz is not part of the API (nor of the SDK): plain HTTP.
        for (const proxy of [t.authProxy, t.pushProxy]) {
          for (let i = 0; i < 4; i++) {
            const res = await fetch(`${proxy}/readyz`);
            if (res.status !== 200) throw new Error(`${proxy}/readyz: ${res.status}`);
          }
        }
      },
    ],
  ];
}

/**
 * Forty pushes with a 15-minute window (expire_after_duration 0), then their window moved into the
 * past in SQL: both workers' ticks (every 250 ms) race for them. Exactly one `expire_by_time` audit
 * entry per push, and the workers' own counters add up to forty.
 */
async function expiryExactlyOnce(t: SmokeTargets): Promise<string> {
  const n = 40;
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const replica = t.pushReplicas[i % 2]!;
    const created = await step(
      `create on ${replica}`,
      anonymous(replica).create({ payload: `expire ${i}`, expire_after_duration: 0 }),
    );
    tokens.push(created.url_token);
  }
  const pool = new Pool({ connectionString: t.pushDatabaseUrl, max: 2 });
  try {
    const { rows } = await pool.query<{ id: string }>(
      `update push set expires_at = now() - interval '1 second'
        where token_hash = any(select sha256(convert_to(x, 'UTF8')) from unnest($1::text[]) x) returning id`,
      [tokens],
    );
    if (rows.length !== n) throw new Error(`moved ${rows.length} expiry windows, expected ${n}`);
    const ids = rows.map((r) => r.id);
    const deadline = Date.now() + 20_000;
    let expired = 0;
    while (Date.now() < deadline) {
      const res = await pool.query<{ n: string }>(
        `select count(*) n from push where id = any($1) and expired`,
        [ids],
      );
      expired = Number(res.rows[0]!.n);
      if (expired === n) break;
      await sleep(250);
    }
    if (expired !== n) throw new Error(`${expired}/${n} pushes expired within 20 s`);
    await sleep(2500); // ten more ticks: a second expiry would show up now
    const audit = await pool.query<{ push_id: string; n: string }>(
      `select p.id push_id, count(a.id) n from push p
         left join audit_entry a on a.push_id = p.id and a.kind = 'expire_by_time'
        where p.id = any($1) group by p.id`,
      [ids],
    );
    const wrong = audit.rows.filter((r) => r.n !== '1');
    if (wrong.length > 0) {
      throw new Error(`expire_by_time entries per push: ${wrong.map((r) => r.n).join(',')}`);
    }
    const perWorker = await Promise.all(t.workerReplicas.map((w) => expiredByWorker(w)));
    const total = perWorker.reduce((a, b) => a + b, 0);
    if (total < n) throw new Error(`workers report ${total} expiries, expected at least ${n}`);
    return `${n} pushes, one expire_by_time each; expired by worker: ${perWorker.join(' + ')}`;
  } finally {
    await pool.end();
  }
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * A file push made on replica A (multipart, streamed into S3), retrieved on replica B, its file
 * downloaded through the link (which names the public URL, so the proxy) and compared byte for
 * byte; then a DELETE on A refuses the link at once and a worker purges the stored object.
 */
async function fileAcrossReplicas(t: SmokeTargets): Promise<string> {
  const [a, b] = t.pushReplicas as [string, string];
  const owner = signedIn(a, t.authProxy, t.demo);
  const data = randomBytes(300_000);
  const { url_token } = await step(
    `file create on ${a}`,
    owner.create({ expire_after_views: 2, files: [{ blob: new Blob([data]), filename: 'smoke.bin' }] }),
  );
  const got = await step(`retrieve on ${b}`, anonymous(b).retrieve(url_token));
  const file = got.files[0];
  if (!file) throw new Error(`retrieve on ${b} listed no file: ${JSON.stringify(got)}`);
  // The SDK follows a download link only on its API's origin: the link must name the public URL.
  const proxy = anonymous(t.pushProxy);
  const where = `download through ${file.url.split('?')[0]}`;
  const download = await step(where, proxy.download(file));
  const bytes = Buffer.from(await new Response(download.body).arrayBuffer());
  if (sha256(bytes) !== sha256(data)) {
    throw new Error(`${where}: ${bytes.length} bytes, not the ${data.length} sent`);
  }
  await step(`DELETE on ${a}`, owner.expire(url_token));
  const refused = await failure(proxy.download(file).then((d) => d.body.cancel()));
  if (refused?.status !== 404) {
    throw new Error(`the link after DELETE answered ${refused ? describe(refused) : 'HTTP 200'}, not 404`);
  }
  const pool = new Pool({ connectionString: t.pushDatabaseUrl, max: 1 });
  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { rows } = await pool.query<{ files_purged: boolean }>(
        "select files_purged from push where token_hash = sha256(convert_to($1, 'UTF8'))",
        [url_token],
      );
      if (rows[0]?.files_purged) break;
      if (Date.now() > deadline) throw new Error('the file was not purged within 15 s of the DELETE');
      await sleep(200);
    }
  } finally {
    await pool.end();
  }
  return `${data.length} bytes up on one replica, down through the other; purged after DELETE`;
}

/** push_expiry_lag_seconds_count: pushes this worker expired by time. */
async function expiredByWorker(workerUrl: string): Promise<number> {
  const text = await (await fetch(`${workerUrl}/metrics`)).text();
  return Number(/^push_expiry_lag_seconds_count(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0);
}

/** Runs every check, in order, recording the outcome of each. */
export async function runSmoke(t: SmokeTargets): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const [name, fn] of smokeChecks(t)) {
    const started = Date.now();
    try {
      const detail = await fn();
      results.push({
        name: `${name} (${Date.now() - started} ms${detail ? `; ${detail}` : ''})`,
        problems: [],
      });
    } catch (err) {
      results.push({ name, problems: [(err as Error).message] });
    }
  }
  return results;
}
