import { monitorEventLoopDelay } from 'node:perf_hooks';
import fc from 'fast-check';
import { type Endpoint, type FuzzInput, isMultipart } from './endpoints';
import type { Fixture, LogTap } from './fixtures';
import type { HttpRequest, HttpResult } from './http-send';
import { type Snapshot, changedKeys, describeChange } from './row-counts';

/*
 * Runs one endpoint's inputs through fast-check, one request at a time, and judges each answer:
 *
 * - never a 5xx, never a hang (the sender's deadline) or a connection closed without an answer;
 * - a request refused with 400, 413, 415 or 422 changes nothing: row counts, views used, pushes
 *   expired and the auth service's token rows are compared before and after each request (after
 *   a refused multipart request, once the service is quiet); the bucket's object count before
 *   and after each multipart request (the only kind that can store objects), and for every other
 *   request, refused or accepted alike (none may change it), over windows of 200 requests;
 * - an audited refusal (401 `passphrase_required`, or the recipient page's wrong-passphrase 401)
 *   adds exactly its one audit entry and changes nothing else;
 * - the other refusals of the API and the auth service (401, 403, 404, 405, 429, 431) change
 *   nothing either. Recipient pages are held to the first two rules only: their 404 is also the
 *   answer for an expired push, which is audited. The responder's pages (`/respond/…`): a refusal
 *   (any 4xx) adds at most the endpoint's `refusalAudits` request audit entries and changes nothing
 *   else; an endpoint's `verdict` judges what status and state cannot (a redirect's target);
 *   a HEAD, whatever its answer, changes nothing (it delivers nothing, so it spends nothing).
 *
 * Requests are sequential, so the snapshot after one request is the snapshot before the next.
 * Accepted requests (2xx, 3xx) may change state (a 201 of POST /pushes or of the web app's create
 * form, POST /, adds its push); they only feed the next comparison. The create form's refusals
 * (403 of its CSRF guard, 422 with the form again, the body reader's 400/413/415) are held to the
 * API's rules: they change nothing.
 *
 * fast-check drives the generation. Each problem gets a signature (endpoint, kind, and the logged
 * error for a 5xx or the input family otherwise). The first input showing a new signature makes
 * the property fail; fast-check then shrinks it (only inputs with that same signature count as
 * failing while shrinking, within a budget), the shrunk request is recorded, and generation goes
 * on with a new seed for the remaining inputs. Signatures already recorded are counted, not
 * shrunk again. So one run reports every distinct failure, each with a minimal request.
 */

export interface Failure {
  endpoint: string;
  signature: string;
  kind: string;
  family: string;
  /** The shrunk request. */
  request: HttpRequest;
  /** The request that first showed the failure (before shrinking). */
  original: HttpRequest;
  status: number;
  error?: string;
  responseBody: string;
  change?: string;
  logs: string[];
  /** Inputs of the exploration that showed this signature (the first one included). */
  occurrences: number;
  seed: number;
  path: string | null;
  shrinkSteps: number;
}

export interface EndpointStats {
  endpoint: Endpoint;
  tried: number;
  reached: number;
  statuses: Map<string, number>;
  families: Map<string, number>;
  shrinkRequests: number;
  elapsedMs: number;
  /** Time spent waiting for answers, and taking snapshots (the rest is generation and judging). */
  sendMs: number;
  /** Refused multipart requests whose state still changed after the answer (then settled). */
  lateChanges: number;
  /** Rows and objects of earlier unanswered requests cleaned up late, during this endpoint's run. */
  lateCleanups: number;
  /** Answer time by input family (for tuning the mix). */
  familyMs: Map<string, number>;
  snapshotMs: number;
  failures: Failure[];
}

