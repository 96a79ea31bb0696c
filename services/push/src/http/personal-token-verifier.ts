import { LRUCache } from 'lru-cache';
import { LAST_USED_RESOLUTION_SECONDS, isLastUseStale, userPrincipalId } from '../domain/user';
import type { UserTokenService, VerifiedToken } from '../domain/user-tokens';
import { hashPersonalToken, isPersonalToken, isWellFormedPersonalToken } from '../security/personal-token';
import { AuthServiceUnavailable } from './introspection-client';
import type { TokenVerifier, UserPrincipal } from './principal';

/** Longest time a lookup is reused: revoking a token, or disabling its user, takes effect within it. */
export const PERSONAL_TOKEN_MAX_CACHE_SECONDS = 10;

export interface PersonalTokenVerifierOptions {
  tokens: Pick<UserTokenService, 'verify' | 'recordUse'>;
  /** How long a lookup, found or not, is reused (0..10; 0 disables the cache). */
  cacheSeconds: number;
  /** Upper bound on cached valid tokens; the least recently used are evicted first. Default 10000. */
  cacheSize?: number;
  /** Upper bound on cached refused tokens, a cache of its own (random tokens never evict valid ones). Default 10000. */
  negativeCacheSize?: number;
  /** Called once per `verify()` of a well-formed token: `'miss'` when it read the database. */
  onLookup?: (outcome: 'hit' | 'miss') => void;
  /** A `lastUsedAt` write failed: logged by the caller, the request goes on. */
  onUseNotRecorded?: (err: unknown) => void;
}

const DEFAULT_CACHE_SIZE = 10_000;

const cacheKey = (token: string): string => hashPersonalToken(token).toString('hex');

function principalOf({ user, token }: VerifiedToken): UserPrincipal {
  return {
    kind: 'user',
    id: userPrincipalId(user.id),
    userId: user.id,
    issuer: user.issuer,
    subject: user.subject,
    tokenId: token.id,
    email: user.email,
    emailVerified: user.emailVerified,
    noticeDefaults: user.noticeDefaults,
    scopes: new Set(token.scopes),
  };
}

/**
 * A {@link TokenVerifier} for personal API tokens (`spu_…`), checked in this service's own
 * database, never sent to the auth service.
 *
 * - Lookups are cached under the SHA-256 of the token (the database's lookup key; the token
 *   itself is never kept) in bounded LRUs, found ones for at most `cacheSeconds` and never past the
 *   token's expiry, refused ones for `cacheSeconds` in a cache of their own. Revoking or
 *   regenerating a token, or disabling its user, therefore takes effect within `cacheSeconds`.
 * - Concurrent `verify()` calls for one token share one lookup.
 * - `lastUsedAt` is written at most once a minute per token: a write is started (not awaited)
 *   when this process has not recorded a use of the token within the minute and the row does not
 *   show one; its failure never fails the request.
 * - A malformed token is refused without a lookup; a database error is thrown, never cached.
 */
export function createPersonalTokenVerifier(options: PersonalTokenVerifierOptions): TokenVerifier {
  const { tokens, onLookup } = options;
  const ttlMs = Math.min(options.cacheSeconds, PERSONAL_TOKEN_MAX_CACHE_SECONDS) * 1000;
  const found = new LRUCache<string, { principal: UserPrincipal }>({
    max: options.cacheSize ?? DEFAULT_CACHE_SIZE,
  });
  const refused = new LRUCache<string, true>({ max: options.negativeCacheSize ?? DEFAULT_CACHE_SIZE });
  // Token ids whose use was recorded (or seen recorded) within the last minute, by this process.
  const recentlyUsed = new LRUCache<string, true>({
    max: options.cacheSize ?? DEFAULT_CACHE_SIZE,
    ttl: LAST_USED_RESOLUTION_SECONDS * 1000,
  });
  const inFlight = new Map<string, Promise<UserPrincipal | null>>();

  function noteUse(tokenId: string, lastUsedAt?: { at: Date | null; now: Date }): void {
    if (recentlyUsed.has(tokenId)) return;
    recentlyUsed.set(tokenId, true);
    // The row already shows a use within the minute (another replica, or before a restart).
    if (lastUsedAt && !isLastUseStale(lastUsedAt.at, lastUsedAt.now)) return;
    tokens.recordUse(tokenId).catch((err: unknown) => options.onUseNotRecorded?.(err));
  }

  async function lookup(key: string, token: string): Promise<UserPrincipal | null> {
    const verified = await tokens.verify(token);
    if (!verified) {
      if (ttlMs > 0) refused.set(key, true, { ttl: ttlMs });
      return null;
    }
    const principal = principalOf(verified);
    const { expiresAt, lastUsedAt } = verified.token;
    const ttl = expiresAt ? Math.min(ttlMs, expiresAt.getTime() - verified.now.getTime()) : ttlMs;
    if (ttl >= 1) found.set(key, { principal }, { ttl: Math.floor(ttl) });
    noteUse(principal.tokenId, { at: lastUsedAt, now: verified.now });
    return principal;
  }

  function cached(key: string): UserPrincipal | null | undefined {
    if (refused.get(key)) return null;
    return found.get(key)?.principal;
  }

  return {
    verify(token) {
      if (!isWellFormedPersonalToken(token)) return Promise.resolve(null);
      const key = cacheKey(token);
      const known = cached(key);
      if (known !== undefined) {
        onLookup?.('hit');
        if (known) noteUse(known.tokenId);
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
      return !isWellFormedPersonalToken(token) || cached(cacheKey(token)) !== undefined;
    },
  };
}

/**
 * Personal tokens whose users are also confirmed with the sign-in provider: `isActive` (see
 * session/user-status.ts, which asks at most once a minute per user) refusing makes the token
 * refused (401) however valid it is here; a provider that does not answer is a 503, as for an
 * access token whose introspection fails.
 */
export function confirmingUsers(
  verifier: TokenVerifier,
  isActive: (user: UserPrincipal) => Promise<boolean>,
): TokenVerifier {
  return {
    async verify(token) {
      const principal = await verifier.verify(token);
      if (principal?.kind !== 'user') return principal;
      const active = await isActive(principal).catch((err: unknown) => {
        throw new AuthServiceUnavailable('the sign-in provider did not answer about a user', { cause: err });
      });
      return active ? principal : null;
    },
    isCached: (token) => verifier.isCached(token),
  };
}

/**
 * One verifier for the API: a token with the personal token prefix (`spu_`) is checked locally by
 * `personalTokens` and never sent to the auth service; any other token goes to `accessTokens`
 * (introspection).
 */
export function routeTokens(verifiers: {
  accessTokens: TokenVerifier;
  personalTokens: TokenVerifier;
}): TokenVerifier {
  const pick = (token: string) =>
    isPersonalToken(token) ? verifiers.personalTokens : verifiers.accessTokens;
  return {
    verify: (token) => pick(token).verify(token),
    isCached: (token) => pick(token).isCached(token),
  };
}
