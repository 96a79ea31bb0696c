import type { EmailLocale } from '../domain/email-rules';
import { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from 'express';
import multer from 'multer';
import { HttpError } from '@secret-push/http-kit';
import { mayCreateRequest } from '../domain/create-policy';
import { REQUEST_LISTS, type RequestList } from '../domain/request';
import type { RequestService } from '../domain/request-service';
import { auditContext } from './audit-context';
import { requireScope, scopedPrincipal, tokensOnlyInHeader } from './bearer-auth';
import { need } from './context-guard';
import { createRefusal } from './error-map';
import { actorOf, responderOf } from './principal';
import { type CreateRules, MAX_BODY_BYTES, parsePage } from './push.schemas';
import { setPageLinks } from './push.routes';
import { allLimits } from './rate-limits';
import {
  type AnswerLimitsView,
  presentAnswered,
  presentRequest,
  presentRequestAuditEntry,
  presentResponderView,
} from './request.presenter';
import { type RequestCreateContext, parseRequestCreate, parseResponse } from './request.schemas';
import { acceptFormOrJson, readBody } from './request-body';
import type { RequestUploadSteps } from './request-files.routes';

export interface RequestRoutesDeps {
  requests: RequestService;
  /** The requester's language for the request's emails when the create names none (app.ts). */
  senderLanguage?: (req: Request) => EmailLocale | null;
  publicUrl: string;
  rules: CreateRules;
  context: RequestCreateContext;
  limits: AnswerLimitsView;
  rateLimits: {
    create: RequestHandler;
    lookup: RequestHandler;
    /** Answers per client, user or IP (PUSH_RATE_LIMIT_ANSWERS_PER_MINUTE). */
    answer: RequestHandler;
    /** Answers per request (PUSH_RATE_LIMIT_ANSWERS_PER_REQUEST_PER_MINUTE). */
    answerPerRequest: RequestHandler;
  };
  /** Files in requests (http/request-files.routes.ts): absent without an object store (a file part → 422). */
  uploads?: RequestUploadSteps;
}

const urlToken = (req: Request) => String(req.params.url_token);

/**
 * A multipart body's fields (`request[…]`, `response[…]`); a file part is refused (422) until
 * requests take files. Fields are bounded like a create's.
 */
const fieldsOnly = multer({
  limits: { fieldSize: MAX_BODY_BYTES, fields: 200, files: 0, parts: 200 },
}).none();

const readMultipartFields: RequestHandler = (req, res, next) => {
  fieldsOnly(req, res, (err: unknown) => {
    if (!err) return next();
    const code = (err as { code?: string }).code;
    if (code === 'LIMIT_UNEXPECTED_FILE' || code === 'LIMIT_FILE_COUNT') {
      return next(
        HttpError.validation({ files: ['Files cannot be attached: this instance stores no files.'] }),
      );
    }
    if (code?.startsWith('LIMIT_')) {
      return next(new HttpError(413, 'payload_too_large', 'The form is too large.'));
    }
    next(new HttpError(400, 'bad_request', 'The multipart body could not be read.'));
  });
};

/** JSON, urlencoded, or multipart (its fields only, or with the upload steps that take its files). */
function readAnyBody(multipart: RequestHandler[] = [readMultipartFields]): RequestHandler[] {
  const onlyMultipart =
    (step: RequestHandler): RequestHandler =>
    (req, res, next) =>
      req.is('multipart/form-data') ? step(req, res, next) : next();
  return [
    (req, res, next) => (req.is('multipart/form-data') ? next() : acceptFormOrJson(req, res, next)),
    ...multipart.map(onlyMultipart),
    ...readBody,
    tokensOnlyInHeader,
  ];
}

/** The requests API (docs/api.md, Requests): the owner's create, reads and close; the responder's view and answer. */
export function requestRoutes(deps: RequestRoutesDeps): Router {
  const { requests, publicUrl } = deps;
  const router = Router();

  const mayCreate: RequestHandler = (_req, res, next) => {
    const decision = mayCreateRequest(actorOf(need(res, 'principal')));
    next(decision.ok ? undefined : createRefusal(decision));
  };
  const { uploads } = deps;
  const discard: ErrorRequestHandler[] = uploads ? [uploads.discard] : [];
  const create = async (req: Request, res: Response) => {
    const attachments = uploads?.storedFiles(res);
    const input = parseRequestCreate(req.body, deps.rules, {
      ...deps.context,
      withAttachments: attachments !== undefined,
    });
    const principal = scopedPrincipal(res);
    const created = await requests.create(input, {
      owner: principal.id,
      requestorEmail: principal.kind === 'user' && principal.emailVerified ? principal.email : null,
      audit: auditContext(req),
      attachments,
      senderLocale: deps.senderLanguage?.(req) ?? null,
    });
    res.status(201).json(presentRequest(created, publicUrl));
  };
  router.post(
    '/requests',
    mayCreate,
    deps.rateLimits.create,
    ...readAnyBody(uploads?.create),
    create,
    ...discard,
  );

  const list =
    (which: RequestList): RequestHandler =>
    async (req, res) => {
      const page = parsePage(req.query.page);
      const items = await requests.list(scopedPrincipal(res).id, which, page);
      setPageLinks(req, res, publicUrl, page, items.length);
      res.json(items.map((i) => presentRequest(i, publicUrl)));
    };
  router.get('/requests', requireScope('pushes:read'), list('active'));
  for (const which of REQUEST_LISTS) {
    router.get(`/requests/${which}`, requireScope('pushes:read'), list(which));
  }

  router.get(
    '/requests/:url_token/preview',
    requireScope('pushes:read'),
    deps.rateLimits.lookup,
    async (req, res) => {
      const owned = await requests.view(urlToken(req), scopedPrincipal(res).id);
      res.json({ url: presentRequest(owned, publicUrl).html_url });
    },
  );
  router.get(
    '/requests/:url_token/audit',
    requireScope('pushes:read'),
    deps.rateLimits.lookup,
    async (req, res) => {
      const page = parsePage(req.query.page);
      const { entries, dropped } = await requests.auditLog(urlToken(req), scopedPrincipal(res).id, page);
      setPageLinks(req, res, publicUrl, page, entries.length);
      res.json({ logs: entries.map(presentRequestAuditEntry), dropped });
    },
  );

  // ---- the responder (no scope: anyone with the link, as anonymous access allows)
  router.get('/requests/:url_token/respond', deps.rateLimits.answer, async (req, res) => {
    const view = await requests.responderView(urlToken(req), auditContext(req));
    res.json(presentResponderView(view, deps.limits));
  });
  const answer = async (req: Request, res: Response) => {
    const files = uploads?.storedFiles(res);
    const parsed = parseResponse(req.body, files !== undefined);
    const answered = await requests.respond(
      urlToken(req),
      parsed.answer,
      responderOf(need(res, 'principal')),
      parsed.passphrase,
      auditContext(req),
      { files, proof: { email: parsed.email, code: parsed.code } },
    );
    res.status(201).json(presentAnswered(answered));
  };
  const answerChain = [
    // Both answer limits at once: a frozen Redis costs one command deadline (fault suite).
    allLimits(deps.rateLimits.answer, deps.rateLimits.answerPerRequest),
    ...readAnyBody(uploads?.respond),
    answer,
    ...discard,
  ];
  router.post('/requests/:url_token/respond', ...answerChain);
  router.patch('/requests/:url_token/respond', ...answerChain);

  router.get(
    '/requests/:url_token',
    requireScope('pushes:read'),
    deps.rateLimits.lookup,
    async (req, res) => {
      res.json(presentRequest(await requests.view(urlToken(req), scopedPrincipal(res).id), publicUrl));
    },
  );
  router.delete(
    '/requests/:url_token',
    requireScope('pushes:write'),
    deps.rateLimits.lookup,
    async (req, res) => {
      const closed = await requests.close(urlToken(req), scopedPrincipal(res).id, auditContext(req));
      res.json(presentRequest(closed, publicUrl));
    },
  );
  return router;
}
