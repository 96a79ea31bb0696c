import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import { t } from '@secret-push/i18n';
import type { Logger } from '@secret-push/logger';
import { auditContext } from '../http/audit-context';
import { toHttpError } from '../http/error-map';
import { onlyMultipart } from '../http/request-body';
import { type WebSessions, webActor, webCallerOf } from '../session/web-session';
import type { FieldErrors } from './form-parts.views';
import { formField, sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import { pageProblems } from './request-problems';
import type { AnswerInput, RequestPages } from './request-pages.port';
import {
  type AnswerValues,
  alreadyAnsweredPage,
  answeredPage,
  requestGonePage,
  respondPage,
  signInToAnswerPage,
} from './respond.views';
import { RESPOND_FORM_JS, RESPOND_FORM_SCRIPT } from './respond-form.script';
import {
  type RespondUploads,
  respondDownloadRoute,
  respondUploadSteps,
  storedAnswerFiles,
} from './respond-files.routes';
import { errorPage } from './views';
import { type WebHeader, headerOf } from './web-header';

/** What the composition root gives the responder's page besides the port (server-requests.ts). */
export interface RespondPagesWiring {
  /** The answer POSTs: the API's answer limits (per caller, and per request), taken together. */
  answerLimit: RequestHandler;
  /** `POST /respond/:token/code`: the API's code limit (per IP, and per request); absent without codes. */
  codeLimit?: RequestHandler;
  /** File answers (with an object store): the request uploads; absent: the page takes text only. */
  uploads?: RespondUploads;
}

export interface RespondPagesDeps extends Partial<RespondPagesWiring> {
  requests: RequestPages;
  publicUrl: string;
  logger: Logger;
  /** `GET` of the page and of a requester's file: the API's retrieve limit (per IP), shared. */
  rateLimit: RequestHandler;
  /** Anonymous visitors may answer (`features.anonymous_access`); else only people signed in. */
  anonymousAccess: boolean;
  sessions?: WebSessions;
}

/**
 * The request's url_token, from the path: also in the error steps, where Express no longer has
 * the route's params (`router.use` layers have their own). Named `url_token` as in the API, whose
 * per-request limits key on it.
 */
const token = (req: Request) =>
  typeof req.params.url_token === 'string'
    ? req.params.url_token
    : decodeURIComponent(/^\/respond\/([^/?]+)/.exec(req.originalUrl)?.[1] ?? '');

/** The responder's pages have the recipient pages' CSP; a form with files also connects to us. */
const PAGE = { connectsToSelf: true };

/** An address the code may go to: the API's bound (254 characters). */
const MAX_EMAIL = 254;

/** What is wrong with the address typed for a code, if anything (the API's rules). */
const codeEmailProblem = (email: string): string | undefined =>
  !email
    ? t('respond.problem.emailMissing')
    : email.length > MAX_EMAIL
      ? t('respond.problem.emailTooLong', { max: MAX_EMAIL })
      : undefined;

/** A signed-in person's form carries their session's token. */
const csrfCheck =
  (sessions: WebSessions | undefined): RequestHandler =>
  (req, res, next) => {
    const caller = webCallerOf(res);
    if (caller.kind === 'signed-in' && !sessions!.csrfMatches(req, caller.session)) {
      return next(new HttpError(403, 'forbidden', 'This form is out of date. Please reload the page.'));
    }
    next();
  };

/** The answer form's fields as the port's answer. */
function answerOf(body: unknown): AnswerInput {
  const get = (name: string) => formField(body, name) || undefined;
  const payload = formField(body, 'payload');
  return {
    ...(payload ? { payload } : {}),
    ...(get('passphrase') ? { passphrase: get('passphrase')! } : {}),
    ...(get('email') ? { email: get('email')!.trim() } : {}),
    ...(get('code') ? { code: get('code')!.trim() } : {}),
  };
}

/**
 * `/respond/:token` (issue 28), built like the recipient pages: `GET` shows the request and the
 * answer form without spending anything (audited `link_opened`); `POST` answers it through the
 * requests domain service and redirects to `/respond/:token/done` (Post/Redirect/Get). An
 * answered request is a 409 page, a closed or unknown one the same 404 page. Plain HTML, no
 * inline script, works without JavaScript; where the request takes files, the form is multipart
 * (the API's upload pipeline and limits) and `/static/respond-form.js` shows the upload's
 * progress. The requester's files download from `/respond/:token/files/:id`; where only listed
 * addresses may answer, `POST /respond/:token/code` sends the one-time code. The answers take the
 * API's answer limits, the page's GET the retrieve limit. Never under `/r/` (a legacy redirect).
 */
export function respondPagesRoutes(deps: RespondPagesDeps): Router {
  const { requests, sessions } = deps;
  const router = Router();
  const load: RequestHandler[] = sessions ? [sessions.load] : [];
  const readForm = express.urlencoded({ extended: false, limit: '160kb', parameterLimit: 20 });
  const answerLimit = deps.answerLimit ?? deps.rateLimit;

  /** The header, or undefined when the session cannot be read (a 503 page then). */
  const headerFor = (res: Response): WebHeader | undefined => headerOf(res, sessions !== undefined);

  /** Who may not answer here at all: anonymous where anonymous access is off. */
  const mayVisit = (res: Response): boolean => deps.anonymousAccess || webCallerOf(res).kind === 'signed-in';

  const csrfOf = (res: Response): string | undefined => {
    const caller = webCallerOf(res);
    return caller.kind === 'signed-in' ? caller.session.csrf : undefined;
  };

  async function showForm(
    req: Request,
    res: Response,
    status: number,
    extra: { values?: AnswerValues; errors?: FieldErrors; codeSent?: boolean } = {},
  ) {
    const header = headerFor(res)!;
    const request = await requests.open(token(req), auditContext(req));
    if (request.answerableBy === 'users' && webCallerOf(res).kind !== 'signed-in') {
      return sendPage(res, 401, signInToAnswerPage(sessions !== undefined, header));
    }
    const csrf = csrfOf(res);
    sendPage(
      res,
      status,
      respondPage({
        token: token(req),
        request,
        header,
        files: request.fileAnswers && deps.uploads !== undefined,
        downloads: requests.download !== undefined,
        ...(csrf ? { csrf } : {}),
        ...extra,
      }),
    );
  }

  /** Setting the headers, the session check and the anonymous-access rule, before anything else. */
  const visit: RequestHandler = (req, res, next) => {
    setPageHeaders(res, PAGE);
    const header = headerFor(res);
    if (!header) {
      const why = t('respond.unavailable.text');
      return sendPage(res, 503, errorPage(t('respond.unavailable.title'), why));
    }
    if (!mayVisit(res)) return sendPage(res, 401, signInToAnswerPage(sessions !== undefined, header));
    next();
  };

  router.get(RESPOND_FORM_SCRIPT, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('js').send(RESPOND_FORM_JS);
  });

  router.get('/respond/:url_token', deps.rateLimit, ...load, visit, async (req, res) => {
    await showForm(req, res, 200);
  });

  router.get('/respond/:url_token/done', ...load, visit, (_req, res) => {
    sendPage(res, 200, answeredPage(headerFor(res)));
  });

  respondDownloadRoute(router, [deps.rateLimit, ...load, visit], {
    requests,
    logger: deps.logger,
    signInEnabled: sessions !== undefined,
    tokenOf: token,
  });

  const csrfChecked = csrfCheck(sessions);

  const answer: RequestHandler = async (req, res) => {
    const files = deps.uploads ? storedAnswerFiles(res) : undefined;
    const actor = webActor(webCallerOf(res));
    await requests.respond(token(req), actor, answerOf(req.body), auditContext(req), files);
    res.redirect(303, `/respond/${token(req)}/done`);
  };

  const checks = [sameOriginPosts(deps.publicUrl), answerLimit, ...load, visit];
  if (deps.uploads) {
    const steps = respondUploadSteps(deps.uploads, token, sessions);
    router.post(
      '/respond/:url_token',
      ...checks,
      onlyMultipart,
      ...steps.read,
      csrfChecked,
      answer,
      steps.discard,
    );
    // Any other body: the checks above were passed (and the limits taken) once, in that route.
    router.post('/respond/:url_token', readForm, csrfChecked, answer);
  } else {
    router.post('/respond/:url_token', ...checks, readForm, csrfChecked, answer);
  }

  if (requests.sendCode) {
    const sendCode = requests.sendCode;
    const codeChecks = [sameOriginPosts(deps.publicUrl), deps.codeLimit ?? answerLimit, ...load, visit];
    router.post('/respond/:url_token/code', ...codeChecks, readForm, csrfChecked, async (req, res) => {
      const email = formField(req.body, 'email')?.trim() ?? '';
      const problem = codeEmailProblem(email);
      if (problem) return showForm(req, res, 422, { values: { email }, errors: { 'code-email': [problem] } });
      await sendCode(token(req), email, auditContext(req));
      await showForm(req, res, 200, { values: { email }, codeSent: true });
    });
  }

  router.use('/respond', answerProblems(showForm, headerFor, sessions !== undefined));
  router.use('/respond', pageErrors(deps.logger, 'the responder page'));
  return router;
}

