import express, { type Request, Router } from 'express';
import type { Logger } from '@secret-push/logger';
import { NotOwner, PushNotFound } from '../domain/errors';
import { ownerOf } from '../domain/create-policy';
import type { PushService } from '../domain/push-service';
import { userPrincipalId } from '../domain/user';
import { auditContext } from '../http/audit-context';
import { parsePage } from '../http/push.schemas';
import { type WebSessions, signedInSession, webActor, webCallerOf } from '../session/web-session';
import { auditPage, pushesPage } from './owner.views';
import { sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import { headerOf } from './web-header';
import { errorPage } from './views';

export interface OwnerPagesDeps {
  pushes: PushService;
  sessions: WebSessions;
  publicUrl: string;
  logger: Logger;
}

/** A page of the lists holds this many pushes (the store's page size). */
const PAGE_SIZE = 50;

/**
 * The signed-in person's pushes: `/pushes` (active or expired, paged), `/pushes/:url_token/audit`
 * and the Expire button, through the same domain service as `GET /api/v2/pushes/active`,
 * `…/audit` and `DELETE …`: a person sees, audits and expires only their own pushes (another's is
 * "not found", as over the API).
 */
export function ownerPagesRoutes(deps: OwnerPagesDeps): Router {
  const { pushes, sessions } = deps;
  const router = Router();
  const readForm = express.urlencoded({ extended: false, limit: '2kb', parameterLimit: 5 });
  const guard = [sessions.load, sessions.requireSignedIn];
  const token = (req: Request) => String(req.params.token);

  router.get('/pushes', ...guard, async (req, res) => {
    setPageHeaders(res);
    const state = req.query.state === 'expired' ? 'expired' : 'active';
    const page = parsePage(req.query.page);
    const owned = await pushes.list(userPrincipalId(signedInSession(res).userId), state, page);
    const items = owned.map((o) => ({ push: o.snapshot.push, urlToken: o.urlToken, now: o.snapshot.now }));
    const html = pushesPage({
      header: headerOf(res, true)!,
      csrf: signedInSession(res).csrf,
      state,
      page,
      hasNext: owned.length === PAGE_SIZE,
      items,
    });
    sendPage(res, 200, html);
  });

  router.get('/pushes/:token/audit', ...guard, async (req, res) => {
    setPageHeaders(res);
    const owner = userPrincipalId(signedInSession(res).userId);
    const { push, entries, dropped } = await pushes.auditLog(token(req), owner, parsePage(req.query.page));
    sendPage(res, 200, auditPage({ header: headerOf(res, true)!, push, entries, dropped }));
  });

  router.post(
    '/pushes/:token/expire',
    sameOriginPosts(deps.publicUrl),
    readForm,
    ...guard,
    async (req, res) => {
      const actor = webActor(webCallerOf(res)); // requireSignedIn let a signed-in person through
      const { push } = await pushes.preview(token(req));
      // Only the owner's button: a viewer-deletable push of someone else is not theirs to expire here.
      if (push.owner !== ownerOf(actor)) throw new PushNotFound();
      await pushes.expire(token(req), actor, auditContext(req));
      res.redirect(303, '/pushes');
    },
  );

  router.use('/pushes', ((err, _req, res, next) => {
    if (err instanceof PushNotFound || err instanceof NotOwner) {
      setPageHeaders(res);
      return sendPage(res, 404, errorPage('Not found', 'There is no such push among yours.'));
    }
    next(err);
  }) as express.ErrorRequestHandler);
  router.use('/pushes', pageErrors(deps.logger, 'your pushes'));
  return router;
}