export interface RunOptions {
  fx: Fixture;
  seed: number;
  /** Shrinking stops after this many replays or milliseconds, keeping the smallest failing input. */
  shrinkSteps: number;
  shrinkMs: number;
  /** Shrinking time left for the whole run, shared by all endpoints (then failures stay unshrunk). */
  shrinkBudget: { remainingMs: number };
  /**
   * Deadline of a replay while shrinking a hang, and of the endpoint's later inputs once it has
   * hung: the first hang was detected with the full deadline; after that, no answer within this
   * long is taken as a hang, so that a hanging endpoint costs seconds per hang, not the deadline.
   */
  shrinkHangMs: number;
}

interface Problem {
  kind: string;
  key: string;
  change?: string;
}

interface Observation {
  result: HttpResult;
  before: Snapshot;
  after: Snapshot;
  logs: string[];
  /** Longest event-loop stall while the request ran (services and client share the loop). */
  blockedMs: number;
  /** After a hang: whether the service still answered a trivial request. */
  probe?: string;
}

const REFUSED_UNCHANGED = new Set([400, 413, 415, 422]);
/** Requests of a push endpoint between two counts of the bucket (multipart requests are counted each). */
const OBJECT_WINDOW = 200;
/** What an upload leaves until it is committed or cleaned up. */
const UPLOAD_KEYS = ['push', 'push_file', 'upload_intent', 'objects'] as const;
/** An event-loop stall this long during one request is a failure (a denial of service by one input). */
const BLOCKED_MS = 2000;
const OTHER_REFUSALS = new Set([401, 403, 404, 405, 429, 431]);

/** The requests' endpoints (issue 28): their 409 `already_answered` and 410 `gone` are refusals too. */
const isRequestEndpoint = (ep: Endpoint) => ep.service === 'push' && ep.name.includes(' /requests');
const REQUEST_REFUSALS = new Set([409, 410]);

/**
 * The responder's audited refusals: `answer_refused` (401 `unauthorized` of a request only users
 * may answer, 403 `forbidden` or `code_required`) and `failed_passphrase` (401
 * `passphrase_required` with a wrong passphrase; a missing one is refused unaudited). Each adds at
 * most its one request audit entry and changes nothing else: no answer push, no state.
 */
const AUDITED_REQUEST_CODES = new Set(['passphrase_required', 'unauthorized', 'forbidden', 'code_required']);
function isAuditedRequestRefusal(ep: Endpoint, res: HttpResult): boolean {
  if (!isRequestEndpoint(ep) || !ep.name.includes('/respond') || (res.status !== 401 && res.status !== 403)) {
    return false;
  }
  try {
    const code = (JSON.parse(res.body.toString('utf8')) as { code?: unknown }).code;
    return typeof code === 'string' && AUDITED_REQUEST_CODES.has(code);
  } catch {
    return false;
  }
}

const isPage = (ep: Endpoint) => ep.service === 'push' && / \/(p|f|r)\//.test(ep.name);

/** The 401 of a wrong or missing passphrase, which is audited `failed_passphrase`. */
function isAuditedPassphraseRefusal(ep: Endpoint, res: HttpResult): boolean {
  if (res.status !== 401 || ep.service !== 'push') return false;
  if (isPage(ep)) return ep.name.startsWith('POST /p/:t[');
  try {
    return (JSON.parse(res.body.toString('utf8')) as { code?: unknown }).code === 'passphrase_required';
  } catch {
    return false;
  }
}

/** The error a 5xx logged, without ids and numbers, to tell distinct bugs apart. */
function loggedError(lines: string[]): string | undefined {
  for (const line of lines) {
    try {
      const entry = JSON.parse(line) as {
        level?: string;
        msg?: string;
        err?: { type?: string; message?: string };
        cause?: string;
      };
      if (entry.level !== 'error' && entry.level !== 'warn' && entry.level !== 'fatal') continue;
      const text = entry.err?.message
        ? `${entry.err.type ?? 'Error'}: ${entry.err.message}`
        : `${entry.msg ?? ''}${entry.cause ? ` (${entry.cause})` : ''}`;
      return text
        .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, '<uuid>')
        .replace(/\d+/g, '#')
        .slice(0, 160);
    } catch {
      continue;
    }
  }
  return undefined;
}

