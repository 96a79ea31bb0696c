import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { t } from '@secret-push/i18n';
import type { Logger } from '@secret-push/logger';
import type { DeleteAccount } from '../domain/account-deletion';
import { auditContext } from '../http/audit-context';
import type { IssuerAccounts } from '../session/issuer-accounts';
import {
  IssuerUnavailable,
  REAUTH_MAX_AGE_SECONDS,
  type RelyingParty,
  isRecentSignIn,
} from '../session/relying-party';
import type { SessionData, SessionStore } from '../session/session-store';
import { type WebSessions, signedInCaller, signedInSession, webCallerOf } from '../session/web-session';
import { accountDeletedPage, accountPage } from './account.views';
import { type WebEmail, formValues, noticeOfferFor } from './email-pages';
import { noticesOf } from './email.views';
import { formField, sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import type { BeginSignIn } from './sign-in.routes';
import { errorPage } from './views';
import { headerOf } from './web-header';

export interface AccountPagesDeps {
  sessions: WebSessions;
  store: Pick<SessionStore, 'destroyAllOf' | 'update'>;
  /** The person's own access token (a refresh), their proof for the provider's accounts API. */
  relyingParty: Pick<RelyingParty, 'accessToken'>;
  /** Sends the browser to sign in again (re-authentication) and back (sign-in.routes.ts). */
  beginSignIn: BeginSignIn;
  deleteAccount: DeleteAccount;
  /** The sign-in provider's accounts endpoint and account page, where it has them. */
  issuerAccounts: IssuerAccounts;
  /** Forgets what is known about a user's status at the provider (after deleting it). */
  forgetUserStatus: (userId: string) => void;
  publicUrl: string;
  logger: Logger;
  /** Email, where the instance sends it: the person's default owner notices. */
  email?: WebEmail;
}

/** The provider's account page, or undefined when it has none or cannot be asked now. */
async function providerPage(accounts: IssuerAccounts, logger: Logger): Promise<string | undefined> {
  try {
    return await accounts.accountPage();
  } catch (err) {
    logger.warn({ err }, 'the sign-in provider did not answer: its account page is not linked');
    return undefined;
  }
}

type ShowAccount = (
  req: Request,
  res: Response,
  status: number,
  extra?: { noticesSaved?: boolean },
) => Promise<void>;

/**
 * `POST /account/notices`: the person's default owner notices (the boxes checked; none is none),
 * then back to the account page with a confirmation (Post/Redirect/Get). Only with a verified
 * address where email is on: otherwise the page says why, and nothing is saved.
 */
function saveNoticeDefaults(
  router: Router,
  email: WebEmail | undefined,
  guardPost: RequestHandler[],
  show: ShowAccount,
): void {
  router.post('/account/notices', ...guardPost, async (req, res) => {
    const caller = signedInCaller(res);
    const offer = await noticeOfferFor(webCallerOf(res), email);
    if (!email || !offer?.offered) return show(req, res, 422);
    await email.setNoticeDefaults(caller.session.userId, noticesOf(formValues(req.body, 'notices')));
    res.redirect(303, '/account?saved=notices');
  });
}

/** Sends the browser to sign in again, then back to the deletion's confirmation; 503 when it cannot. */
async function signInToDelete(beginSignIn: BeginSignIn, res: Response, session: SessionData) {
  const again = { returnTo: '/account/delete', ...(session.email ? { loginHint: session.email } : {}) };
  if (await beginSignIn(res, again)) return;
  setPageHeaders(res);
  sendPage(res, 503, errorPage(t('account.signInUnavailable.title'), t('account.signInUnavailable.text')));
}

/**
 * `/account` (signed in): the account page. `POST /account/sign-out-others` ends every other
 * session of this person in this web app at once.
 *
 * Deleting the account needs a sign-in at the provider at most REAUTH_MAX_AGE_SECONDS old (the ID
 * token's `auth_time`): otherwise `GET /account/delete` (and a `POST` too soon) sends the browser
 * to sign in again (`prompt=login`, `max_age`: password and second factor asked again), which
 * comes back to `GET /account/delete`, the account page with the confirmation. `POST
 * /account/delete`, confirmed by typing the email (or "delete" without one), then, in this order:
 * 1. gets the person's own access token (a refresh): the provider not answering → 503, nothing
 *    deleted anywhere;
 * 2. deletes the account here (domain/account-deletion.ts: every push of theirs expires at once,
 *    every token stops working; each step safe to repeat) and ends all of their sessions;
 * 3. deletes it at the provider with that token, where it has an accounts endpoint (our auth
 *    service); if that fails, what was done here stays done and the page says so (signing in
 *    again makes a new, empty user here, from which the deletion can be repeated).
 */
export function accountPagesRoutes(deps: AccountPagesDeps): Router {
  const { sessions, issuerAccounts, logger } = deps;
  const router = Router();
  const readForm = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 5 });
  const guard: RequestHandler[] = [sessions.load, sessions.requireSignedIn];
  const guardPost: RequestHandler[] = [sameOriginPosts(deps.publicUrl), readForm, ...guard];

  async function show(
    req: Request,
    res: Response,
    status: number,
    extra: { notice?: string; confirmError?: string; noticesSaved?: boolean } = {},
  ) {
    const session = signedInSession(res);
    const [page, notices] = await Promise.all([
      providerPage(issuerAccounts, logger),
      noticeOfferFor(webCallerOf(res), deps.email),
    ]);
    setPageHeaders(res);
    sendPage(
      res,
      status,
      accountPage({
        header: headerOf(res, true)!,
        csrf: session.csrf,
        email: session.email,
        issuer: session.issuer,
        ...(page ? { providerPage: page } : {}),
        ...(notices ? { notices } : {}),
        ...extra,
      }),
    );
  }

  router.get('/account', ...guard, (req, res) =>
    show(req, res, 200, req.query.saved === 'notices' ? { noticesSaved: true } : {}),
  );

  saveNoticeDefaults(router, deps.email, guardPost, show);

  router.post('/account/sign-out-others', ...guardPost, async (req, res) => {
    const caller = signedInCaller(res);
    const ended = await deps.store.destroyAllOf(caller.session.userId, caller.sessionId);
    await show(req, res, 200, {
      notice: t('account.sessions.ended', { count: ended }),
    });
  });

  const signInAgain = (res: Response, session: SessionData) => signInToDelete(deps.beginSignIn, res, session);

  router.get('/account/delete', ...guard, async (req, res) => {
    const session = signedInSession(res);
    if (!isRecentSignIn(session.authTime)) return signInAgain(res, session);
    const minutes = Math.round(REAUTH_MAX_AGE_SECONDS / 60);
    await show(req, res, 200, {
      notice: t('account.delete.signedInAgain', { minutes }),
    });
  });

  /** The person's access token for the provider's accounts API, or a page saying why not. */
  async function providerProof(res: Response): Promise<string | null | undefined> {
    const { sessionId, session } = signedInCaller(res);
    if (!(await issuerAccounts.supported())) return null;
    if (!session.refreshToken) throw new IssuerUnavailable('no refresh token to ask the provider with');
    const { accessToken, refreshToken } = await deps.relyingParty.accessToken(session.refreshToken);
    await deps.store.update(sessionId, { ...session, refreshToken });
    return accessToken;
  }

  router.post('/account/delete', ...guardPost, async (req, res) => {
    const session = signedInSession(res);
    // Without an email, the word to type is "delete" in the page's language (English's always works).
    const word = session.email ?? t('account.delete.word');
    const expected = new Set([word.toLowerCase(), session.email === null ? 'delete' : word.toLowerCase()]);
    if (!expected.has((formField(req.body, 'confirm') ?? '').trim().toLowerCase())) {
      return show(req, res, 422, { confirmError: t('account.delete.mismatch', { word }) });
    }
    if (!isRecentSignIn(session.authTime)) return signInAgain(res, session);
    let accessToken: string | null | undefined;
    try {
      accessToken = await providerProof(res);
    } catch (err) {
      logger.warn(
        { err, userId: session.userId },
        'account not deleted: the sign-in provider did not answer',
      );
      setPageHeaders(res);
      return sendPage(res, 503, errorPage(t('account.notDeleted.title'), t('account.notDeleted.text')));
    }
    const expired = await deps.deleteAccount(session.userId, auditContext(req));
    await deps.store.destroyAllOf(session.userId);
    sessions.clearCookie(res);
    deps.forgetUserStatus(session.userId);
    logger.info({ userId: session.userId, expired }, 'account deleted by its owner');
    let providerNotDeleted: string | undefined;
    try {
      if (accessToken) await issuerAccounts.remove(session.subject, accessToken);
    } catch (err) {
      logger.warn({ err, userId: session.userId }, 'account deleted here but not at the sign-in provider');
      providerNotDeleted = session.issuer;
    }
    setPageHeaders(res);
    sendPage(
      res,
      200,
      accountDeletedPage({ expired, ...(providerNotDeleted ? { providerNotDeleted } : {}) }),
    );
  });

  router.use('/account', pageErrors(logger, 'the account page'));
  return router;
}
