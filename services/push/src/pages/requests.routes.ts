import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { parseCookie as parseCookies } from 'cookie';
import { HttpError } from '@secret-push/http-kit';
import { t } from '@secret-push/i18n';
import type { Logger } from '@secret-push/logger';
import { ownerOf } from '../domain/create-policy';
import { idempotencyScope, isAcceptableKey, newIdempotencyKey } from '../domain/idempotency';
import { auditContext } from '../http/audit-context';
import { toHttpError } from '../http/error-map';
import { parsePage } from '../http/push.schemas';
import { type WebSessions, signedInSession, webActor, webCallerOf } from '../session/web-session';
import type { WebFormPresets } from '../config/web-form';
import { expiryOf } from './create-form.expiry';
import type { FieldErrors } from './form-parts.views';
import { formField, sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import { qrSvg } from './qr';
import { pageProblems } from './request-problems';
import { type RequestFormRules, type RequestFormValues, requestFormPage } from './request-form.views';
import type { RequestPages } from './request-pages.port';
import { confirmPage } from './confirm.views';
import { setFlash, takeFlash } from './flash';
import {
  type RequestState,
  closeConsequence,
  requestCreatedGonePage,
  requestCreatedPage,
  requestDetailPage,
  requestsPage,
} from './requests.views';
import { errorPage } from './views';
import { headerOf } from './web-header';

export interface RequestPagesDeps {
  requests: RequestPages;
  sessions: WebSessions;
  publicUrl: string;
  logger: Logger;
  /** The form's settings (the push create's days and views, the defaults). */
  rules: Omit<RequestFormRules, 'ownEmail'>;
  /** The API's create limit, shared. */
  rateLimit: RequestHandler;
}

/** Where the create redirects, its cookie (the form's key), and how long the link is shown. */
const CREATED_PATH = '/requests/created';
const CREATED_COOKIE = 'sp_request_created';
const CREATED_SECONDS = 600;
const PAGE_SIZE = 50;
const STATES: readonly RequestState[] = ['open', 'answered', 'closed'];

/** The form's own problems (not the API's), in the page's language. */
const formReused = () => t('requests.problem.formReused');
const passphraseAgain = () => t('requests.problem.passphraseAgain');

const token = (req: Request) => String(req.params.token);

/** Where Close returns: a path of ours under /requests only (anything else: the list). */
const backOf = (back: string) =>
  /^\/requests(\/[A-Za-z0-9_-]+|\?state=(open|answered|closed)(&page=\d{1,3})?)?$/.test(back)
    ? back
    : '/requests';

/** The form as typed. */
function valuesOf(body: unknown): RequestFormValues {
  const get = (name: string) => formField(body, name);
  const yes = (name: string) => get(name) === 'true';
  return {
    request: get('request'),
    name: get('name'),
    note: get('note'),
    duration: get('duration'),
    views: get('views'),
    expire_after_days: get('expire_after_days'),
    expire_after_views: get('expire_after_views'),
    answer_expire_after_days: get('answer_expire_after_days'),
    retrieval_step: yes('retrieval_step'),
    deletable_by_viewer: yes('deletable_by_viewer'),
    response_file_attachments: yes('response_file_attachments'),
    include_requestor: yes('include_requestor'),
    answerable_by: get('answerable_by'),
    answerable_emails: get('answerable_emails'),
    notify_owner_on_answer: yes('notify_owner_on_answer'),
    notify_emails_to: get('notify_emails_to'),
    notify_emails_to_locale: get('notify_emails_to_locale'),
    passphraseRequired: get('passphrase_required') === 'true' || (get('passphrase') ?? '') !== '',
    idempotencyKey: get('idempotency_key'),
  };
}

/** The form's fields as the API's `request` object (empty optional fields left out). */
function requestOf(
  v: RequestFormValues,
  passphrase: string | undefined,
  presets: WebFormPresets,
): Record<string, unknown> {
  if (v.passphraseRequired && !passphrase) throw HttpError.validation({ passphrase: [passphraseAgain()] });
  const given = (s: string | undefined) => (s !== undefined && s.trim() !== '' ? s : undefined);
  const optional: Record<string, unknown> = {
    name: given(v.name),
    note: given(v.note),
    answer_expire_after_days: given(v.answer_expire_after_days),
    passphrase,
    answerable_emails: v.answerable_by === 'emails' ? given(v.answerable_emails) : undefined,
    notify_emails_to: given(v.notify_emails_to),
    notify_emails_to_locale: given(v.notify_emails_to) ? v.notify_emails_to_locale : undefined,
  };
  return {
    request: v.request ?? '',
    ...expiryOf(v, presets),
    retrieval_step: v.retrieval_step,
    deletable_by_viewer: v.deletable_by_viewer,
    response_file_attachments: v.response_file_attachments,
    include_requestor: v.include_requestor,
    answerable_by: v.answerable_by ?? 'anyone',
    notify_owner_on_answer: v.notify_owner_on_answer,
    ...Object.fromEntries(Object.entries(optional).filter(([, x]) => x !== undefined)),
  };
}

/**
 * The requester's pages (issue 28), for people signed in, through the requests domain service as
 * the person (`user:<id>`): `/requests/new` ("Request a secret", Post/Redirect/Get to
 * `/requests/created` under the form's Idempotency-Key, as the push create form), `/requests`
 * (lists by state, paged) and `/requests/:token` (detail, audit, Close, the answer's link).
 */
export function requestPagesRoutes(deps: RequestPagesDeps): Router {
  const { requests, sessions } = deps;
  const router = Router();
  const guard = [sessions.load, sessions.requireSignedIn];
  const readForm = express.urlencoded({ extended: false, limit: '128kb', parameterLimit: 30 });
  const guardPost = [sameOriginPosts(deps.publicUrl), readForm, ...guard];
  const rulesFor = (res: Response): RequestFormRules => {
    const session = signedInSession(res);
    return { ...deps.rules, ownEmail: session.emailVerified ? session.email : null };
  };
  const actorOf = (res: Response) => webActor(webCallerOf(res));
  const header = (res: Response) => headerOf(res, true)!;
  const secure = deps.publicUrl.startsWith('https:');

  router.get('/requests/new', ...guard, (_req, res) => {
    setPageHeaders(res);
    const csrf = signedInSession(res).csrf;
    const values = { idempotencyKey: newIdempotencyKey() };
    sendPage(res, 200, requestFormPage({ rules: rulesFor(res), header: header(res), csrf, values }));
  });

  router.post('/requests/new', ...guardPost, deps.rateLimit, createFromForm(deps, rulesFor));

  router.get(CREATED_PATH, ...guard, async (req, res) => {
    setPageHeaders(res);
    const key = parseCookies(req.headers.cookie ?? '')[CREATED_COOKIE];
    const scope = idempotencyScope(ownerOf(actorOf(res)), req.ip ?? null);
    const made =
      key !== undefined && isAcceptableKey(key, true)
        ? await requests.createdWith({ scope, key }, CREATED_SECONDS)
        : undefined;
    if (!made) return sendPage(res, 404, requestCreatedGonePage(header(res)));
    sendPage(
      res,
      200,
      requestCreatedPage({ header: header(res), request: made, qr: await qrSvg(made.link) }),
    );
  });

  router.get('/requests', ...guard, async (req, res) => {
    setPageHeaders(res);
    const state = STATES.find((s) => s === req.query.state) ?? 'open';
    const page = parsePage(req.query.page);
    const items = await requests.list(actorOf(res), state, page);
    const flash = takeFlash(req, res);
    const html = requestsPage({
      header: header(res),
      state,
      page,
      hasNext: items.length === PAGE_SIZE,
      items,
      ...(flash ? { flash } : {}),
    });
    sendPage(res, 200, html);
  });

  router.get('/requests/:token', ...guard, async (req, res) => {
    setPageHeaders(res);
    const { request, entries } = await requests.detail(token(req), actorOf(res));
    const flash = takeFlash(req, res);
    sendPage(
      res,
      200,
      requestDetailPage({ header: header(res), request, entries, ...(flash ? { flash } : {}) }),
    );
  });

  /** Close asks first: this page names the request; its form POSTs (nothing changes here). */
  router.get('/requests/:token/close', ...guard, async (req, res) => {
    const { request } = await requests.detail(token(req), actorOf(res));
    const back = backOf(typeof req.query.back === 'string' ? req.query.back : '');
    if (request.state === 'closed') return res.redirect(303, back);
    setPageHeaders(res);
    const page = confirmPage({
      header: header(res),
      question: request.name
        ? t('requests.close.questionNamed', { name: request.name })
        : t('requests.close.question'),
      consequence: closeConsequence(request),
      action: `/requests/${request.urlToken}/close`,
      csrf: signedInSession(res).csrf,
      fields: { back },
      confirm: request.name
        ? t('requests.close.confirmNamed', { name: request.name })
        : t('requests.close.confirm'),
      cancel: back,
    });
    sendPage(res, 200, page);
  });

  router.post('/requests/:token/close', ...guardPost, deps.rateLimit, async (req, res) => {
    const { request } = await requests.detail(token(req), actorOf(res));
    await requests.close(token(req), actorOf(res), auditContext(req));
    setFlash(res, 'request-closed', request.name, secure);
    // Back to the page the button was on (a path of ours under /requests only).
    res.redirect(303, backOf(formField(req.body, 'back') ?? ''));
  });

  router.use('/requests', ((err, _req, res, next) => {
    const mapped = toHttpError(err);
    if (!(mapped instanceof HttpError) || mapped.status !== 404) return next(err);
    setPageHeaders(res);
    sendPage(res, 404, errorPage(t('requests.notFound.title'), t('requests.notFound.text')));
  }) as express.ErrorRequestHandler);
  router.use('/requests', pageErrors(deps.logger, 'your requests'));
  return router;
}

/**
 * `POST /requests/new`: the request of the form under its Idempotency-Key, then 303 to the created
 * page (its cookie names the key); a refusal (422) shows the form again with the problems and what
 * was typed (never the passphrase: the form says to type it again).
 */
function createFromForm(
  deps: RequestPagesDeps,
  rulesFor: (res: Response) => RequestFormRules,
): RequestHandler {
  return async (req, res) => {
    setPageHeaders(res);
    const values = valuesOf(req.body);
    const key = values.idempotencyKey ?? newIdempotencyKey();
    if (!isAcceptableKey(key, true)) throw new HttpError(400, 'bad_request', 'This form is out of date.');
    const actor = webActor(webCallerOf(res));
    const scope = idempotencyScope(ownerOf(actor), req.ip ?? null);
    const session = signedInSession(res);
    /** The form again with its problems (the form's own are in the page's language already). */
    const refused = (err: unknown, own: boolean) => {
      const mapped = toHttpError(err);
      if (!(mapped instanceof HttpError) || mapped.status !== 422) throw err;
      const reused = mapped.code === 'idempotency_key_reused';
      const fields = mapped.options.fields ?? { form: [mapped.message] };
      const errors: FieldErrors = reused
        ? { form: [formReused()] }
        : own
          ? { ...fields }
          : pageProblems(fields);
      if (values.passphraseRequired && !errors.passphrase) errors.passphrase = [passphraseAgain()];
      const again = { ...values, idempotencyKey: reused ? newIdempotencyKey() : key };
      const page = requestFormPage({
        rules: rulesFor(res),
        header: headerOf(res, true)!,
        csrf: session.csrf,
        values: again,
        errors,
      });
      sendPage(res, 422, page);
    };
    let request: Record<string, unknown>;
    try {
      request = requestOf(values, formField(req.body, 'passphrase') || undefined, deps.rules.presets);
    } catch (err) {
      return refused(err, true);
    }
    try {
      await deps.requests.create(
        { request },
        {
          actor,
          ownerEmail: session.emailVerified ? session.email : null,
          audit: auditContext(req),
          idempotency: { scope, key },
        },
      );
    } catch (err) {
      return refused(err, false);
    }
    res.cookie(CREATED_COOKIE, key, {
      httpOnly: true,
      sameSite: 'strict',
      secure: deps.publicUrl.startsWith('https:'),
      path: CREATED_PATH,
      maxAge: CREATED_SECONDS * 1000,
    });
    res.redirect(303, CREATED_PATH);
  };
}