/** The problem of an answer next to its field, by the API's code. */
const FIELD_OF_CODE: Record<string, string> = {
  passphrase_required: 'passphrase',
  code_required: 'code',
  rate_limited: 'response',
};

/** The problem of a refused answer, by the API's code, in the page's language. */
function codeProblem(code: string): string {
  switch (code) {
    case 'passphrase_required':
      return t('respond.problem.passphrase');
    case 'code_required':
      return t('respond.problem.code');
    default:
      return t('respond.problem.tooManyAttempts');
  }
}

/**
 * A refused answer as a page: its form again with the problem (422, a wrong passphrase 401, a
 * code 403, too many attempts 429: what was typed kept, never the passphrase); answered 409;
 * closed or unknown 404; users only 401 with sign-in.
 */
function answerProblems(
  showForm: (
    req: Request,
    res: Response,
    status: number,
    extra: { values?: AnswerValues; errors?: FieldErrors },
  ) => Promise<void>,
  headerFor: (res: Response) => WebHeader | undefined,
  signInEnabled: boolean,
): express.ErrorRequestHandler {
  return (err, req, res, next) => {
    const mapped = toHttpError(err);
    if (!(mapped instanceof HttpError)) return next(err);
    const header = headerFor(res);
    const code: string = mapped.code;
    setPageHeaders(res, PAGE);
    if (code === 'not_found') return sendPage(res, 404, requestGonePage(header));
    if (code === 'already_answered') return sendPage(res, 409, alreadyAnsweredPage(header));
    if (code === 'unauthorized') return sendPage(res, 401, signInToAnswerPage(signInEnabled, header));
    const field = FIELD_OF_CODE[code];
    if (req.method !== 'POST' || (mapped.status !== 422 && mapped.status !== 413 && !field)) return next(err);
    res.set(mapped.options.headers ?? {});
    const body = req.body as unknown;
    const values: AnswerValues = {
      ...(formField(body, 'payload') ? { payload: formField(body, 'payload')! } : {}),
      ...(formField(body, 'email') ? { email: formField(body, 'email')! } : {}),
    };
    const errors: FieldErrors = field
      ? { [field]: [codeProblem(code)] }
      : pageProblems(mapped.options.fields ?? { response: [mapped.message] }, [t('respond.problem.noFiles')]);
    showForm(req, res, mapped.status, { values, errors }).catch(next);
  };
}
