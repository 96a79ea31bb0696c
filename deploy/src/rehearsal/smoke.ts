import { createHash, randomBytes } from 'node:crypto';
import { Pool } from 'pg';
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

interface PushBody {
  url_token: string;
  payload: string | null;
  expired: boolean;
}

async function token(authUrl: string, demo: SmokeTargets['demo']): Promise<string> {
  const res = await fetch(`${authUrl}/connect/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${demo.clientId}:${demo.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token from ${authUrl}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function createPush(
  pushUrl: string,
  push: Record<string, unknown>,
  bearer?: string,
): Promise<PushBody> {
  const res = await fetch(`${pushUrl}/api/v2/pushes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify({ push }),
  });
  if (res.status !== 201) throw new Error(`create on ${pushUrl}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as PushBody;
}

async function retrieve(pushUrl: string, urlToken: string, passphrase?: string) {
  const q = passphrase === undefined ? '' : `?passphrase=${encodeURIComponent(passphrase)}`;
  const res = await fetch(`${pushUrl}/api/v2/pushes/${urlToken}${q}`);
  return { status: res.status, body: (await res.json()) as PushBody };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Each check as a named async function that throws on the first wrong observation. */
export function smokeChecks(t: SmokeTargets): [string, () => Promise<string | void>][] {
  return [
    [
      'a token from either auth replica works on either push replica',
      async () => {
        for (const auth of t.authReplicas) {
          const bearer = await token(auth, t.demo);
          for (const push of t.pushReplicas) {
            const res = await fetch(`${push}/api/v2/pushes/active`, {
              headers: { authorization: `Bearer ${bearer}` },
            });
            if (res.status !== 200) throw new Error(`token of ${auth} on ${push}: HTTP ${res.status}`);
          }
        }
        const bad = await fetch(`${t.pushProxy}/api/v2/pushes/active`, {
          headers: { authorization: 'Bearer nope' },
        });
        if (bad.status !== 401) throw new Error(`an unknown token answered ${bad.status}, not 401`);
        return `${t.authReplicas.length}×${t.pushReplicas.length} combinations, unknown token 401`;
      },
    ],
    [
      'a push created on one push replica is read on the other, views counted across replicas',
      async () => {
        const bearer = await token(t.authProxy, t.demo);
        const [a, b] = t.pushReplicas as [string, string];
        for (const [from, to] of [
          [a, b],
          [b, a],
        ] as const) {
          const created = await createPush(
            from,
            { payload: `made on ${from}`, expire_after_views: 2 },
            bearer,
          );
          const first = await retrieve(to, created.url_token);
          if (first.body.payload !== `made on ${from}`) {
            throw new Error(`read on ${to}: ${JSON.stringify(first.body)}`);
          }
          const second = await retrieve(from, created.url_token);
          if (second.body.payload !== `made on ${from}`) throw new Error(`second view on ${from} failed`);
          const third = await retrieve(to, created.url_token);
          if (third.body.payload !== null || !third.body.expired) {
            throw new Error(
              `third view of a 2-view push on ${to} was not refused: ${JSON.stringify(third.body)}`,
            );
          }
        }
      },
    ],
    [
      'passphrase attempts are limited across replicas (6th in a minute → 429, even when right)',
      async () => {
        const created = await createPush(t.pushProxy, { payload: 'guarded', passphrase: 'right one' });
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) {
          statuses.push((await retrieve(t.pushReplicas[i % 2]!, created.url_token, `wrong ${i}`)).status);
        }
        if (statuses.some((s) => s !== 401)) {
          throw new Error(`wrong passphrases answered ${statuses.join(',')}`);
        }
        const sixth = await retrieve(t.pushReplicas[1]!, created.url_token, 'right one');
        if (sixth.status !== 429) {
          throw new Error(`6th attempt (right passphrase) answered ${sixth.status}, not 429`);
        }
        return `attempts alternated between replicas: ${statuses.join(', ')}, then ${sixth.status}`;
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
        const created = await createPush(t.pushProxy, { payload: 'links' });
        const html = (created as unknown as { html_url?: string }).html_url ?? '';
        if (!html.startsWith(`${t.pushProxy}/`)) {
          throw new Error(`html_url ${html} is not under ${t.pushProxy}`);
        }
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
    tokens.push(
      (await createPush(t.pushReplicas[i % 2]!, { payload: `expire ${i}`, expire_after_duration: 0 }))
        .url_token,
    );
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
  const bearer = await token(t.authProxy, t.demo);
  const [a, b] = t.pushReplicas as [string, string];
  const data = randomBytes(300_000);
  const form = new FormData();
  form.append('push[expire_after_views]', '2');
  form.append('push[files][]', new Blob([data]), 'smoke.bin');
  const res = await fetch(`${a}/api/v2/pushes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`file create on ${a}: HTTP ${res.status} ${await res.text()}`);
  const { url_token } = (await res.json()) as PushBody;
  const got = (await (await fetch(`${b}/api/v2/pushes/${url_token}`)).json()) as {
    files: { url: string; size: number }[];
  };
  const link = got.files[0]?.url;
  if (!link) throw new Error(`retrieve on ${b} listed no file: ${JSON.stringify(got)}`);
  const download = await fetch(link);
  const bytes = Buffer.from(await download.arrayBuffer());
  if (download.status !== 200 || sha256(bytes) !== sha256(data)) {
    throw new Error(`download through ${link.split('?')[0]}: HTTP ${download.status}, ${bytes.length} bytes`);
  }
  const deleted = await fetch(`${a}/api/v2/pushes/${url_token}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${bearer}` },
  });
  if (deleted.status !== 200) throw new Error(`DELETE on ${a}: HTTP ${deleted.status}`);
  const refused = await fetch(link);
  if (refused.status !== 404) throw new Error(`the link after DELETE answered ${refused.status}, not 404`);
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
