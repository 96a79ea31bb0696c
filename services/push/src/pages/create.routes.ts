import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import type { Logger } from '@secret-push/logger';
import { type CreateFeatures, mayCreate } from '../domain/create-policy';
import type { PushKind } from '../domain/push';
import type { PushService } from '../domain/push-service';
import { auditContext } from '../http/audit-context';
import { htmlUrl } from '../http/push.presenter';
import { type CreateRules, MAX_TEXT_PAYLOAD, parseCreateBody } from '../http/push.schemas';

import { type FormValues, createFormPage, createdPage } from './create.views';
import { headerOf } from './web-header';
import { userPrincipalId } from '../domain/user';
import { type WebSessions, webCallerOf } from '../session/web-session';
import { formField, sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import { errorPage } from './views';
import { qrSvg } from './qr';

export interface CreatePagesDeps {
  pushes: PushService;
  publicUrl: string;
  rules: CreateRules;
  features: CreateFeatures;
  /** The API's create limit, shared: the form and the API spend the same budget. */
  rateLimit: RequestHandler;
  logger: Logger;
  /** Sessions of signed-in people: absent when the instance has no sign-in. */
  sessions?: WebSessions;
}

/** The kinds the form offers: those the instance enables; files need sign-in, which comes later. */
const FORM_KINDS: readonly PushKind[] = ['text', 'url', 'qr'];

/**
 * The web app's create form: `GET /` shows it, `POST /` creates the push through the same rules
 * and domain service as `POST /api/v2/pushes` (the body is read into the API's `{push: …}` shape
 * and parsed by the API's schema), and answers the page with the link. A refused create shows
 * the form again with the problems and what was typed (never the passphrase).
 */
export function createPagesRoutes(deps: CreatePagesDeps): Router {
  const router = Router();
  const kinds = FORM_KINDS.filter((k) => deps.rules.enabledKinds.has(k));
  const formRules = { ...deps.rules, kinds };
  const signInEnabled = deps.sessions !== undefined;
  const noKinds =
    kinds.length === 0 ? 'This instance does not offer text, link or QR code secrets.' : undefined;
  /** Why this visitor gets no form, if they get none. */
  const noticeFor = (signedIn: boolean): string | undefined =>
    noKinds ??
    (signedIn || deps.features.anonymousCreate
      ? undefined
      : signInEnabled
        ? 'Sign in to share a secret on this instance.'
        : 'Creating a secret on this instance needs an account; sign-in is not configured. Use the API with a token.');
  const load: RequestHandler[] = deps.sessions ? [deps.sessions.load] : [];
  const unavailable = (res: Response) =>
    sendPage(
      res,
      503,
      errorPage(
        'Temporarily unavailable',
        'Your session cannot be read right now. Please try again in a moment.',
      ),
    );

  router.get('/', ...load, (req, res) => {
    setPageHeaders(res);
    const header = headerOf(req, signInEnabled);
    if (!header) return unavailable(res);
    const notice = noticeFor(header.user !== null);
    sendPage(res, 200, createFormPage({ rules: formRules, header, ...(notice ? { notice } : {}) }));
  });

  const readForm = express.urlencoded({
    extended: false,
    // The largest text payload, URL-encoded (up to 9 bytes per character), and the other fields.
    limit: MAX_TEXT_PAYLOAD * 9 + 16 * 1024,
    parameterLimit: 20,
  });

  const create: RequestHandler = async (req: Request, res) => {
    setPageHeaders(res);
    const header = headerOf(req, signInEnabled);
    if (!header) return unavailable(res);
    const caller = webCallerOf(req);
    const owner = caller.kind === 'signed-in' ? userPrincipalId(caller.session.userId) : null;
    const notice = noticeFor(owner !== null);
    if (notice) return sendPage(res, 403, createFormPage({ rules: formRules, header, notice }));
    const body: unknown = req.body;
    const values: FormValues = {
      kind: formField(body, 'kind'),
      payload: formField(body, 'payload'),
      expire_after_days: formField(body, 'expire_after_days'),
      expire_after_views: formField(body, 'expire_after_views'),
      retrieval_step: formField(body, 'retrieval_step') === 'true',
      deletable_by_viewer: formField(body, 'deletable_by_viewer') === 'true',
    };
    const passphrase = formField(body, 'passphrase');
    const push: Record<string, unknown> = {
      kind: values.kind,
      payload: values.payload,
      expire_after_days: values.expire_after_days,
      expire_after_views: values.expire_after_views,
      retrieval_step: values.retrieval_step,
      deletable_by_viewer: values.deletable_by_viewer,
      ...(passphrase ? { passphrase } : {}),
    };
    try {
      if (!kinds.includes(values.kind as PushKind)) {
        throw HttpError.validation({ kind: ['Choose what you want to share.'] });
      }
      const input = parseCreateBody({ push }, deps.rules);
      // A signed-in person creates as their user, with both scopes (the web app is theirs).
      const who = owner ? { id: owner, scopes: new Set(['pushes:read', 'pushes:write']) } : undefined;
      const decision = mayCreate(who, input.kind, deps.features);
      if (!decision.ok) throw new HttpError(403, 'forbidden', 'You may not create this kind of secret here.');
      const created = await deps.pushes.create(input, owner, auditContext(req));
      const link = htmlUrl(deps.publicUrl, created.urlToken, created.snapshot.push.retrievalStep);
      sendPage(
        res,
        201,
        createdPage({
          link,
          qr: await qrSvg(link),
          push: created.snapshot.push,
          now: created.snapshot.now,
          header,
          ...(caller.kind === 'signed-in'
            ? { expire: { urlToken: created.urlToken, csrf: caller.session.csrf } }
            : {}),
        }),
      );
    } catch (err) {
      if (err instanceof HttpError && err.status === 422) {
        const fields = err.options.fields ?? {};
        return sendPage(res, 422, createFormPage({ rules: formRules, values, errors: fields, header }));
      }
      throw err;
    }
  };
  router.post('/', sameOriginPosts(deps.publicUrl), readForm, deps.rateLimit, ...load, create);
  router.use(pageErrors(deps.logger, 'the create form'));
  return router;
}
