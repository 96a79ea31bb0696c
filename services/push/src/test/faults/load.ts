import { randomBytes } from 'node:crypto';
import {
  type Endpoint,
  createFile,
  createText,
  download,
  requestToken,
  retrieve,
  retrievedOf,
  tagged,
  urlTokenOf,
  viaProxy,
} from './api';
import { type Sent, json } from './http-client';
import { within } from './processes';
import { RequestLoad } from './requests-load';
import type { Stack } from './stack';

/*
 * The steady load: an open loop (requests are sent at their rate whatever the answers take, so a
 * frozen replica does not slow the load down) of creates, retrieves, passphrase retrievals, file
 * creates, downloads and token requests, through the proxies. Every answer is recorded with the
 * phase it was sent in, its latency and the replica the proxy routed it to; every push acknowledged
 * with 201 is remembered with what it holds, and every payload served is counted per push.
 */

export type Kind =
  | 'create'
  | 'create_passphrase'
  | 'create_auth'
  | 'retrieve'
  | 'passphrase_retrieve'
  | 'file_create'
  | 'download'
  | 'token'
  | 'request_create'
  | 'respond'
  | 'respond_files';

/** Requests per second of each kind (about 16 in all: the machine runs everything on 2 cores). */
export const RATES: Record<Kind, number> = {
  create: 3,
  create_passphrase: 0.8,
  create_auth: 0.7,
  retrieve: 4.5,
  passphrase_retrieve: 1.2,
  file_create: 1.2,
  download: 0.8,
  token: 1,
  request_create: 0.7,
  respond: 0.5,
  respond_files: 0.4,
};

/** Past this a request is abandoned (and recorded as a `client timeout`). */
export const CLIENT_TIMEOUT_MS = 15_000;
const MAX_IN_FLIGHT = 400;

export interface Outcome {
  /** Its X-Request-Id (`faults-<n>`), as the services log it. */
  id: string;
  kind: Kind;
  phase: string;
  sentAt: number;
  ms: number;
  status?: number;
  retryAfter?: string;
  /** The error `code` of a JSON error answer. */
  code?: string;
  /** A connection error, reset or client timeout. */
  error?: string;
  /** The push proxy's upstream (replica index) or the auth proxy's (0). */
  upstream?: number;
  /** Something wrong in a successful answer (a payload that is not the one pushed, …). */
  problem?: string;
}

export interface PushRecord {
  token: string;
  kind: 'text' | 'file';
  payload: string;
  views: number;
  passphrase?: string;
  file?: { name: string; data: Buffer };
  /** Answers that carried the payload. */
  delivered: number;
  /** Retrieves whose outcome is unknown (no answer, or a 5xx): a view may or may not be used. */
  uncertain: number;
  /** Passphrase attempts sent (the per-push limit is 5 a minute). */
  attempts: number;
  /** Seen answered as expired. */
  seenExpired: boolean;
  phase: string;
  /** Created with the client's token: the client's webhook endpoint gets its events. */
  owned: boolean;
}

const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

export class Load {
  phase = 'setup';
  readonly outcomes: Outcome[] = [];
  readonly pushes = new Map<string, PushRecord>();
  private readonly textPool: PushRecord[] = [];
  private readonly passphrasePool: PushRecord[] = [];
  private readonly links: { push: PushRecord; url: string }[] = [];
  private readonly freshTokens: string[] = [];
  private lastToken: string | undefined;
  private readonly inFlight = new Map<Promise<void>, string>();
  private timer: NodeJS.Timeout | undefined;
  private seq = 0;
  skipped = 0;
  private readonly push: Endpoint;
  private readonly auth: Endpoint;
  /** Requests (issue 28): made by their own client, answered by the load. */
  readonly requests: RequestLoad;

  constructor(private readonly stack: Stack) {
    this.push = viaProxy(stack.proxies.push);
    this.auth = viaProxy(stack.proxies.auth);
    this.requests = new RequestLoad(stack);
  }

  /** Tokens no replica has seen yet: using one makes the replica introspect it. */
  async prime(tokens: number): Promise<void> {
    for (let i = 0; i < tokens; i++) {
      const t = await requestToken(this.auth, this.stack.client, 5000);
      const token = json(t)?.access_token;
      if (t.status !== 200 || typeof token !== 'string') {
        throw new Error(`token request failed: ${t.status ?? t.error} ${t.body.toString()}`);
      }
      this.freshTokens.push(token);
      this.lastToken = token;
    }
    await this.requests.prime(20);
  }

