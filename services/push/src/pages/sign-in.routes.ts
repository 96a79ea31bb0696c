import { randomBytes } from 'node:crypto';
import { type CookieOptions, type Request, type RequestHandler, type Response, Router } from 'express';
import { parseCookie } from 'cookie';
import type { Logger } from '@secret-push/logger';
import type { UserTokenService } from '../domain/user-tokens';
import {
  IssuerUnavailable,
  type PendingSignIn,
  type Reauthentication,
  type RelyingParty,
  SignInRefused,
} from '../session/relying-party';
import type { SessionStore } from '../session/session-store';
import type { WebSessions } from '../session/web-session';
import { sendPage, setPageHeaders } from './page-security';
import { signInCancelledPage } from './sign-in.views';
import { signOutRoutes } from './sign-out.routes';
import { errorPage } from './views';
import { t } from '@secret-push/i18n';

export interface SignInDeps {
  relyingParty: RelyingParty;
  store: SessionStore;
  sessions: WebSessions;
  users: Pick<UserTokenService, 'upsertUser'>;
  publicUrl: string;
  logger: Logger;
}

/** How long a begun sign-in may take at the provider before its callback is refused. */
const PENDING_SECONDS = 600;

/** A path of this service to go back to after a sign-in again (never another origin). */
const localPath = (path: string | undefined): string =>
  path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : '/';

/**
 * Begins a sign-in in this browser (`again`: a sign-in again before a destructive change, which
 * comes back to `again.returnTo`): what the callback needs is kept in Redis under the `state`, the
 * state in a short-lived cookie; 303 to the provider, or false when it cannot begin (the caller
 * answers 503).
 */
export type BeginSignIn = (res: Response, again?: Reauthentication) => Promise<boolean>;

function beginner(
  { relyingParty, store, logger }: SignInDeps,
  pendingCookie: string,
  pendingCookieOptions: CookieOptions,
): BeginSignIn {
  return async (res, again) => {
    let begun: { url: URL; pending: PendingSignIn };
    try {
      begun = await relyingParty.begin(again);
      await store.savePending(begun.pending.state, begun.pending, PENDING_SECONDS);
    } catch (err) {
      logger.warn({ err }, 'sign-in not begun');
      return false;
    }
    res.cookie(pendingCookie, begun.pending.state, {
      ...pendingCookieOptions,
      maxAge: PENDING_SECONDS * 1000,
    });
    res.redirect(303, begun.url.href);
    return true;
  };
}

/**
 * Sign-in and sign-out of the web app (OpenID Connect, authorization code + PKCE):
 * - `GET /sign-in` begins: what the callback needs is kept in Redis under the `state`, and the
 *   state in a short-lived cookie of this browser, so that a callback can only finish a sign-in
 *   that this same browser began (no login CSRF);
 * - `GET /sign-in/callback` finishes: the code is exchanged (`access_denied` for this browser's
 *   state, "Cancel" at the provider: a "Sign-in cancelled" page, nobody signed in), the person (issuer, `sub`) becomes
 *   or is found as a user, and a new session begins (a new id: sessions are rotated at sign-in);
 * - `POST /sign-out` and `GET /signed-out`: see {@link signOutRoutes}.
 */
export function signInRoutes(deps: SignInDeps): Router & { begin: BeginSignIn } {
  const { relyingParty, store, sessions, users, publicUrl, logger } = deps;
  const router = Router();
  // A cookie of its own, named after the session's, for the few minutes a sign-in takes.
  const pendingCookie = sessions.pendingCookieName;
  const pendingCookieOptions = { ...sessions.cookieOptions, path: '/sign-in' };

  const unavailable = (res: Response) =>
    sendPage(
      res,
      503,
      errorPage(t('errors.signIn.unavailable.title'), t('errors.signIn.unavailable.signIn')),
    );

  const begin = beginner(deps, pendingCookie, pendingCookieOptions);

  router.get('/sign-in', async (_req, res) => {
    setPageHeaders(res);
    if (!(await begin(res))) unavailable(res);
  });

  const callback: RequestHandler = async (req: Request, res) => {
    setPageHeaders(res);
    const state = typeof req.query.state === 'string' ? req.query.state : undefined;
    const ours = parseCookie(req.headers.cookie ?? '')[pendingCookie];
    res.clearCookie(pendingCookie, pendingCookieOptions);
    /** "Cancel" at the provider: its state used up, a calm page (200), nobody signed in. */
    const cancelled = async (pendingState: string) => {
      const taken = await store.takePending<PendingSignIn>(pendingState).catch(() => undefined);
      sendPage(res, 200, signInCancelledPage({ again: taken?.returnTo !== undefined }));
    };
    const refused = () =>
      sendPage(
        res,
        400,
        errorPage(t('errors.signIn.notCompleted.title'), t('errors.signIn.notCompleted.text')),
      );
    if (!state || !ours || state !== ours) return refused();
    if (req.query.error === 'access_denied') return cancelled(state);
    let pending: PendingSignIn | undefined;
    try {
      pending = await store.takePending<PendingSignIn>(state);
    } catch (err) {
      logger.warn({ err }, 'sign-in not finished: the session store did not answer');
      return unavailable(res);
    }
    if (!pending) return refused();
    try {
      const person = await relyingParty.finish(new URL(req.originalUrl, publicUrl), pending);
      const user = await users.upsertUser({
        issuer: person.issuer,
        subject: person.subject,
        email: person.email,
        emailVerified: person.emailVerified,
      });
      if (user.disabledAt !== null) {
        return sendPage(res, 403, errorPage(t('errors.disabled.title'), t('errors.disabled.text')));
      }
      await store.clearRefused(user.id); // the provider vouches for the user again
      const now = Date.now();
      const sessionId = await store.create({
        userId: user.id,
        issuer: person.issuer,
        subject: person.subject,
        email: person.email,
        emailVerified: person.emailVerified,
        ...(person.idToken ? { idToken: person.idToken } : {}),
        ...(person.refreshToken ? { refreshToken: person.refreshToken } : {}),
        ...(person.authTime !== undefined ? { authTime: person.authTime } : {}),
        createdAt: now,
        checkedAt: now,
        csrf: randomBytes(32).toString('base64url'),
      });
      sessions.setCookie(res, sessionId);
      res.redirect(303, localPath(pending.returnTo));
    } catch (err) {
      if (err instanceof SignInRefused) {
        logger.info({ err }, 'sign-in refused by the provider');
        return refused();
      }
      if (!(err instanceof IssuerUnavailable)) logger.warn({ err }, 'sign-in not finished');
      return unavailable(res);
    }
  };
  router.get('/sign-in/callback', callback);

  router.use(signOutRoutes(deps));

  return Object.assign(router, { begin });
}
