import { ConnectionError, SecretPushError, errorForStatus, parseRetryAfter } from './errors.ts';

/*
 * The access token of a client that signs in with OAuth 2 client credentials. One cache serves
 * every call of a client:
 * - a token is used until shortly before it expires: 10% of its lifetime before, but at most 30 s
 *   before (a 1 hour token is renewed after 59.5 minutes, a 10 s token after 9 s);
 * - at most one token request is in flight: every caller that needs a token while one is being
 *   fetched waits for that same request;
 * - `invalidate(token)` drops the token that the API refused, so the next caller fetches a new one
 *   (a token already replaced by another caller is not dropped again).
 */

export interface ClientCredentialsAuth {
  clientId: string;
  clientSecret: string;
  /** The auth service's token endpoint, e.g. `https://auth.example.com/connect/token`. */
  tokenUrl: string;
  /** Space-separated scopes to ask for (`pushes:read pushes:write`); the client's scopes when absent. */
  scope?: string;
}

export interface TokenCacheOptions {
  fetch: typeof fetch;
  timeoutMs: number;
  /** Extra attempts of a token request after a connection error, 429 or 503. */
  retries: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  backoff: (attempt: number, retryAfterSeconds: number | undefined) => number | undefined;
  now?: () => number;
}

/** An access token as the token endpoint issued it. */
export interface AccessToken {
  /** The bearer token. */
  token: string;
  /** When it expires; absent for a static token. */
  expiresAt?: Date;
  /** The scopes granted, space-separated, when the token endpoint said. */
  scope?: string;
}

interface CachedToken extends AccessToken {
  /** When to fetch a new one (ms since the epoch). */
  renewAt: number;
}

/** How long before its expiry a token is renewed: 10% of its lifetime, at most 30 s. */
export function renewalMarginMs(expiresInSeconds: number): number {
  return Math.min(30_000, expiresInSeconds * 100);
}

export class TokenCache {
  private cached: CachedToken | undefined;
  private inFlight: Promise<CachedToken> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly auth: ClientCredentialsAuth,
    private readonly options: TokenCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** A valid token: the cached one, or the one being fetched, or a new request. */
  async get(signal?: AbortSignal): Promise<string> {
    return (await this.current(signal)).token;
  }

  /**
   * The token with its expiry and scope. `fresh` forgets the cached one first (a new request,
   * or the one already in flight), e.g. to check credentials.
   */
  current(signal?: AbortSignal, fresh = false): Promise<AccessToken> {
    if (fresh) this.cached = undefined;
    if (this.cached && this.now() < this.cached.renewAt) return Promise.resolve(this.cached);
    this.inFlight ??= this.fetchToken().finally(() => {
      this.inFlight = undefined;
    });
    // The shared request is never aborted by one caller: each caller stops waiting on its own.
    return signal ? raceAbort(this.inFlight, signal) : this.inFlight;
  }

  /** Forgets `token` if it is still the cached one (the API refused it as `invalid_token`). */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private async fetchToken(): Promise<CachedToken> {
    const { clientId, clientSecret, tokenUrl, scope } = this.auth;
    // RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined and base64-encoded.
    const basic = btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`);
    const body = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) body.set('scope', scope);
    for (let attempt = 0; ; attempt++) {
      const started = this.now();
      let res: Response;
      try {
        res = await this.options.fetch(tokenUrl, {
          method: 'POST',
          headers: {
            authorization: `Basic ${basic}`,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: body.toString(),
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
      } catch (cause) {
        const delay = attempt < this.options.retries ? this.options.backoff(attempt, undefined) : undefined;
        if (delay === undefined) {
          const timedOut = (cause as { name?: unknown } | null)?.name === 'TimeoutError';
          throw new ConnectionError({
            status: 0,
            code: timedOut ? 'timeout' : 'connection_error',
            message: timedOut
              ? `The token request to ${tokenUrl} timed out`
              : `The token request to ${tokenUrl} failed: no answer`,
            cause,
          });
        }
        await this.options.sleep(delay);
        continue;
      }
      if (res.ok) {
        const json = (await res.json()) as { access_token?: unknown; expires_in?: unknown; scope?: unknown };
        if (typeof json.access_token !== 'string') {
          throw new SecretPushError({
            status: res.status,
            code: 'invalid_token_response',
            message: 'The token endpoint answered without an access_token',
          });
        }
        const expiresIn = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 60;
        this.cached = {
          token: json.access_token,
          expiresAt: new Date(started + expiresIn * 1000),
          ...(typeof json.scope === 'string' && { scope: json.scope }),
          renewAt: started + expiresIn * 1000 - renewalMarginMs(expiresIn),
        };
        return this.cached;
      }
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      if ((res.status === 429 || res.status === 503) && attempt < this.options.retries) {
        const delay = this.options.backoff(attempt, retryAfter);
        if (delay !== undefined) {
          await res.body?.cancel();
          await this.options.sleep(delay);
          continue;
        }
      }
      throw await tokenError(res, retryAfter);
    }
  }
}

/** The token endpoint's errors are OAuth's `{error, error_description}` (RFC 6749 §5.2). */
async function tokenError(res: Response, retryAfter: number | undefined): Promise<SecretPushError> {
  let body: { error?: unknown; error_description?: unknown } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // Not JSON: the status alone describes it.
  }
  const code = typeof body.error === 'string' ? body.error : `http_${res.status}`;
  const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
  return errorForStatus({
    status: res.status,
    code,
    message: `The token request was refused (${res.status} ${code})${description}`,
    requestId: res.headers.get('x-request-id') ?? undefined,
    retryAfter,
  });
}

const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  let onAbort = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
