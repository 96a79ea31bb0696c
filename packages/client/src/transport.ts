import { ConnectionError, SecretPushError, errorFromResponse, maskedPath } from './errors.ts';
import { type AccessToken, TokenCache, raceAbort } from './token-cache.ts';

/*
 * One call of the API: authentication, timeout, abort and retries.
 *
 * Which failures a call may be repeated after depends on what a repeat could do:
 * - `safe` (GET of version, preview, audit and lists; DELETE; a create that carries an
 *   Idempotency-Key): repeated after 429, 503 and connection errors (no answer at all);
 * - `retrieve` (a retrieve or reveal, a download): each successful one uses a view or a download,
 *   so it is repeated only after a 503 whose body says `dependency_unavailable` (the service
 *   refused before claiming anything, or gave the view back). Never after a connection error, a
 *   502 or a 504, where the view may have been used;
 * - `never`: not repeated.
 * Waits grow exponentially with full jitter (a random wait from 0 to 250 ms × 2^attempt, at most
 * `maxRetryDelayMs`). A `Retry-After` from the server is waited out exactly; when it is longer than
 * `maxRetryDelayMs` the call fails at once with the error, whose `retryAfter` says when to try again.
 *
 * A 401 whose `WWW-Authenticate` challenge says `error="invalid_token"` (a token revoked or expired
 * early) makes a client with client credentials fetch a new token and repeat the call once. The
 * API refuses such a token before doing anything, so this is safe for every call.
 *
 * `timeoutMs` bounds the whole call, retries and waits included; the caller's `signal` aborts it.
 */

export type RetryPolicy = 'safe' | 'retrieve' | 'never';

export interface TransportOptions {
  fetch: typeof fetch;
  timeoutMs: number;
  retries: number;
  maxRetryDelayMs: number;
  tokens?: TokenCache | undefined;
  staticToken?: string | undefined;
  userAgent?: string | undefined;
}

export interface CallOptions {
  /** Aborts the call (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

export interface RequestSpec extends CallOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  retry: RetryPolicy;
  /** Whether to send the client's token (false for /version and download links, which ignore it). */
  authenticate: boolean;
  headers?: Record<string, string>;
  /** Makes the body of one attempt (called again for each repeat). */
  body?: () => { body: NonNullable<RequestInit['body']>; headers?: Record<string, string> };
  /**
   * False when the body can be sent only once (a stream given by the caller, read by the first
   * attempt): the call is then never repeated. True by default.
   */
  replayable?: boolean;
}

const BASE_DELAY_MS = 250;

export class Transport {
  constructor(readonly options: TransportOptions) {}

  /** Sends `spec` and returns the successful (2xx) response; throws a SecretPushError otherwise. */
  async send(spec: RequestSpec): Promise<Response> {
    const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = spec.signal ? AbortSignal.any([spec.signal, deadline]) : deadline;
    let refreshedToken = false;
    for (let attempt = 0; ; attempt++) {
      const body = spec.body?.();
      const headers: Record<string, string> = {
        accept: 'application/json',
        ...(this.options.userAgent ? { 'user-agent': this.options.userAgent } : {}),
        ...spec.headers,
        ...body?.headers,
      };
      let token: string | undefined;
      try {
        token = spec.authenticate ? await this.token(signal) : undefined;
      } catch (err) {
        throw this.abortError(err, spec.signal, what(spec), timeoutMs);
      }
      if (token) headers.authorization = `Bearer ${token}`;
      const init: RequestInit & { duplex?: 'half' } = { method: spec.method, headers, signal };
      if (body) {
        init.body = body.body;
        // Needed for a streamed body; harmless for the others.
        init.duplex = 'half';
        if (body.body instanceof ReadableStream) {
          // Fetch (the WHATWG algorithm, which Node's undici follows) sends a *clone* of a request
          // that may follow a redirect or come from a window: cloning tees a streamed body, and the
          // branch that is never read keeps every chunk sent, the whole file in memory (a 100 MiB
          // upload grew the process by 100 MiB). With no window and redirects refused, the
          // request itself is sent. The API never redirects a request with a body.
          init.redirect = 'error';
          init.window = null;
        }
      }
      const canRepeatBody = () => spec.replayable !== false;

      let res: Response;
      try {
        res = await this.options.fetch(spec.url, init);
      } catch (err) {
        if (signal.aborted) throw this.abortError(err, spec.signal, what(spec), timeoutMs);
        const error = new ConnectionError({
          status: 0,
          code: 'connection_error',
          message: `${what(spec)} failed: no answer from the server`,
          cause: err,
        });
        const delay =
          spec.retry === 'safe' && attempt < this.options.retries ? this.delay(attempt) : undefined;
        if (delay === undefined || !canRepeatBody()) throw error;
        await this.sleep(delay, signal, spec, timeoutMs);
        continue;
      }
      if (res.ok) return res;

      const error = await errorFromResponse(res);
      if (
        res.status === 401 &&
        token &&
        this.options.tokens &&
        !refreshedToken &&
        /error="?invalid_token"?/.test(res.headers.get('www-authenticate') ?? '') &&
        canRepeatBody()
      ) {
        refreshedToken = true;
        this.options.tokens.invalidate(token);
        attempt--; // the repeat after a refresh does not count as a retry
        continue;
      }
      if (
        attempt < this.options.retries &&
        retryable(spec.retry, res.status, error.code) &&
        canRepeatBody()
      ) {
        const delay = this.delay(attempt, error.retryAfter);
        if (delay !== undefined) {
          await this.sleep(delay, signal, spec, timeoutMs);
          continue;
        }
      }
      throw error;
    }
  }

