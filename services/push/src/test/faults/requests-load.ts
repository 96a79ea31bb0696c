import { randomBytes } from 'node:crypto';
import {
  type Endpoint,
  createRequest,
  requestToken,
  respond,
  respondWithFile,
  tagged,
  viaProxy,
} from './api';
import { type Sent, json } from './http-client';
import type { Stack } from './stack';

/*
 * The requests' part of the load (issue 28): the requester client makes requests (`request_create`)
 * and responders answer them (`respond`), anonymously or with a token of the load's client (so
 * that the answer needs introspection: the auth service's fault), a quarter of them twice at once
 * (one per replica: one answer wins, the other is 409). Two requests in five take files
 * (`response_file_attachments`) and are answered with one (`respond_files`: a multipart answer
 * streamed to the object store, so the S3 faults reach it). Every answer is remembered with its
 * request, so that the end check (requests-check.ts) can hold each request to "answered once,
 * with the payload of its 201", whatever the faults did.
 */

export interface AnswerSent {
  payload: string;
  /** The file sent with it (a `respond_files` answer). */
  file?: { name: string; data: Buffer };
  phase: string;
  status?: number;
  code?: string;
  error?: string;
}

export interface RequestRecord {
  token: string;
  phase: string;
  /** It takes files (`response_file_attachments`): answered with one. */
  files: boolean;
  answers: AnswerSent[];
  /** A 201 or a 409 was seen: it needs no more answers. */
  settled: boolean;
}

/** Answers sent to one request at most (a 503 may be retried). */
const MAX_ANSWERS = 3;

export class RequestLoad {
  readonly requests = new Map<string, RequestRecord>();
  private readonly open: RequestRecord[] = [];
  private requesterToken: string | undefined;

  constructor(private readonly stack: Stack) {}

  /** The requester's token, and `count` requests made before the load starts. */
  async prime(count: number): Promise<void> {
    const t = await requestToken(viaProxy(this.stack.proxies.auth), this.stack.requester, 5000);
    const token = json(t)?.access_token;
    if (t.status !== 200 || typeof token !== 'string') {
      throw new Error(`requester token request failed: ${t.status ?? t.error} ${t.body.toString()}`);
    }
    this.requesterToken = token;
    for (let i = 0; i < count; i++) {
      const files = i % 2 === 1;
      const sent = await createRequest(
        viaProxy(this.stack.proxies.push),
        `primed request ${i}`,
        token,
        5000,
        {
          files,
        },
      );
      if (sent.status !== 201) throw new Error(`request create failed: ${sent.status ?? sent.error}`);
      this.remember(json(sent)!.url_token as string, 'setup', files);
    }
  }

  get ownerToken(): string {
    return this.requesterToken!;
  }

  private remember(token: string, phase: string, files: boolean, reserve = false): void {
    const rec: RequestRecord = { token, phase, files, answers: [], settled: false };
    this.requests.set(token, rec);
    (reserve ? this.reserved : this.open).push(rec);
  }

  /** Requests that take files, kept for the next file answers (those sent into a fault). */
  private readonly reserved: RequestRecord[] = [];

  /** Makes `count` requests that take files, to be answered first by the next `pick(true)`. */
  async reserveFileRequests(count: number, phase: string): Promise<void> {
    for (let i = 0; i < count; i++) {
      const sent = await createRequest(
        viaProxy(this.stack.proxies.push),
        `reserved ${i}`,
        this.ownerToken,
        5000,
        {
          files: true,
        },
      );
      const token = json(sent)?.url_token;
      if (sent.status !== 201 || typeof token !== 'string') {
        throw new Error(`reserved request create failed: ${sent.status ?? sent.error}`);
      }
      this.remember(token, phase, true, true);
    }
  }

  /** One request made; its answer (the caller records it). */
  async create(
    to: Endpoint,
    id: string,
    phase: string,
    timeoutMs: number,
  ): Promise<{ sent: Sent; problem?: string }> {
    const files = Math.random() < 0.4;
    const sent = await createRequest(tagged(to, id), `request ${id}`, this.ownerToken, timeoutMs, { files });
    if (sent.status !== 201) return { sent };
    const token = json(sent)?.url_token;
    if (typeof token !== 'string') return { sent, problem: '201 without a url_token' };
    this.remember(token, phase, files);
    return { sent };
  }

  /** An open request to answer (a recent one mostly) that takes files or not, or none. */
  pick(files: boolean): RequestRecord | undefined {
    const kept = files ? this.reserved.shift() : undefined;
    if (kept) {
      this.open.push(kept);
      return kept;
    }
    for (let i = this.open.length - 1; i >= 0; i--) {
      const rec = this.open[i]!;
      if (rec.settled || rec.answers.length >= MAX_ANSWERS) this.open.splice(i, 1);
    }
    const recent = this.open.filter((r) => r.files === files).slice(-50);
    if (recent.length === 0) return undefined;
    return recent[Math.floor(Math.random() * recent.length)];
  }

  /** One answer to `rec`; remembered with it. */
  async answer(
    to: Endpoint,
    rec: RequestRecord,
    id: string,
    phase: string,
    token: string | undefined,
    timeoutMs: number,
  ): Promise<{ sent: Sent; problem?: string }> {
    const payload = `answer-${id}-${randomBytes(6).toString('hex')}`;
    const file = rec.files
      ? { name: `a-${id}.bin`, data: randomBytes(256 + Math.floor(Math.random() * 2048)) }
      : undefined;
    const sent: AnswerSent = { payload, phase, ...(file ? { file } : {}) };
    rec.answers.push(sent);
    const res = file
      ? await respondWithFile(tagged(to, id), rec.token, payload, file, token, timeoutMs)
      : await respond(tagged(to, id), rec.token, payload, token, timeoutMs);
    const body = res.status !== undefined ? json(res) : undefined;
    if (res.status !== undefined) sent.status = res.status;
    if (typeof body?.code === 'string') sent.code = body.code;
    if (res.error !== undefined) sent.error = res.error;
    let problem: string | undefined;
    if (res.status === 201) {
      rec.settled = true;
      if (body?.state !== 'answered') problem = '201 without state "answered"';
      if (JSON.stringify(body ?? {}).includes(payload)) problem = 'the 201 carries the answer';
    } else if (res.status === 409) {
      rec.settled = true;
      if (body?.code !== 'already_answered') problem = `409 ${String(body?.code)}`;
    }
    return { sent: res, problem };
  }
}
