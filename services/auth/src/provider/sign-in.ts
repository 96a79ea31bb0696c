import {
  type Account,
  type Client,
  type Configuration,
  type FindAccount,
  type KoaContextWithOIDC,
  interactionPolicy,
} from 'oidc-provider';
import { isFirstParty } from './api';

/*
 * The OpenID Connect side of the provider: people sign in (authorization code + PKCE S256) at the
 * web applications the operator registered (`clients create-web`), with our login page
 * (interactions/). This file holds the provider's policy for it; the pages are in pages/ and the
 * interaction routes in interactions/.
 */

/** What the provider needs to know of a person: the account, while it may still sign in. */
export interface SignInAccount {
  id: string;
  email: string;
  /** False for a self-signed-up account: nobody vouched for the address. */
  emailVerified: boolean;
  /** Sign-ins from before this are over (a password reset signs out everywhere). */
  passwordChangedAt: Date;
}

/** The account with this id, or undefined when it is disabled or no longer exists. */
export type AccountLookup = (id: string) => Promise<SignInAccount | undefined>;

/**
 * `openid` gives `sub` and, in the id token, `amr` (RFC 8176: how the person proved it was them,
 * `["pwd"]` or `["pwd", "otp"]`, interactions/sign-in-steps.ts); `email` gives the address and
 * `email_verified`; nothing else is released.
 */
export const SIGN_IN_CLAIMS = { openid: ['sub', 'amr'], email: ['email', 'email_verified'] };

/** How long the access token of a sign-in (good for userinfo only) lives. */
export const USERINFO_ACCESS_TOKEN_TTL_SECONDS = 60;
/** The id token's own lifetime (it is checked once, when the application receives it). */
export const ID_TOKEN_TTL_SECONDS = 300;
/** The authorization code must be exchanged within this. */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;
/** How long a login page stays good: the interaction, and its cookies. */
export const INTERACTION_TTL_SECONDS = 30 * 60;

/**
 * When the person behind this request signed in (epoch seconds): the token's sign-in time (an
 * access token has none: its issue time, which comes later), or the browser session's.
 */
function signedInAt(
  ctx: KoaContextWithOIDC,
  token?: { authTime?: number; iat?: number },
): number | undefined {
  if (token) return token.authTime ?? token.iat;
  return ctx.oidc?.session?.loginTs;
}

/** Whether a sign-in at `since` (epoch seconds) came before the password changed (and so is over). */
export function predatesPasswordChange(since: number, passwordChangedAt: Date): boolean {
  return since < Math.floor(passwordChangedAt.getTime() / 1000);
}

/**
 * `findAccount`: `sub` is the account id. A disabled or deleted account is no account at all
 * (undefined), and so is one whose password changed after this sign-in: its refresh tokens are
 * refused (`invalid_grant`), userinfo refuses its access tokens (`invalid_token`), and a browser
 * session of it must sign in again (`account_unavailable` in `signInPolicy`).
 */
export function findAccount(lookup: AccountLookup): FindAccount {
  return async (ctx, sub, token): Promise<Account | undefined> => {
    const account = await lookup(sub);
    if (!account) return undefined;
    const since = signedInAt(ctx, token);
    if (since !== undefined && predatesPasswordChange(since, account.passwordChangedAt)) {
      return undefined;
    }
    return {
      accountId: account.id,
      // email_verified: true when the operator created the account with this address (`users
      // create`; nobody can change it themselves, so it is the operator's word), false when the
      // person signed up themselves (AUTH_SELF_SIGNUP): nobody checked the address is theirs.
      claims: () => ({ sub: account.id, email: account.email, email_verified: account.emailVerified }),
    };
  };
}

/**
 * The interaction policy: oidc-provider's own (login, then consent), with one more reason to ask
 * for a login: the session belongs to an account that may no longer sign in (disabled or deleted
 * since), which `findAccount` reports as no account. Without it such a session would be taken as
 * signed in.
 */
export function signInPolicy(): interactionPolicy.Prompt[] {
  const policy = interactionPolicy.base();
  policy
    .get('login')!
    .checks.add(
      new interactionPolicy.Check(
        'account_unavailable',
        'the signed-in account may no longer sign in (disabled, deleted, or its password changed)',
        'login_required',
        (ctx) => ctx.oidc.session?.accountId !== undefined && ctx.oidc.account === undefined,
      ),
    );
  return policy;
}

/**
 * Consent is not asked of first-party clients (every client `clients create-web` registers): the
 * operator registered them for this system's own applications, so the grant covers what they ask
 * for (their `scope` metadata already limits that). Other clients get the grant the person gave
 * before, if any; the interaction routes refuse them, so they get none.
 */
export async function loadExistingGrant(ctx: KoaContextWithOIDC) {
  const { oidc } = ctx;
  const client = oidc.client!;
  const session = oidc.session!;
  const grantId =
    (oidc.result?.consent as { grantId?: string } | undefined)?.grantId ??
    session.grantIdFor(client.clientId);
  const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
  if (!isFirstParty(client) || !oidc.account) return existing;

  const grant =
    existing ?? new oidc.provider.Grant({ clientId: client.clientId, accountId: oidc.account.accountId });
  const granted = new Set(grant.getOIDCScope().split(' '));
  const missing = [...oidc.requestParamOIDCScopes].filter((s) => !granted.has(s));
  if (missing.length > 0 || !existing) {
    grant.addOIDCScope(missing.join(' '));
    await grant.save();
  }
  return grant;
}

/**
 * Refresh tokens go to first-party web clients even without `offline_access`: the application
 * refreshes (at least every `USERINFO_ACCESS_TOKEN_TTL_SECONDS`) to learn that the person may
 * still sign in; a disabled account's refresh fails. They expire with the provider's session
 * (oidc-provider's default `expiresWithSession` without offline_access), so a logout ends them.
 */
export function issueRefreshToken(_ctx: KoaContextWithOIDC, client: Client): boolean {
  return client.grantTypeAllowed('refresh_token') && isFirstParty(client);
}

const now = (): number => Math.floor(Date.now() / 1000);
const atLeastOne = (seconds: number): number => Math.max(1, Math.ceil(seconds));

/**
 * Lifetimes of the sign-in artefacts. A sign-in lasts `sessionTtlSeconds` from the moment the
 * password was checked, not from the last visit: the session's TTL counts down from its login
 * time, a refresh token lives that long when issued, and a rotated one keeps what its predecessor
 * had left (so rotation never extends it). Machine tokens keep their own TTLs.
 */
export function signInTtl(sessionTtlSeconds: number, clientCredentialsTtl: number): Configuration['ttl'] {
  return {
    ClientCredentials: clientCredentialsTtl,
    AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? USERINFO_ACCESS_TOKEN_TTL_SECONDS,
    AuthorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
    IdToken: ID_TOKEN_TTL_SECONDS,
    Interaction: INTERACTION_TTL_SECONDS,
    Session: (_ctx, session) =>
      session.loginTs === undefined
        ? sessionTtlSeconds
        : atLeastOne(session.loginTs + sessionTtlSeconds - now()),
    Grant: sessionTtlSeconds,
    RefreshToken: (ctx) => {
      const rotated = ctx.oidc?.entities.RotatedRefreshToken;
      return rotated ? atLeastOne(rotated.remainingTTL) : sessionTtlSeconds;
    },
  };
}
