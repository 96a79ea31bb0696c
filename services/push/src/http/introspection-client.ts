import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ClientPrincipal, TokenVerifier } from './principal';

/**
 * The auth service gave no usable answer: unreachable, too slow, a 5xx, or it refused our own
 * credentials. Says nothing about the token, so callers must not treat it as an invalid token.
 */
export class AuthServiceUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthServiceUnavailable';
  }
}

export interface IntrospectionOptions {
  /** RFC 7662 endpoint, e.g. `${issuer}/connect/introspect`. */
  introspectionUrl: string;
  /** The push service's resource-server credentials (HTTP Basic). */
  clientId: string;
  clientSecret: string;
  /** The only accepted `aud`, e.g. `push-api`. */
  audience: string;
  /** Longest time an active answer is reused (0..30); revocation takes effect within it. */
  cacheSeconds: number;
  /** How long an inactive answer is reused; default 5, 0 disables. */
  negativeCacheSeconds?: number;
  /** Upper bound on cached active tokens; the least recently used are evicted first. */
  cacheSize: number;
  /**
   * Upper bound on cached refused tokens, a cache of its own: random tokens can fill it, never
   * evict the active ones. Default 10000.
   */
  negativeCacheSize?: number;
  /** Deadline of one introspection call, body included. */
  timeoutMs: number;
  /**
   * Called once per `verify()`: `'miss'` when it made an introspection call, `'hit'` when it was
   * answered without one of its own (from the cache, or by sharing a call already in flight).
   */
  onLookup?: (outcome: 'hit' | 'miss') => void;
}

interface CacheEntry {
  principal: ClientPrincipal;
}

interface IntrospectionAnswer {
  active?: unknown;
  client_id?: unknown;
  aud?: unknown;
  exp?: unknown;
  scope?: unknown;
}

const DEFAULT_NEGATIVE_CACHE_SECONDS = 5;
const DEFAULT_NEGATIVE_CACHE_SIZE = 10_000;

/**
 * What an access token can look like: RFC 6750's b64token syntax, 16 to 512 characters (ours are
 * 43). Anything else is refused as invalid without asking the auth service.
 */
const TOKEN_SHAPE = /^[A-Za-z0-9\-._~+/]{16,512}=*$/;
export const isWellFormedToken = (token: string): boolean => TOKEN_SHAPE.test(token);

const cacheKey = (token: string): string => createHash('sha256').update(token).digest('hex');

function audienceMatches(aud: unknown, audience: string): boolean {
  return aud === audience || (Array.isArray(aud) && aud.includes(audience));
}

/** The principal of an acceptable answer, or `null`; `exp` is in epoch seconds. */
function principalFrom(answer: IntrospectionAnswer, audience: string, nowMs: number): ClientPrincipal | null {
  const { active, client_id: clientId, aud, exp, scope } = answer;
  if (active !== true || typeof clientId !== 'string' || clientId === '') return null;
  if (!audienceMatches(aud, audience)) return null;
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp * 1000 <= nowMs) return null;
  const scopes = typeof scope === 'string' ? scope.split(' ').filter((s) => s !== '') : [];
  return { kind: 'client', id: `client:${clientId}`, clientId, scopes: new Set(scopes) };
}

/**
 * A {@link TokenVerifier} backed by RFC 7662 token introspection.
 *
 * - Answers are cached under the SHA-256 of the token (the raw token is never kept) in a bounded
 *   LRU: active ones for at most `cacheSeconds` and never past the token's `exp`, inactive ones
 *   for `negativeCacheSeconds`. A revoked token therefore stays accepted for up to `cacheSeconds`.
 * - Concurrent `verify()` calls for one token share a single in-flight request.
 * - Only `active: true` answers with the expected audience and a future `exp` are accepted.
 * - Transport failures, timeouts and non-200 answers throw {@link AuthServiceUnavailable} and are
 *   never cached.
 */
export function createIntrospectionVerifier(options: IntrospectionOptions): TokenVerifier {
  const { introspectionUrl, audience, cacheSeconds, cacheSize, timeoutMs, onLookup } = options;
  const negativeCacheSeconds = options.negativeCacheSeconds ?? DEFAULT_NEGATIVE_CACHE_SECONDS;
  const authorization = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;
  const cache = new LRUCache<string, CacheEntry>({ max: cacheSize });
  const refused = new LRUCache<string, true>({
    max: options.negativeCacheSize ?? DEFAULT_NEGATIVE_CACHE_SIZE,
  });
  const inFlight = new Map<string, Promise<ClientPrincipal | null>>();

  async function introspect(token: string): Promise<IntrospectionAnswer> {
    let res: Response;
    try {
      res = await fetch(introspectionUrl, {
        method: 'POST',
        headers: {
          authorization,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new AuthServiceUnavailable('token introspection failed', { cause: err });
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      const reason =
        res.status === 400 || res.status === 401 ? 'refused our introspection credentials' : 'answered';
      throw new AuthServiceUnavailable(`the auth service ${reason} with HTTP ${res.status}`);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch (err) {
      throw new AuthServiceUnavailable('unreadable introspection answer', { cause: err });
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new AuthServiceUnavailable('introspection answer is not a JSON object');
    }
    return body;
  }

  function remember(key: string, principal: ClientPrincipal | null, exp: unknown): void {
    if (!principal) {
      if (negativeCacheSeconds > 0) refused.set(key, true, { ttl: negativeCacheSeconds * 1000 });
      return;
    }
    const ttlMs = typeof exp === 'number' ? Math.min(exp * 1000 - Date.now(), cacheSeconds * 1000) : 0;
    if (ttlMs >= 1) cache.set(key, { principal }, { ttl: Math.floor(ttlMs) });
  }

  /** The cached answer for `token`: its principal, `null` if refused, undefined if not cached. */
  function cached(key: string): ClientPrincipal | null | undefined {
    if (refused.get(key)) return null;
    return cache.get(key)?.principal;
  }

  async function lookup(key: string, token: string): Promise<ClientPrincipal | null> {
    const answer = await introspect(token);
    const principal = principalFrom(answer, audience, Date.now());
    remember(key, principal, answer.exp);
    return principal;
  }

  return {
    verify(token) {
      if (!isWellFormedToken(token)) return Promise.resolve(null);
      const key = cacheKey(token);
      const known = cached(key);
      if (known !== undefined) {
        onLookup?.('hit');
        return Promise.resolve(known);
      }
      const pending = inFlight.get(key);
      if (pending) {
        onLookup?.('hit');
        return pending;
      }
      onLookup?.('miss');
      const request = lookup(key, token).finally(() => inFlight.delete(key));
      inFlight.set(key, request);
      return request;
    },

    isCached(token) {
      return !isWellFormedToken(token) || cached(cacheKey(token)) !== undefined;
    },
  };
}
