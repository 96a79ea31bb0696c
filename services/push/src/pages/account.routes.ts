import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import type { Logger } from '@secret-push/logger';
import type { DeleteAccount } from '../domain/account-deletion';
import { auditContext } from '../http/audit-context';
import type { IssuerAccounts } from '../session/issuer-accounts';
import type { SessionStore } from '../session/session-store';
import { type WebSessions, signedInCaller, signedInSession } from '../session/web-session';
import { accountDeletedPage, accountPage } from './account.views';
import { formField, sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import { headerOf } from './web-header';

export interface AccountPagesDeps {
  sessions: WebSessions;
  store: Pick<SessionStore, 'destroyAllOf'>;
  deleteAccount: DeleteAccount;
  /** The sign-in provider's accounts endpoint and account page, where it has them. */
  issuerAccounts: IssuerAccounts;
  /** Forgets what is known about a user's status at the provider (after deleting it). */
  forgetUserStatus: (userId: string) => void;
  publicUrl: string;
  logger: Logger;
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

/**
 * `/account` (signed in): the account page. `POST /account/sign-out-others` ends every other
 * session of this person in this web app at once. `POST /account/delete`, confirmed by typing
 * the email (or "delete" without one), deletes the account here (domain/account-deletion.ts:
 * every push of theirs expires at once, every token stops working), ends all of their sessions,
 * then deletes the account at the sign-in provider where it has an accounts endpoint (our auth
 * service); if the provider does not answer, what was done here stays done and the page says so.
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
    extra: { notice?: string; confirmError?: string } = {},
  ) {
    const session = signedInSession(res);
    const page = await providerPage(issuerAccounts, logger);
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
        ...extra,
      }),
    );
  }

  router.get('/account', ...guard, (req, res) => show(req, res, 200));

  router.post('/account/sign-out-others', ...guardPost, async (req, res) => {
    const caller = signedInCaller(res);
    const ended = await deps.store.destroyAllOf(caller.session.userId, caller.sessionId);
    await show(req, res, 200, {
      notice: ended === 1 ? '1 other session was signed out.' : `${ended} other sessions were signed out.`,
    });
  });

  router.post('/account/delete', ...guardPost, async (req, res) => {
    const session = signedInSession(res);
    const expected = (session.email ?? 'delete').toLowerCase();
    if ((formField(req.body, 'confirm') ?? '').trim().toLowerCase() !== expected) {
      return show(req, res, 422, {
        confirmError: `Type ${session.email ?? 'delete'} exactly to delete your account.`,
      });
    }
    const expired = await deps.deleteAccount(session.userId, auditContext(req));
    await deps.store.destroyAllOf(session.userId);
    sessions.clearCookie(res);
    deps.forgetUserStatus(session.userId);
    logger.info({ userId: session.userId, expired }, 'account deleted by its owner');
    let providerNotDeleted: string | undefined;
    try {
      if (await issuerAccounts.supported()) await issuerAccounts.remove(session.subject);
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
