import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { HttpError } from '@secret-push/http-kit';
import { parseCookie as parseCookies } from 'cookie';
import type { Logger } from '@secret-push/logger';
import { ANONYMOUS, type Actor } from '../domain/create-policy';
import { userPrincipalId } from '../domain/user';
import { need } from '../http/context-guard';
import type { UserTokenService } from '../domain/user-tokens';
import { IssuerUnavailable, type RelyingParty } from './relying-party';
import { createSessionRecheck } from './session-recheck';
import type { SessionData, SessionStore } from './session-store';

export interface WebSessionSettings {
  /**
   * The session cookie's name, of its own: both services share a cookie jar on 127.0.0.1. With
   * secure cookies it is sent as `__Host-<name>` (Secure, path `/`, no domain: no subdomain or
   * plain-http page can set or shadow it).
   */
  cookieName: string;
  /** `Secure` cookies (everywhere but development and tests, which run on http://). */
  secureCookies: boolean;
  /** How often a signed-in user is re-checked with the issuer (at most 60 s: a disabled user loses access within it). */
  recheckSeconds: number;
}

/** The signed-in person of a page request, if any, or why it could not be told. */
export type WebCaller =
  | { kind: 'anonymous' }
  | { kind: 'signed-in'; sessionId: string; session: SessionData }
  /** A session cookie came but Redis (or the issuer) did not answer: signed-in pages answer 503. */
  | { kind: 'unavailable' };

const ANONYMOUS_CALLER: WebCaller = { kind: 'anonymous' };

/**
 * The person behind a page request, as {@link WebSessions.load} found them; anonymous where no
 * session was loaded (an instance without sign-in has no sessions to load).
 */
export function webCallerOf(res: Response): WebCaller {
  return res.locals.webCaller ?? ANONYMOUS_CALLER;
}

/** The session (and its id) of a request that {@link WebSessions.requireSignedIn} let through. */
export function signedInCaller(res: Response): { sessionId: string; session: SessionData } {
  const caller = need(res, 'webCaller');
  if (caller.kind !== 'signed-in') throw new Error('unreachable: requireSignedIn admits the signed-in only');
  return caller;
}

/** The session of a request that {@link WebSessions.requireSignedIn} let through. */
export const signedInSession = (res: Response): SessionData => signedInCaller(res).session;

/** A page visitor as the domain's rights see them: a signed-in person's session, or nobody. */
export const webActor = (caller: WebCaller): Actor =>
  caller.kind === 'signed-in' ? { kind: 'session', id: userPrincipalId(caller.session.userId) } : ANONYMOUS;

export interface WebSessionDeps {
  store: SessionStore;
  relyingParty: RelyingParty;
  users: Pick<UserTokenService, 'findUser'>;
  settings: WebSessionSettings;
  logger: Logger;
  /** How long a re-check may hold a session's refresh lock (longer than the provider's deadline). */
  refreshLockMs?: number;
  now?: () => number;
}

export interface WebSessions {
  /** Loads the caller of a page request; never fails the request (see {@link WebCaller}). */
  load: RequestHandler;
  setCookie(res: Response, sessionId: string): void;
  clearCookie(res: Response): void;
  cookieOptions: { httpOnly: true; sameSite: 'lax'; secure: boolean; path: string };
  /** The session cookie's name as sent (`__Host-` prefixed with secure cookies). */
  cookieName: string;
  /** The short-lived cookie of a begun sign-in (path `/sign-in`: `__Secure-` prefixed, not `__Host-`). */
  pendingCookieName: string;
  /** Whether the form's `csrf` field is this session's token (read after a body parser). */
  csrfMatches(req: Request, session: SessionData): boolean;
  /**
   * For the pages of signed-in people: a session that could not be read answers 503; nobody
   * signed in is sent to sign in (GET) or refused (POST); a POST must carry the session's CSRF
   * token. Runs after {@link WebSessions.load} (and, for POSTs, a form body parser).
   */
  requireSignedIn: RequestHandler;
}

export function createWebSessions(deps: WebSessionDeps): WebSessions {
  const { store, settings, logger } = deps;
  const recheck = createSessionRecheck({
    store,
    relyingParty: deps.relyingParty,
    users: deps.users,
    recheckSeconds: settings.recheckSeconds,
    lockMs: deps.refreshLockMs ?? 15_000,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const cookieName = settings.secureCookies ? `__Host-${settings.cookieName}` : settings.cookieName;
  const pendingCookieName = `${settings.secureCookies ? '__Secure-' : ''}${settings.cookieName}_sign_in`;

  const cookieOptions = {
    httpOnly: true as const,
    sameSite: 'lax' as const,
    secure: settings.secureCookies,
    path: '/',
  };

  /** A browser-session cookie (no Max-Age): closing the browser forgets it; Redis ends the session. */
  function setCookie(res: Response, sessionId: string): void {
    res.cookie(cookieName, sessionId, cookieOptions);
  }

  function clearCookie(res: Response): void {
    res.clearCookie(cookieName, cookieOptions);
  }

  const load: RequestHandler = async (req, res, next) => {
    res.locals.webCaller = ANONYMOUS_CALLER;
    const sessionId = parseCookies(req.headers.cookie ?? '')[cookieName];
    if (!sessionId) return next();
    try {
      const session = await store.get(sessionId);
      const checked = session && (await recheck(sessionId, session));
      if (!checked) {
        if (session) await store.destroy(sessionId, session.userId);
        clearCookie(res);
        return next();
      }
      res.locals.webCaller = { kind: 'signed-in', sessionId, session: checked };
    } catch (err) {
      const what =
        err instanceof IssuerUnavailable ? 'the sign-in provider' : 'the session store or database';
      logger.warn({ err }, `web session not loaded: ${what} did not answer`);
      res.locals.webCaller = { kind: 'unavailable' };
    }
    next();
  };

  function csrfMatches(req: Request, session: SessionData): boolean {
    const given = (req.body as { csrf?: unknown } | undefined)?.csrf;
    if (typeof given !== 'string') return false;
    const a = Buffer.from(given);
    const b = Buffer.from(session.csrf);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  const requireSignedIn: RequestHandler = (req, res, next) => {
    const caller = need(res, 'webCaller');
    if (caller.kind === 'unavailable') {
      return next(new HttpError(503, 'dependency_unavailable', 'Your session cannot be read right now.'));
    }
    if (caller.kind === 'anonymous') {
      if (req.method === 'GET') return res.redirect(303, '/sign-in');
      return next(new HttpError(403, 'forbidden', 'Please sign in first.'));
    }
    if (req.method === 'POST' && !csrfMatches(req, caller.session)) {
      return next(
        new HttpError(403, 'forbidden', 'This form is out of date. Please go back, reload and try again.'),
      );
    }
    next();
  };

  return {
    load,
    setCookie,
    clearCookie,
    cookieOptions,
    cookieName,
    pendingCookieName,
    csrfMatches,
    requireSignedIn,
  };
}
