import type { AccessToken, KoaContextWithOIDC, Provider } from 'oidc-provider';
import { isFirstParty } from './api';

/*
 * Re-authentication: a destructive change (deleting the account, changing the password or the
 * second factor, new recovery codes) needs a sign-in (every step of it: password, then the second
 * factor when the account has one) at most `AUTH_REAUTH_MAX_AGE_SECONDS` old. A browser gets one by
 * an authorization request with `prompt=login` or `max_age` (our login pages ask every step again
 * even when a provider session exists); an application proves it to the accounts API with the
 * person's own access token, which carries the sign-in's time as the token claim `auth_time`.
 */

/** The claim of a sign-in's access token (opaque: stored in its `extra`) that says when it was. */
export const AUTH_TIME_CLAIM = 'auth_time';

const epochNow = (): number => Math.floor(Date.now() / 1000);

/** Whether a sign-in at `authTime` (epoch seconds) is recent enough for a destructive change. */
export function isRecentSignIn(
  authTime: number | undefined,
  maxAgeSeconds: number,
  now = epochNow(),
): boolean {
  return authTime !== undefined && now - authTime <= maxAgeSeconds && authTime <= now + 5;
}

/**
 * `extraTokenClaims`: a sign-in's access token (one with an account) carries `auth_time`, the time
 * of the sign-in behind it: the authorization code's, or on a refresh the refresh token's (which
 * keeps the code's), so refreshing never makes a sign-in look newer. Machine tokens get nothing.
 */
export function signInTokenClaims(
  ctx: KoaContextWithOIDC | undefined,
  token: object,
): Record<string, number> | undefined {
  if (!(token as { accountId?: unknown }).accountId) return undefined;
  const entities = ctx?.oidc?.entities;
  const authTime = entities?.AuthorizationCode?.authTime ?? entities?.RefreshToken?.authTime;
  return typeof authTime === 'number' ? { [AUTH_TIME_CLAIM]: authTime } : undefined;
}

/** What the person's own token proves for a destructive change to the account `sub`. */
export type PersonProof =
  | { proved: true; accountId: string; clientId: string; authTime: number }
  /** No such live token, not a sign-in's, or its grant is gone (signed out, revoked). */
  | { proved: false; reason: 'invalid_token' }
  /** The token is another account's, or not a first-party application's. */
  | { proved: false; reason: 'forbidden' }
  /** The token is the person's, but the sign-in behind it is older than the window. */
  | { proved: false; reason: 'insufficient_user_authentication' };

/**
 * Checks a bearer access token as the person's proof for a destructive change to account `sub`:
 * a live sign-in access token of a first-party application, its grant still there, for that very
 * account, from a sign-in at most `maxAgeSeconds` old.
 */
export async function personsProof(
  provider: Provider,
  bearer: string,
  sub: string,
  maxAgeSeconds: number,
): Promise<PersonProof> {
  const token: AccessToken | undefined =
    bearer.length > 0 && bearer.length <= 200 ? await provider.AccessToken.find(bearer) : undefined;
  if (!token?.accountId) return { proved: false, reason: 'invalid_token' };
  const grant = token.grantId ? await provider.Grant.find(token.grantId) : undefined;
  if (!grant || grant.accountId !== token.accountId || grant.clientId !== token.clientId) {
    return { proved: false, reason: 'invalid_token' };
  }
  const clientId = token.clientId ?? '';
  const client = await provider.Client.find(clientId);
  if (!isFirstParty(client) || token.accountId.toLowerCase() !== sub.toLowerCase()) {
    return { proved: false, reason: 'forbidden' };
  }
  const authTime = token.extra?.[AUTH_TIME_CLAIM];
  if (typeof authTime !== 'number' || !isRecentSignIn(authTime, maxAgeSeconds)) {
    return { proved: false, reason: 'insufficient_user_authentication' };
  }
  return { proved: true, accountId: token.accountId, clientId, authTime };
}