  /** The wait before retry number `attempt + 1`, or undefined when Retry-After is too long. */
  delay(attempt: number, retryAfterSeconds?: number): number | undefined {
    return retryDelay(attempt, retryAfterSeconds, this.options.maxRetryDelayMs);
  }

  /** The token of `tokens` within a call's deadline and signal (see SecretPushClient.accessToken). */
  async currentToken(call: CallOptions, fresh: boolean): Promise<AccessToken> {
    const tokens = this.options.tokens;
    if (!tokens) throw new TypeError('This client has no client credentials');
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, deadline]) : deadline;
    try {
      return await tokens.current(signal, fresh);
    } catch (err) {
      throw this.abortError(err, call.signal, 'The token request', timeoutMs);
    }
  }

  private async token(signal: AbortSignal): Promise<string | undefined> {
    if (this.options.tokens) return this.options.tokens.get(signal);
    return this.options.staticToken;
  }

  private async sleep(ms: number, signal: AbortSignal, spec: RequestSpec, timeoutMs: number): Promise<void> {
    try {
      await sleep(ms, signal);
    } catch (err) {
      throw this.abortError(err, spec.signal, what(spec), timeoutMs);
    }
  }

  /** The caller's abort rejects with its reason; the timeout becomes a ConnectionError `timeout`. */
  private abortError(
    err: unknown,
    callerSignal: AbortSignal | undefined,
    what: string,
    timeoutMs: number,
  ): unknown {
    if (callerSignal?.aborted) return callerSignal.reason;
    if (err instanceof SecretPushError) return err;
    // Checked by name: the DOMException of an aborted fetch may come from another realm.
    const name = typeof err === 'object' && err !== null ? (err as { name?: unknown }).name : undefined;
    if (name === 'TimeoutError' || name === 'AbortError') {
      return new ConnectionError({
        status: 0,
        code: 'timeout',
        message: `${what} timed out after ${timeoutMs} ms`,
        cause: err,
      });
    }
    return err;
  }
}

/**
 * The wait before retry number `attempt + 1`: the server's Retry-After when it gave one (undefined,
 * meaning "do not retry", when that is longer than `maxMs`), else a random wait from 0 to
 * 250 ms × 2^attempt, at most `maxMs` (exponential backoff with full jitter).
 */
export function retryDelay(
  attempt: number,
  retryAfterSeconds: number | undefined,
  maxMs: number,
): number | undefined {
  if (retryAfterSeconds !== undefined) {
    const ms = retryAfterSeconds * 1000;
    return ms <= maxMs ? ms : undefined;
  }
  return Math.random() * Math.min(maxMs, BASE_DELAY_MS * 2 ** attempt);
}

/**
 * How a request is named in an error's message: `GET /api/v2/pushes/active`, `GET
 * /api/v2/pushes/…` (never a push's token: messages end up in logs and bug reports).
 */
const what = (spec: RequestSpec) => `${spec.method} ${maskedPath(spec.url)}`;

function retryable(policy: RetryPolicy, status: number, code: string): boolean {
  if (policy === 'safe') return status === 429 || status === 503;
  if (policy === 'retrieve') return status === 503 && code === 'dependency_unavailable';
  return false;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  const wait = new Promise<void>((resolve) => setTimeout(resolve, ms));
  return signal ? raceAbort(wait, signal) : wait;
}
