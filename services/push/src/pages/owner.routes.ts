import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import type { Logger } from '@secret-push/logger';
import { NotOwner, PushNotFound } from '../domain/errors';
import type { PushService } from '../domain/push-service';
import { userPrincipalId } from '../domain/user';
import { isEffectivelyExpired } from '../domain/view-policy';
import { auditContext } from '../http/audit-context';
import { toHttpError } from '../http/error-map';
import { parsePage } from '../http/push.schemas';
import { type WebSessions, signedInSession } from '../session/web-session';
import { t } from '@secret-push/i18n';
import { type WebEmail, notifyProblems } from './email-pages';
import { type PushEmailPart, auditPage, pushesPage } from './owner.views';
import { takeFlash } from './flash';
import { ownerExpireRoutes } from './owner-expire.routes';
import { formField, sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import { headerOf } from './web-header';
import { errorPage } from './views';

export interface OwnerPagesDeps {
  pushes: PushService;
  sessions: WebSessions;
  publicUrl: string;
  logger: Logger;
  /** Email, where the instance sends it: a push's sends and "Send the link by email". */
  email?: WebEmail;
}

/** What was typed in "Send the link by email", and its problems. */
interface NotifyAttempt {
  values: { to?: string; locale?: string };
  errors: Record<string, string[]>;
}

/** Runs a limiting step (a middleware) as a check: resolves when it lets the request through. */
const passes = (step: RequestHandler, req: Request, res: Response): Promise<void> =>
  new Promise((resolve, reject) => {
    const fail = (err: unknown) => reject(err instanceof Error ? err : new Error(String(err)));
    Promise.resolve(step(req, res, (err?: unknown) => (err ? fail(err) : resolve()))).catch(fail);
  });

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
    const flash = takeFlash(req, res);
    const html = pushesPage({
      header: headerOf(res, true)!,
      ...(flash ? { flash } : {}),
      state,
      page,
      hasNext: owned.length === PAGE_SIZE,
      items,
    });
    sendPage(res, 200, html);
  });

  /** A push's page: its emails (and the form to send the link) and its audit log. */
  async function showPush(req: Request, res: Response, status: number, attempt?: NotifyAttempt) {
    setPageHeaders(res);
    const session = signedInSession(res);
    const owner = userPrincipalId(session.userId);
    const { push, entries, dropped } = await pushes.auditLog(token(req), owner, parsePage(req.query.page));
    let email: PushEmailPart | undefined;
    if (deps.email) {
      const active = !isEffectivelyExpired(push, new Date());
      email = {
        sends: await deps.email.sends(token(req), owner),
        ...(req.query.sent === '1' && !attempt ? { sent: true } : {}),
        ...(active
          ? {
              form: {
                urlToken: token(req),
                csrf: session.csrf,
                locales: deps.email.locales,
                ...(attempt ?? {}),
              },
            }
          : {}),
      };
    }
    const page = auditPage({
      header: headerOf(res, true)!,
      push,
      entries,
      dropped,
      now: new Date(),
      ...(email ? { email } : {}),
    });
    sendPage(res, status, page);
  }

  router.get('/pushes/:token/audit', ...guard, (req, res) => showPush(req, res, 200));

  /**
   * "Send the link by email": the same use case as `POST /api/v2/pushes/:url_token/notify_emails`
   * (owner only, its limits), then back to the push's page (Post/Redirect/Get); a refusal (bad
   * addresses, more than 5 over the push's life, expired, too many sends) shows the page again with
   * the problem and what was typed.
   */
  router.post(
    '/pushes/:token/notify',
    sameOriginPosts(deps.publicUrl),
    readForm,
    ...guard,
    async (req, res) => {
      const email = deps.email;
      if (!email) throw new PushNotFound();
      const to = formField(req.body, 'notify_emails_to') ?? '';
      const locale = formField(req.body, 'notify_emails_to_locale');
      try {
        if (email.rateLimit) await passes(email.rateLimit, req, res);
        await email.notify(token(req), signedInSession(res), { to, locale }, auditContext(req));
      } catch (err) {
        const mapped = toHttpError(err);
        if (!(mapped instanceof HttpError) || (mapped.status !== 422 && mapped.status !== 429)) throw err;
        res.set(mapped.options.headers ?? {});
        const errors = notifyProblems(mapped.status, mapped.options.fields, mapped.message);
        return showPush(req, res, mapped.status, {
          values: { to, ...(locale ? { locale } : {}) },
          errors,
        });
      }
      res.redirect(303, `/pushes/${token(req)}/audit?sent=1`);
    },
  );

  ownerExpireRoutes(router, deps, guard);

  router.use('/pushes', ((err, _req, res, next) => {
    if (err instanceof PushNotFound || err instanceof NotOwner) {
      setPageHeaders(res);
      return sendPage(res, 404, errorPage(t('owner.notFound.title'), t('owner.notFound.text')));
    }
    next(err);
  }) as express.ErrorRequestHandler);
  router.use('/pushes', pageErrors(deps.logger, 'your pushes'));
  return router;
}
