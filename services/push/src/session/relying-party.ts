import * as oidc from 'openid-client';

/*
 * The web app as an OpenID Connect relying party of one configured issuer (the local auth service
 * by default; any standards-compliant provider by configuration): the authorization code flow with
 * PKCE (S256), state and nonce, the `openid email` scopes, a refresh to re-check the user, and
 * RP-initiated logout. openid-client does the protocol; this module only holds the settings.
 */

export interface RelyingPartySettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** This service's callback: `<public URL>/sign-in/callback`. */
  redirectUri: string;
  /** Where the provider sends the browser after sign-out: `<public URL>/`. */
  postLogoutRedirectUri: string;
  /** An `http://` issuer: only outside production (config.ts refuses it there). */
  allowInsecureRequests: boolean;
  /** Deadline of each request to the issuer, in seconds. */
  timeoutSeconds: number;
}

/**
 * How recent a sign-in at the provider must be for a destructive change (deleting the account):
 * 5 minutes, as the auth service's default `AUTH_REAUTH_MAX_AGE_SECONDS`.
 */
export const REAUTH_MAX_AGE_SECONDS = 300;

/** Whether a sign-in at `authTime` (epoch seconds) is recent enough for a destructive change. */
export function isRecentSignIn(authTime: number | undefined, nowMs = Date.now()): boolean {
  const now = Math.floor(nowMs / 1000);
  return authTime !== undefined && now - authTime <= REAUTH_MAX_AGE_SECONDS && authTime <= now + 5;
}

/** What the callback needs to finish a sign-in that this browser began (kept server-side). */
export interface PendingSignIn {
  codeVerifier: string;
  state: string;
  nonce: string;
  /** A sign-in again (re-authentication): the page to go back to afterwards. */
  returnTo?: string;
}

/** A sign-in again before a destructive change: every step asked again, `auth_time` returned. */
export interface Reauthentication {
  /** The page to come back to (a path of this service). */
  returnTo: string;
  /** The email to fill in on the provider's login page. */
  loginHint?: string;
}

/** The person the issuer vouched for. */
export interface SignedIn {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  idToken: string | undefined;
  refreshToken: string | undefined;
  /** When the person signed in at the provider (the ID token's `auth_time`), if it says. */
  authTime: number | undefined;
}

/** The issuer could not be reached or answered nonsense: the page says sign-in is unavailable. */
export class IssuerUnavailable extends Error {}

/** The issuer refused (a bad code, a revoked refresh token, a disabled user): not signed in. */
export class SignInRefused extends Error {}

const SCOPE = 'openid email';

/** The authorization request's parameters of a sign-in again: every step asked, `auth_time` told. */
function reauthParameters(again: Reauthentication | undefined): Record<string, string> {
  if (!again) return {};
  return {
    prompt: 'login',
    max_age: String(REAUTH_MAX_AGE_SECONDS),
    ...(again.loginHint ? { login_hint: again.loginHint } : {}),
  };
}

/** OAuth refusals are the provider's answer; anything else means it is unavailable. */
function classify(err: unknown): Error {
  if (err instanceof IssuerUnavailable) return err;
  if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError) {
    return new SignInRefused(`The sign-in provider refused: ${err.error}`, { cause: err });
  }
  // A failed state, nonce or ID token check: an attack or a bug, never "unavailable".
  if (err instanceof Error && (err as { code?: unknown }).code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    return new SignInRefused('The sign-in answer did not check out', { cause: err });
  }
  return new IssuerUnavailable('The sign-in provider did not answer', { cause: err });
}

export function createRelyingParty(settings: RelyingPartySettings) {
  let discovered: Promise<oidc.Configuration> | undefined;

  /** The issuer's metadata, fetched once (again after a failure). */
  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        oidc.ClientSecretBasic(settings.clientSecret),
        {
          execute: settings.allowInsecureRequests ? [oidc.allowInsecureRequests] : [],
          timeout: settings.timeoutSeconds,
        },
      )
      .catch((err: unknown) => {
        discovered = undefined;
        throw new IssuerUnavailable('The sign-in provider could not be reached', { cause: err });
      });
    return discovered;
  }

  async function accessToken(refreshToken: string): Promise<{ accessToken: string; refreshToken: string }> {
    try {
      const config = await configuration();
      const tokens = await oidc.refreshTokenGrant(config, refreshToken);
      return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token ?? refreshToken };
    } catch (err) {
      throw classify(err);
    }
  }

  return {
    /**
     * The provider's authorization URL for a new sign-in, and what the callback will need. With
     * `again`: `prompt=login` and `max_age` (OpenID Connect Core §3.1.2.1), so the provider asks
     * every step again although it has a session, and the ID token says when (`auth_time`).
     */
    async begin(again?: Reauthentication): Promise<{ url: URL; pending: PendingSignIn }> {
      const config = await configuration();
      const pending: PendingSignIn = {
        codeVerifier: oidc.randomPKCECodeVerifier(),
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        ...(again ? { returnTo: again.returnTo } : {}),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: SCOPE,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
        ...reauthParameters(again),
      });
      return { url, pending };
    },

    /** Exchanges the callback's code; throws SignInRefused or IssuerUnavailable. */
    async finish(callbackUrl: URL, pending: PendingSignIn): Promise<SignedIn> {
      try {
        const config = await configuration();
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims()!;
        let email = typeof claims.email === 'string' ? claims.email : null;
        let emailVerified = claims.email_verified === true;
        if (email === null) {
          // Some providers put the email only in userinfo.
          const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
          email = typeof info.email === 'string' ? info.email : null;
          emailVerified = info.email_verified === true;
        }
        return {
          issuer: claims.iss,
          subject: claims.sub,
          email,
          emailVerified,
          idToken: tokens.id_token,
          refreshToken: tokens.refresh_token,
          authTime: typeof claims.auth_time === 'number' ? claims.auth_time : undefined,
        };
      } catch (err) {
        throw classify(err);
      }
    },

    /**
     * Asks the issuer whether the user may still be signed in: a refresh (the provider refuses it
     * for a disabled user). Returns the new refresh token (rotated or not).
     */
    recheck: async (refreshToken: string): Promise<string> => (await accessToken(refreshToken)).refreshToken,

    /**
     * A refresh that also returns the access token: the person's own proof for the provider's
     * accounts API (deleting the account). Throws SignInRefused or IssuerUnavailable.
     */
    accessToken,

    /** The issuer's discovery document (fetched once); throws IssuerUnavailable. */
    async metadata(): Promise<Readonly<oidc.ServerMetadata>> {
      return (await configuration()).serverMetadata();
    },

    /** The provider's end-session URL (RP-initiated logout), or undefined when it has none. */
    async signOutUrl(idToken: string | undefined): Promise<URL | undefined> {
      const config = await configuration();
      if (!config.serverMetadata().end_session_endpoint) return undefined;
      return oidc.buildEndSessionUrl(config, {
        post_logout_redirect_uri: settings.postLogoutRedirectUri,
        ...(idToken ? { id_token_hint: idToken } : {}),
      });
    },
  };
}

export type RelyingParty = ReturnType<typeof createRelyingParty>;