  start(): void {
    const credit = Object.fromEntries(Object.keys(RATES).map((k) => [k, Math.random()])) as Record<
      Kind,
      number
    >;
    let last = Date.now();
    this.timer = setInterval(() => {
      const now = Date.now();
      const dt = Math.min(1000, now - last) / 1000;
      last = now;
      for (const kind of Object.keys(RATES) as Kind[]) {
        credit[kind] += RATES[kind] * dt;
        for (let n = 0; credit[kind] >= 1 && n < 20; n++) {
          credit[kind] -= 1;
          if (this.inFlight.size >= MAX_IN_FLIGHT) {
            this.skipped++;
            continue;
          }
          this.launch(kind);
        }
      }
    }, 50);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** `count` requests of `kind` now, besides the steady rates (answers sent into a fault). */
  burst(kind: Kind, count: number): void {
    for (let i = 0; i < count; i++) this.launch(kind);
  }

  /** Waits (bounded) for the requests sent in `phase` (all phases when absent) to be answered. */
  async drain(phase?: string, timeoutMs = CLIENT_TIMEOUT_MS + 2000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (let i = 0; i < 10_000 && Date.now() < deadline; i++) {
      const pending = [...this.inFlight].filter(([, p]) => phase === undefined || p === phase);
      if (pending.length === 0) return 0;
      await within(Promise.all(pending.map(([p]) => p)), 250);
    }
    return [...this.inFlight].filter(([, p]) => phase === undefined || p === phase).length;
  }

  private launch(kind: Kind): void {
    const phase = this.phase;
    const work = this.run(kind, phase).catch((err: unknown) => {
      this.outcomes.push({
        id: '-',
        kind,
        phase,
        sentAt: Date.now(),
        ms: 0,
        problem: `load bug: ${String(err)}`,
      });
    });
    this.inFlight.set(work, phase);
    void work.finally(() => this.inFlight.delete(work));
  }

  private record(
    id: string,
    kind: Kind,
    phase: string,
    sentAt: number,
    sent: Sent,
    problem?: string,
  ): Outcome {
    const body = sent.status !== undefined && sent.status >= 400 ? json(sent) : undefined;
    const retryAfter = sent.headers['retry-after'];
    const o: Outcome = {
      id,
      kind,
      phase,
      sentAt,
      ms: sent.ms,
      ...(sent.status !== undefined ? { status: sent.status } : {}),
      ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
      ...(typeof body?.code === 'string' ? { code: body.code } : {}),
      ...(typeof body?.error === 'string' && typeof body.code !== 'string' ? { code: body.error } : {}),
      ...(sent.error !== undefined ? { error: sent.error } : {}),
      ...(sent.route ? { upstream: sent.route.upstream } : {}),
      ...(problem ? { problem } : {}),
    };
    this.outcomes.push(o);
    return o;
  }

  private token(fresh: boolean): string | undefined {
    return (fresh ? this.freshTokens.pop() : undefined) ?? this.lastToken;
  }

  private remember(rec: PushRecord): void {
    this.pushes.set(rec.token, rec);
    (rec.passphrase ? this.passphrasePool : this.textPool).push(rec);
  }

  private async run(kind: Kind, phase: string): Promise<void> {
    const sentAt = Date.now();
    const n = this.seq++;
    const id = `faults-${n}`;
    const push = tagged(this.push, id);
    const auth = tagged(this.auth, id);
    switch (kind) {
      case 'create':
      case 'create_passphrase':
      case 'create_auth': {
        const payload = `secret-${n}-${randomBytes(6).toString('hex')}`;
        const views = 1 + Math.floor(Math.random() * 3);
        const passphrase =
          kind === 'create_passphrase' ? `pass-${randomBytes(4).toString('hex')}` : undefined;
        const token = kind === 'create_auth' ? this.token(Math.random() < 0.5) : undefined;
        const sent = await createText(push, { payload, views, passphrase }, token, CLIENT_TIMEOUT_MS);
        const urlToken = urlTokenOf(sent);
        let problem: string | undefined;
        if (sent.status === 201) {
          if (!urlToken) problem = '201 without a url_token';
          else {
            this.remember({
              token: urlToken,
              kind: 'text',
              payload,
              views,
              ...(passphrase ? { passphrase } : {}),
              delivered: 0,
              uncertain: 0,
              attempts: 0,
              seenExpired: false,
              phase,
              owned: token !== undefined,
            });
          }
        }
        this.record(id, kind, phase, sentAt, sent, problem);
        return;
      }
      case 'file_create': {
        const token = this.token(Math.random() < 0.5);
        if (!token) return;
        const payload = `file-secret-${n}`;
        const views = 1 + Math.floor(Math.random() * 3);
        const file = { name: `f${n}.bin`, data: randomBytes(512 + Math.floor(Math.random() * 3584)) };
        const sent = await createFile(push, { payload, views, file }, token, CLIENT_TIMEOUT_MS);
        const urlToken = urlTokenOf(sent);
        if (sent.status === 201 && urlToken) {
          this.remember({
            token: urlToken,
            kind: 'file',
            payload,
            views,
            file,
            delivered: 0,
            uncertain: 0,
            attempts: 0,
            seenExpired: false,
            phase,
            owned: true,
          });
        }
        this.record(
          id,
          kind,
          phase,
          sentAt,
          sent,
          sent.status === 201 && !urlToken ? '201 without a url_token' : undefined,
        );
        return;
      }
      case 'retrieve':
      case 'passphrase_retrieve': {
        const pool = kind === 'retrieve' ? this.textPool : this.passphrasePool;
        // Mostly pushes with views left; now and then one that is used up (its answer: expired).
        const live = pool.filter((p) => !p.seenExpired && p.delivered < p.views && p.attempts < 2);
        const rec =
          Math.random() < 0.9 || kind === 'passphrase_retrieve' ? pick(live.slice(-200)) : pick(pool);
        if (!rec) return;
        // A quarter of the plain retrieves come in pairs, at once (one per replica): views are claimed atomically.
        const copies = kind === 'retrieve' && Math.random() < 0.25 ? 2 : 1;
        await Promise.all(
          Array.from({ length: copies }, async (_, copy) => {
            const start = Date.now();
            const copyId = copy === 0 ? id : `${id}b`;
            let passphrase: { value: string; via: 'header' | 'reveal' } | undefined;
            if (rec.passphrase) {
              rec.attempts++;
              passphrase = { value: rec.passphrase, via: n % 2 === 0 ? 'header' : 'reveal' };
            }
            const sent = await retrieve(tagged(this.push, copyId), rec.token, passphrase, CLIENT_TIMEOUT_MS);
            this.record(copyId, kind, phase, start, sent, this.account(rec, sent));
          }),
        );
        return;
      }
      case 'download': {
        const link = this.links.shift();
        if (!link) return;
        const sent = await download(push, link.url, CLIENT_TIMEOUT_MS);
        let problem: string | undefined;
        if (sent.status === 200 && link.push.file && !sent.body.equals(link.push.file.data)) {
          problem = `downloaded ${sent.body.length} bytes that are not the file pushed (${link.push.file.data.length} bytes)`;
        }
        this.record(id, kind, phase, sentAt, sent, problem);
        return;
      }
      case 'request_create': {
        const { sent, problem } = await this.requests.create(this.push, id, phase, CLIENT_TIMEOUT_MS);
        this.record(id, kind, phase, sentAt, sent, problem);
        return;
      }
      case 'respond':
      case 'respond_files': {
        const rec = this.requests.pick(kind === 'respond_files');
        if (!rec) return;
        // A third with a token of the load's client (introspected, fresh now and then: the auth
        // service's fault); a quarter twice at once (one per replica): one answer wins.
        const token = Math.random() < 0.33 ? this.token(Math.random() < 0.5) : undefined;
        const copies = Math.random() < 0.25 ? 2 : 1;
        await Promise.all(
          Array.from({ length: copies }, async (_, copy) => {
            const start = Date.now();
            const copyId = copy === 0 ? id : `${id}b`;
            const { sent, problem } = await this.requests.answer(
              this.push,
              rec,
              copyId,
              phase,
              token,
              CLIENT_TIMEOUT_MS,
            );
            this.record(copyId, kind, phase, start, sent, problem);
          }),
        );
        return;
      }
      case 'token': {
        const sent = await requestToken(auth, this.stack.client, CLIENT_TIMEOUT_MS);
        const token = json(sent)?.access_token;
        let problem: string | undefined;
        if (sent.status === 200) {
          if (typeof token !== 'string') problem = '200 without an access_token';
          else {
            this.lastToken = token;
            if (this.freshTokens.length < 200) this.freshTokens.unshift(token);
          }
        }
        this.record(id, kind, phase, sentAt, sent, problem);
        return;
      }
    }
  }

  /** Counts a retrieve's answer against its push; returns a problem with the answer, if any. */
  private account(rec: PushRecord, sent: Sent): string | undefined {
    if (sent.status === undefined || sent.status >= 500 || sent.error !== undefined) {
      rec.uncertain++;
      return undefined;
    }
    if (sent.status !== 200) return undefined;
    const r = retrievedOf(sent);
    if (!r) return '200 without a push object';
    if (r.payload === null) {
      rec.seenExpired = true;
      return undefined;
    }
    rec.delivered++;
    if (r.payload !== rec.payload) return `served a payload that is not the one pushed`;
    if (rec.kind === 'file') {
      if (r.files.length !== 1) return `a file push served with ${r.files.length} files`;
      this.links.push({ push: rec, url: r.files[0]!.url });
      if (this.links.length > 100) this.links.shift();
    }
    return undefined;
  }
}
