import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import type { Logger } from '@secret-push/logger';
import { auditContext } from '../http/audit-context';
import { toHttpError } from '../http/error-map';
import { type WebSessions, webActor, webCallerOf } from '../session/web-session';
import type { FieldErrors } from './form-parts.views';
import { formField, sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import type { AnswerInput, RequestPages } from './request-pages.port';
import {
  type AnswerValues,
  alreadyAnsweredPage,
  answeredPage,
  requestGonePage,
  respondPage,
  signInToAnswerPage,
} from './respond.views';
import { errorPage } from './views';
import { type WebHeader, headerOf } from './web-header';

export interface RespondPagesDeps {
  requests: RequestPages;
  publicUrl: string;
  logger: Logger;
  /** The answer limit of the API, shared (per IP): the pages and the API spend the same budget. */
  rateLimit: RequestHandler;
  /** Anonymous visitors may answer (`features.anonymous_access`); else only people signed in. */
  anonymousAccess: boolean;
  sessions?: WebSessions;
  /**
   * A multipart answer (files): the upload step that reads the form into `req.body` and stores
   * the files, and the respond that attaches them; absent: the page takes text only.
   */
  uploads?: { parser: RequestHandler; respond: RequestHandler };
}

/**
 * The request's url_token, from the path: also in the error steps, where Express no longer has
 * the route's params (`router.use` layers have their own).
 */
const token = (req: Request) =>
  typeof req.params.token === 'string'
    ? req.params.token
    : decodeURIComponent(/^\/respond\/([^/?]+)/.exec(req.originalUrl)?.[1] ?? '');

/** The responder's pages have the recipient pages' CSP; a form with files also connects to us. */
const PAGE = { connectsToSelf: true };

/**
 * `/respond/:token` (issue 28), built like the recipient pages: `GET` shows the request and the
 * answer form without spending anything (audited `link_opened`); `POST` answers it through the
 * requests domain service and redirects to `/respond/:token/done` (Post/Redirect/Get). An
 * answered request is a 409 page, a closed or unknown one the same 404 page. Plain HTML, no
 * inline script, works without JavaScript; where the request takes files, the form is multipart
 * and `/static/create-form.js` shows the upload's progress. Never under `/r/` (a legacy redirect).
 */
export function respondPagesRoutes(deps: RespondPagesDeps): Router {
  const { requests, sessions } = deps;
  const router = Router();
  const load: RequestHandler[] = sessions ? [sessions.load] : [];
  const readForm = express.urlencoded({ extended: false, limit: '160kb', parameterLimit: 20 });

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
      const why = 'Your session cannot be read right now. Please try again in a moment.';
      return sendPage(res, 503, errorPage('Temporarily unavailable', why));
    }
    if (!mayVisit(res)) return sendPage(res, 401, signInToAnswerPage(sessions !== undefined, header));
    next();
  };

  router.get('/respond/:token', deps.rateLimit, ...load, visit, async (req, res) => {
    await showForm(req, res, 200);
  });

  router.get('/respond/:token/done', ...load, visit, (_req, res) => {
    sendPage(res, 200, answeredPage(headerFor(res)));
  });

  /** A signed-in person's form carries their session's token. */
  const csrfChecked: RequestHandler = (req, res, next) => {
    const caller = webCallerOf(res);
    if (caller.kind === 'signed-in' && !sessions!.csrfMatches(req, caller.session)) {
      return next(new HttpError(403, 'forbidden', 'This form is out of date. Please reload the page.'));
    }
    next();
  };

  const answerOf = (body: unknown): AnswerInput => {
    const get = (name: string) => formField(body, name) || undefined;
    const payload = formField(body, 'payload');
    return {
      ...(payload ? { payload } : {}),
      ...(get('passphrase') ? { passphrase: get('passphrase')! } : {}),
      ...(get('email') ? { email: get('email')!.trim() } : {}),
      ...(get('code') ? { code: get('code')!.trim() } : {}),
    };
  };

  const answer: RequestHandler = async (req, res) => {
    await requests.respond(token(req), webActor(webCallerOf(res)), answerOf(req.body), auditContext(req));
    res.redirect(303, `/respond/${token(req)}/done`);
  };

  const checks = [sameOriginPosts(deps.publicUrl), deps.rateLimit, ...load, visit];
  if (deps.uploads) {
    const multipart: RequestHandler = (req, _res, next) =>
      next(req.is('multipart/form-data') ? undefined : 'route');
    router.post(
      '/respond/:token',
      ...checks,
      multipart,
      deps.uploads.parser,
      csrfChecked,
      deps.uploads.respond,
    );
  }
  router.post('/respond/:token', ...checks, readForm, csrfChecked, answer);

  if (requests.sendCode) {
    const sendCode = requests.sendCode;
    router.post('/respond/:token/code', ...checks, readForm, csrfChecked, async (req, res) => {
      const email = formField(req.body, 'email')?.trim() ?? '';
      if (email) await sendCode(token(req), email, auditContext(req));
      const errors: FieldErrors = email ? {} : { 'code-email': ['Type your email address.'] };
      await showForm(req, res, email ? 202 : 422, { values: { email }, errors, codeSent: !!email });
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
      ? { [field]: [mapped.message] }
      : { ...(mapped.options.fields ?? { response: [mapped.message] }) };
    showForm(req, res, mapped.status, { values, errors }).catch(next);
  };
}
