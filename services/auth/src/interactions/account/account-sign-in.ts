import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { Provider } from 'oidc-provider';
import { ACCOUNT_CONSOLE_CLIENT_ID, accountConsoleCallback } from '../../provider/account-console-client';
import { INTERACTION_TTL_SECONDS } from '../../provider/sign-in';

/*
 * How the account console signs a person in when the browser has no provider session: as an
 * application would (provider/account-console-client.ts). `/account` sends the browser to the
 * authorization endpoint (code, PKCE S256, a random `state`), remembering state and verifier in a
 * signed, HttpOnly cookie scoped to `/account`; the person goes through the normal sign-in pages;
 * the provider redirects to `/account/callback`, which checks the state against the cookie and
 * redeems the code in-process: it must be a live, unused code of the console's client for this
 * redirect URI whose PKCE challenge is the verifier's, and its account must be the one the
 * browser's provider session is now signed in as. Only then does it go back to `/account`, which
 * itself only ever trusts the provider session (set by oidc-provider once every step passed).
 */

const COOKIE = 'auth_account_signin';

const challengeOf = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface AccountSignInOptions {
  provider: Provider;
  issuer: string;
  secureCookies: boolean;
}

/**
 * How a console sign-in ended: not at all, cancelled by the person ("Cancel": `access_denied` for
 * this browser's state), a first sign-in, or a sign-in again (re-authentication).
 */
export type AccountSignInEnd = 'failed' | 'cancelled' | 'signed-in' | 'signed-in-again';

/**
 * Sends the browser to sign in for the console (303 to the authorization endpoint). `again` (a
 * form that needs a recent sign-in, account-reauth.ts): `prompt=login`, so every step (password,
 * second factor) is asked again although a provider session exists, the email filled in.
 */
export function startAccountSignIn(
  ctx: Context,
  { provider, issuer, secureCookies }: AccountSignInOptions,
  again?: { email: string },
): void {
  const state = randomBytes(16).toString('base64url');
  const verifier = randomBytes(32).toString('base64url');
  ctx.cookies.set(COOKIE, `${state}.${verifier}.${again ? 'again' : 'first'}`, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies,
    path: '/account',
    maxAge: INTERACTION_TTL_SECONDS * 1000,
  });
  const query = new URLSearchParams({
    client_id: ACCOUNT_CONSOLE_CLIENT_ID,
    response_type: 'code',
    scope: 'openid',
    redirect_uri: accountConsoleCallback(issuer),
    state,
    code_challenge: challengeOf(verifier),
    code_challenge_method: 'S256',
    ...(again ? { prompt: 'login', login_hint: again.email } : {}),
  });
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(`${provider.pathFor('authorization')}?${query.toString()}`);
  ctx.status = 303;
}

/**
 * The console's callback: how the sign-in it started in this browser ended: completed (the code
 * redeemed, its account the session's), first or again; `cancelled` for its state with
 * `access_denied`; `failed` for anything else (no or another
 * state, an error from the provider, a code that is not this sign-in's). The state cookie is used
 * up either way.
 */
export async function finishAccountSignIn(
  ctx: Context,
  options: AccountSignInOptions,
): Promise<AccountSignInEnd> {
  const stored = ctx.cookies.get(COOKIE, { signed: true });
  const signedIn = await redeem(ctx, options, stored);
  if (signedIn !== true) return signedIn === 'cancelled' ? 'cancelled' : 'failed';
  return stored?.endsWith('.again') ? 'signed-in-again' : 'signed-in';
}

async function redeem(
  ctx: Context,
  { provider, issuer, secureCookies }: AccountSignInOptions,
  stored: string | undefined,
): Promise<boolean | 'cancelled'> {
  ctx.cookies.set(COOKIE, null, {
    path: '/account',
    secure: secureCookies,
    httpOnly: true,
    sameSite: 'lax',
    signed: true,
  });
  const [state, verifier] = stored?.split('.') ?? [];
  const { code, state: given, error } = ctx.query;
  if (!state || !verifier || typeof given !== 'string' || !sameText(state, given)) return false;
  if (error === 'access_denied') return 'cancelled';
  if (error !== undefined || typeof code !== 'string' || code.length > 200) return false;

  const authorization = await provider.AuthorizationCode.find(code);
  if (
    !authorization ||
    (authorization as { consumed?: unknown }).consumed !== undefined ||
    authorization.clientId !== ACCOUNT_CONSOLE_CLIENT_ID ||
    authorization.redirectUri !== accountConsoleCallback(issuer) ||
    authorization.codeChallenge !== challengeOf(verifier)
  ) {
    return false;
  }
  await authorization.consume();
  const session = await provider.Session.get(ctx);
  return session.accountId !== undefined && session.accountId === authorization.accountId;
}
