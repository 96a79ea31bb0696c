import { randomBytes } from 'node:crypto';
import {
  createFile,
  createText,
  direct,
  download,
  requestToken,
  retrieve,
  retrievedOf,
  urlTokenOf,
  viaProxy,
} from './api';
import { type Sent, json } from './http-client';
import { sleep } from './processes';
import type { Stack } from './stack';

/*
 * "The service is back": one round of the probe succeeds. A round asks each replica directly (so a
 * restarted replica is checked too) to create, and the other replica to serve, a plain push, a
 * passphrase push (Redis), and a file push with a token the replicas have never seen (auth and
 * introspection, S3 write), whose file is then downloaded (S3 read); plus a token request.
 */

/** Resumption, not latency (the load's answers are held to the deadlines): a cold replica may be slow once. */
const PROBE_TIMEOUT_MS = 5000;

const describe = (what: string, s: Sent) =>
  `${what}: ${s.error ?? `${s.status}${json(s)?.code ? ` ${String(json(s)?.code)}` : ''}`}`;

async function replicaRound(stack: Stack, from: 0 | 1, token: string): Promise<string[]> {
  const a = direct(stack.push[from].port);
  const b = direct(stack.push[from === 0 ? 1 : 0].port);
  const failures: string[] = [];
  const tag = `${stack.push[from].name}→other`;
  const plain = async () => {
    const payload = `probe-${randomBytes(6).toString('hex')}`;
    const c = await createText(a, { payload, views: 1 }, undefined, PROBE_TIMEOUT_MS);
    const t = urlTokenOf(c);
    if (c.status !== 201 || !t) {
      failures.push(describe(`${tag} create`, c));
      return;
    }
    const r = await retrieve(b, t, undefined, PROBE_TIMEOUT_MS);
    if (r.status !== 200 || retrievedOf(r)?.payload !== payload) {
      failures.push(describe(`${tag} retrieve`, r));
    }
  };
  const guarded = async () => {
    const payload = `probe-${randomBytes(6).toString('hex')}`;
    const c = await createText(
      a,
      { payload, views: 1, passphrase: 'probe-pass' },
      undefined,
      PROBE_TIMEOUT_MS,
    );
    const t = urlTokenOf(c);
    if (c.status !== 201 || !t) {
      failures.push(describe(`${tag} create (passphrase)`, c));
      return;
    }
    const r = await retrieve(b, t, { value: 'probe-pass', via: 'header' }, PROBE_TIMEOUT_MS);
    if (r.status !== 200 || retrievedOf(r)?.payload !== payload) {
      failures.push(describe(`${tag} passphrase retrieve`, r));
    }
  };
  const file = async () => {
    const data = randomBytes(700);
    const c = await createFile(
      a,
      { payload: 'probe-file', views: 1, file: { name: 'probe.bin', data } },
      token,
      PROBE_TIMEOUT_MS,
    );
    const t = urlTokenOf(c);
    if (c.status !== 201 || !t) {
      failures.push(describe(`${tag} file create`, c));
      return;
    }
    const r = await retrieve(b, t, undefined, PROBE_TIMEOUT_MS);
    const link = retrievedOf(r)?.files[0]?.url;
    if (r.status !== 200 || !link) {
      failures.push(describe(`${tag} file retrieve`, r));
      return;
    }
    const d = await download(a, link, PROBE_TIMEOUT_MS);
    if (d.status !== 200 || !d.body.equals(data)) failures.push(describe(`${tag} download`, d));
  };
  await Promise.all([plain(), guarded(), file()]);
  return failures;
}

/**
 * Tokens no replica has seen (each file create of a probe introspects a new one): the token
 * request of every round adds the one it gets, so a round needs no token request before its
 * creates, and the stock lasts through an auth outage.
 */
const unseenTokens: string[] = [];

export async function primeProbeTokens(stack: Stack, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const t = await requestToken(viaProxy(stack.proxies.auth), stack.client, PROBE_TIMEOUT_MS);
    const token = json(t)?.access_token;
    if (typeof token !== 'string') throw new Error(`token request failed: ${t.status ?? t.error}`);
    unseenTokens.push(token);
  }
}

/** One probe round: the failures, none when the service is whole. */
export async function probeRound(stack: Stack): Promise<string[]> {
  const token = unseenTokens.shift();
  if (!token) return ['no unseen token left for the probes'];
  const tokenRequest = async () => {
    const t = await requestToken(viaProxy(stack.proxies.auth), stack.client, PROBE_TIMEOUT_MS);
    const fresh = json(t)?.access_token;
    if (t.status !== 200 || typeof fresh !== 'string') return [describe('token request', t)];
    unseenTokens.push(fresh);
    return [];
  };
  const rounds = await Promise.all([
    tokenRequest(),
    replicaRound(stack, 0, token),
    replicaRound(stack, 1, token),
  ]);
  return rounds.flat();
}

/**
 * Probes until a round succeeds: the time from `since` to the end of that round, or undefined
 * (with the last round's failures) when none did within `limitMs`.
 */
export async function timeToRecover(
  stack: Stack,
  since: number,
  limitMs: number,
  /** Processes that died meanwhile: no use waiting for a recovery that cannot come. */
  dead: () => string[] = () => [],
): Promise<{ ms?: number; failures: string[]; firstFailures: string[]; rounds: number }> {
  let failures: string[] = [];
  let firstFailures: string[] = [];
  let rounds = 0;
  for (; rounds < 1000 && Date.now() - since < limitMs;) {
    rounds++;
    failures = await probeRound(stack);
    if (rounds === 1) firstFailures = failures;
    if (failures.length === 0) return { ms: Date.now() - since, failures, firstFailures, rounds };
    const gone = dead();
    if (gone.length > 0) {
      return { failures: [...failures, `gone: ${gone.join(', ')}`], firstFailures, rounds };
    }
    await sleep(200);
  }
  return { failures, firstFailures, rounds };
}