function judge(ep: Endpoint, input: FuzzInput, obs: Observation): Problem | undefined {
  const { result: res, before, after } = obs;
  if (obs.blockedMs > BLOCKED_MS) {
    return { kind: 'event loop blocked', key: `over ${BLOCKED_MS} ms (input family ${input.family})` };
  }
  if (res.error !== undefined) {
    const left = describeChange(before, after);
    return {
      kind: res.error === 'timeout' ? 'hang (no answer within the deadline)' : 'no answer',
      key: `${res.error}; ${obs.probe ?? ''}`,
      change: left ? `${left} (once settled)` : undefined,
    };
  }
  if (res.status >= 500) {
    return { kind: `${res.status}`, key: loggedError(obs.logs) ?? `input family ${input.family}` };
  }
  const wrong = ep.verdict?.(res);
  if (wrong) return { kind: wrong, key: String(res.status) };
  const changed = changedKeys(before, after);
  if (input.request.method === 'HEAD' && changed.length > 0) {
    // A HEAD delivers nothing: it never spends a view or a download, nor audits an opening.
    const change = describeChange(before, after);
    return { kind: 'a HEAD changed state', key: changed.join(','), change };
  }
  if (ep.refusalAudits !== undefined && res.status >= 400) {
    // The responder's pages: a refusal adds at most its audit entries, and nothing else.
    const added = (after.request_audit_entry ?? 0) - (before.request_audit_entry ?? 0);
    const ok = changed.every((k) => k === 'request_audit_entry') && added >= 0 && added <= ep.refusalAudits;
    if (ok) return undefined;
    const change = describeChange(before, after);
    return {
      kind: `state changed on a ${res.status} beyond ${ep.refusalAudits} request audit entries`,
      key: `${changed.join(',')} (${input.family})`,
      change,
    };
  }
  if (isAuditedRequestRefusal(ep, res)) {
    const added = (after.request_audit_entry ?? 0) - (before.request_audit_entry ?? 0);
    const ok = changed.every((k) => k === 'request_audit_entry') && added >= 0 && added <= 1;
    if (ok) return undefined;
    const change = describeChange(before, after) || 'nothing';
    return { kind: 'audited request refusal changed more than its one audit entry', key: change, change };
  }
  if (isAuditedPassphraseRefusal(ep, res)) {
    const ok =
      changed.length === 1 && changed[0] === 'audit_entry' && after.audit_entry! - before.audit_entry! === 1;
    if (ok) return undefined;
    const change = describeChange(before, after) || 'nothing';
    return { kind: 'audited refusal did not add exactly one audit entry', key: change, change };
  }
  const refusal =
    REFUSED_UNCHANGED.has(res.status) ||
    (isRequestEndpoint(ep) && REQUEST_REFUSALS.has(res.status)) ||
    (OTHER_REFUSALS.has(res.status) && !(isPage(ep) && res.status === 404));
  if (refusal && changed.length > 0) {
    const change = describeChange(before, after);
    return {
      kind: `state changed on a ${res.status}`,
      key: `${changed.join(',')} (${input.family})`,
      change,
    };
  }
  return undefined;
}

const statusLabel = (res: HttpResult): string =>
  res.error !== undefined ? `ERR:${res.error}` : String(res.status);

/**
 * What requests without an answer left behind (upload intents, objects, …) and the service has
 * not cleaned up yet. A request that hangs because the service stopped reading its body is only
 * noticed closed when the server's idle timeout destroys the socket (30 s), and its upload is
 * cleaned up then, during whatever request runs at that moment. Such a late cleanup (a change
 * towards undoing a recorded leftover) is not blamed on that request; the leftover itself is
 * reported with the hang.
 */
