import express, { type Response, Router } from 'express';
import type { Logger } from '@secret-push/logger';
import type { RelyingParty } from '../session/relying-party';
import type { SessionStore } from '../session/session-store';
import { type WebSessions, webCallerOf } from '../session/web-session';
import { sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { signedOutPage, signingOutPage } from './sign-in.views';
import { errorPage } from './views';
import { t } from '@secret-push/i18n';

/** The sign-out form: its CSRF token only. */
const readForm = express.urlencoded({ extended: false, limit: '2kb', parameterLimit: 5 });

export interface SignOutDeps {
  relyingParty: Pick<RelyingParty, 'signOutUrl'>;
  store: Pick<SessionStore, 'destroy'>;
  sessions: WebSessions;
  publicUrl: string;
  logger: Logger;
}

/**
 * - `POST /sign-out` ends the session here, then at the provider (RP-initiated logout): it answers
 *   a page that sends the browser on to the provider's end-session endpoint (a 303 there would be
 *   stopped by the page's `form-action 'self'` in Chromium, leaving the provider's session alive),
 *   which comes back to
 * - `GET /signed-out`: "You are signed out" (the client's post-logout redirect URI).
 */
export function signOutRoutes(deps: SignOutDeps): Router {
  const { relyingParty, store, sessions, publicUrl, logger } = deps;
  const router = Router();
  const unavailable = (res: Response) =>
    sendPage(
      res,
      503,
      errorPage(t('errors.signIn.unavailable.title'), t('errors.signIn.unavailable.signOut')),
    );

  router.post('/sign-out', sameOriginPosts(publicUrl), readForm, sessions.load, async (req, res) => {
    setPageHeaders(res);
    const caller = webCallerOf(res);
    if (caller.kind === 'unavailable') return unavailable(res); // the cookie stays: try again
    if (caller.kind === 'signed-in' && !sessions.csrfMatches(req, caller.session)) {
      return sendPage(res, 403, errorPage(t('errors.forbidden.title'), t('errors.forbidden.outOfDate')));
    }
    sessions.clearCookie(res);
    if (caller.kind !== 'signed-in') return res.redirect(303, '/');
    try {
      await store.destroy(caller.sessionId, caller.session.userId);
    } catch (err) {
      logger.warn({ err }, 'session not ended: the session store did not answer');
      return unavailable(res);
    }
    const atProvider = await relyingParty.signOutUrl(caller.session.idToken).catch(() => undefined);
    if (!atProvider) return res.redirect(303, '/'); // a provider without RP-initiated logout
    sendPage(res, 200, signingOutPage(atProvider.href));
  });

  router.get('/signed-out', (_req, res) => {
    setPageHeaders(res);
    sendPage(res, 200, signedOutPage(true));
  });

  return router;
}