const pendingCleanup: Partial<Record<(typeof UPLOAD_KEYS)[number], number>> = {};

function absorbLateCleanup(before: Snapshot, after: Snapshot, stats: EndpointStats): Snapshot {
  let adjusted = after;
  for (const k of UPLOAD_KEYS) {
    const pending = pendingCleanup[k] ?? 0;
    const delta = (after[k] ?? 0) - (before[k] ?? 0);
    if (pending === 0 || delta === 0 || Math.sign(delta) === Math.sign(pending)) continue;
    const absorbed = Math.sign(delta) * Math.min(Math.abs(delta), Math.abs(pending));
    pendingCleanup[k] = pending + absorbed;
    adjusted = { ...adjusted, [k]: after[k]! - absorbed };
    stats.lateCleanups += Math.abs(absorbed);
  }
  return adjusted;
}

const loopDelay = monitorEventLoopDelay({ resolution: 20 });
loopDelay.enable();

export async function fuzzEndpoint(ep: Endpoint, runs: number, options: RunOptions): Promise<EndpointStats> {
  const { fx } = options;
  const sender = ep.service === 'push' ? fx.pushSend : fx.authSend;
  const tap: LogTap = ep.service === 'push' ? fx.logs.push : fx.logs.auth;
  const stats: EndpointStats = {
    endpoint: ep,
    tried: 0,
    reached: 0,
    statuses: new Map(),
    families: new Map(),
    shrinkRequests: 0,
    elapsedMs: 0,
    sendMs: 0,
    lateChanges: 0,
    lateCleanups: 0,
    familyMs: new Map(),
    snapshotMs: 0,
    failures: [],
  };
  const started = performance.now();
  const known = new Map<string, Failure>();
  // A push request is compared on the push database (and the bucket when it is counted), an auth
  // request on the auth database (the push service only reads the auth service: introspection).
  const push = ep.service === 'push';
  const scope = (objects: boolean) => ({ push, auth: !push, objects: push && objects });
  let current: Snapshot | undefined;

  // The bucket: counted around every multipart request (the only kind that can store objects);
  // every other request, accepted or refused, must leave it as it is, checked for windows of
  // OBJECT_WINDOW such requests (counting it costs more than most requests under test).
  let objectsKnown = push ? (await fx.snap.take(scope(true))).objects! : 0;
  const window = { requests: 0, families: new Set<string>(), first: undefined as HttpRequest | undefined };
  const closeWindow = (now: Snapshot) => {
    const adjusted = absorbLateCleanup({ objects: objectsKnown }, { objects: now.objects }, stats);
    if (window.requests > 0 && adjusted.objects !== objectsKnown) {
      const signature = `${ep.name} | the bucket changed during requests that cannot store objects | ${window.requests} requests`;
      if (!known.has(signature)) {
        const failure: Failure = {
          endpoint: ep.name,
          signature,
          kind: 'bucket changed',
          family: [...window.families].slice(0, 12).join(', '),
          request: window.first!,
          original: window.first!,
          status: 0,
          responseBody: '',
          change: `objects ${objectsKnown} -> ${now.objects} over ${window.requests} requests (the first shown)`,
          logs: [],
          occurrences: 1,
          seed: options.seed,
          path: null,
          shrinkSteps: 0,
        };
        known.set(signature, failure);
        stats.failures.push(failure);
      }
    }
    objectsKnown = now.objects!;
    window.requests = 0;
    window.families.clear();
    window.first = undefined;
  };

  // The folder count must agree with the S3 API's listing.
  const checkObjectCounter = async () => {
    if (!push) return;
    const [listed, counted] = await Promise.all([fx.snap.objects(), fx.snap.take(scope(true))]);
    if (listed !== counted.objects) {
      throw new Error(`harness: the s3rver lists ${listed} objects, its folder holds ${counted.objects}`);
    }
  };
  await checkObjectCounter();

  /**
   * Waits until the service is quiet (`quietReadings` equal snapshots `intervalMs` apart), and,
   * with `backTo`, until what uploads leave is back to those counts: after a request without an
   * answer (a hang still running, an abort being cleaned up), and after a refused multipart
   * request (uploads cancelled when the answer went out may still be cleaned up), so that what
   * the service does late is judged with the request that caused it, not the next one.
   */
  const settle = async (
    first: Snapshot,
    intervalMs: number,
    quietReadings: number,
    backTo?: Snapshot,
    maxMs = 3000,
  ): Promise<Snapshot> => {
    let last = first;
    let quiet = 0;
    const back = (x: Snapshot) => !backTo || UPLOAD_KEYS.every((k) => x[k] === backTo[k]);
    for (let i = 0; i < maxMs / intervalMs && !(quiet >= quietReadings && back(last)); i++) {
      await new Promise((r) => setTimeout(r, intervalMs));
      const now = await fx.snap.take(scope(true));
      quiet = changedKeys(last, now).length === 0 ? quiet + 1 : 0;
      last = now;
    }
    return last;
  };

  /** After a hang: does the service still answer anything (one input stuck, or all of it)? */
  const probeService = async (): Promise<string> => {
    const target = push ? '/api/v2/version' : '/.well-known/openid-configuration';
    const res = await sender.send({ method: 'GET', target, headers: [] }, 2000);
    return res.error === undefined
      ? 'the service answered other requests meanwhile'
      : 'the whole service stopped answering';
  };

  const observe = async (input: FuzzInput, deadlineMs?: number): Promise<Observation> => {
    const t0 = performance.now();
    const multipart = push && isMultipart(input);
    let before: Snapshot;
    if (multipart || (push && window.requests >= OBJECT_WINDOW)) {
      before = await fx.snap.take(scope(true));
      closeWindow(before);
    } else {
      before = current ?? (await fx.snap.take(scope(false)));
      before = { ...before, objects: undefined };
    }
    const mark = tap.mark();
    const t1 = performance.now();
    loopDelay.reset();
    const result = await sender.send(input.request, deadlineMs);
    const blockedMs = loopDelay.max / 1e6;
    const t2 = performance.now();
    let after = await fx.snap.take(scope(multipart));
    let probe: string | undefined;
    if (result.error !== undefined) {
      probe = await probeService();
      // The service may still be working on it, or cleaning up after the connection closed (an
      // aborted upload goes within a second or two): wait until what an upload leaves is back to
      // how it was (nothing left behind, as a failed create must), or for 5 s at most. The
      // window of requests before it is closed with it.
      after = await settle(
        await fx.snap.take(scope(true)),
        250,
        2,
        { ...before, objects: objectsKnown },
        5000,
      );
      if (push) {
        const left = after.objects! - objectsKnown;
        if (left !== 0) pendingCleanup.objects = (pendingCleanup.objects ?? 0) + left;
        before = { ...before, objects: objectsKnown };
        objectsKnown = after.objects!;
        window.requests = 0;
        window.families.clear();
        window.first = undefined;
      }
      for (const k of UPLOAD_KEYS) {
        if (k === 'objects') continue;
        const left = (after[k] ?? 0) - (before[k] ?? 0);
        if (left !== 0) pendingCleanup[k] = (pendingCleanup[k] ?? 0) + left;
      }
      current = after;
    } else {
      if (multipart && result.status >= 400) {
        const settled = await settle(after, 10, 1);
        if (changedKeys(after, settled).length > 0) stats.lateChanges++;
        after = settled;
      }
      if (multipart) objectsKnown = after.objects!;
      else if (push) {
        window.requests++;
        window.families.add(input.family);
        window.first ??= input.request;
      }
      current = after;
      after = absorbLateCleanup(before, after, stats);
    }
    stats.sendMs += t2 - t1;
    stats.snapshotMs += t1 - t0 + (performance.now() - t2);
    return { result, before, after, logs: tap.since(mark), blockedMs, probe };
  };

  let remaining = runs;
  let seed = options.seed;
  let hungBefore = false;
  while (remaining > 0) {
    let phase: 'explore' | 'shrink' = 'explore';
    let target: string | undefined;
    let explored = 0;
    let shrinkSteps = 0;
    let shrinkStarted = 0;
    let best: { input: FuzzInput; obs: Observation; problem: Problem } | undefined;
    let first: FuzzInput | undefined;

    let shrinkDeadline: number | undefined;
    const property = fc.asyncProperty(ep.input, async (input) => {
      if (phase === 'shrink') {
        // Out of budget: every remaining candidate passes without a request, which ends shrinking
        // at the smallest failing input found so far.
        const spent = performance.now() - shrinkStarted;
        if (
          shrinkSteps >= options.shrinkSteps ||
          spent > options.shrinkMs ||
          spent > options.shrinkBudget.remainingMs
        ) {
          return true;
        }
      }
      // Once this endpoint has hung, later hangs are detected at the shorter deadline too: the
      // first one was found at the full deadline and is reported; more would only cost time.
      const deadline = phase === 'shrink' ? shrinkDeadline : hungBefore ? options.shrinkHangMs : undefined;
      const obs = await observe(input, deadline);
      if (phase === 'explore') {
        explored++;
        stats.tried++;
        const label = statusLabel(obs.result);
        stats.statuses.set(label, (stats.statuses.get(label) ?? 0) + 1);
        stats.families.set(input.family, (stats.families.get(input.family) ?? 0) + 1);
        const key = `${input.family} ${statusLabel(obs.result)}`;
        stats.familyMs.set(key, (stats.familyMs.get(key) ?? 0) + obs.result.ms);
        if (obs.result.error === undefined && ep.reached(obs.result.status, obs.result.body)) stats.reached++;
      } else {
        stats.shrinkRequests++;
        shrinkSteps++;
      }
      const problem = judge(ep, input, obs);
      if (!problem) return true;
      const signature = `${ep.name} | ${problem.kind} | ${problem.key}`;
      if (phase === 'explore') {
        const seen = known.get(signature);
        if (seen) {
          seen.occurrences++;
          return true;
        }
        phase = 'shrink';
        target = signature;
        shrinkStarted = performance.now();
        shrinkDeadline = obs.result.error === 'timeout' ? options.shrinkHangMs : undefined;
        hungBefore ||= obs.result.error === 'timeout';
        best = { input, obs, problem };
        first = input;
        return false;
      }
      if (signature !== target) return true;
      best = { input, obs, problem };
      return false;
    });

    const details = await fc.check(property, { numRuns: remaining, seed });
    remaining -= explored;
    if (shrinkStarted > 0) options.shrinkBudget.remainingMs -= performance.now() - shrinkStarted;
    if (!details.failed || !best || !target) break;
    const failure: Failure = {
      endpoint: ep.name,
      signature: target,
      kind: best.problem.kind,
      family: best.input.family,
      request: best.input.request,
      original: first!.request,
      status: best.obs.result.status,
      error: best.obs.result.error,
      responseBody: best.obs.result.body.toString('utf8').slice(0, 600),
      change: best.problem.change,
      logs: best.obs.logs.slice(0, 3).map((l) => l.slice(0, 1500)),
      occurrences: 1,
      seed,
      path: details.counterexamplePath,
      shrinkSteps,
    };
    known.set(target, failure);
    stats.failures.push(failure);
    seed = (seed + 1) | 0;
    current = undefined; // shrinking replays may have left any state: snapshot afresh
  }
  if (push) closeWindow(await fx.snap.take(scope(true)));
  await checkObjectCounter();
  stats.elapsedMs = performance.now() - started;
  return stats;
}
