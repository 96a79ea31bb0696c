import { type ErrorRequestHandler, type RequestHandler, type Response, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import type { Logger } from '@secret-push/logger';
import type { FileService } from '../domain/file-service';
import type { PreparedFiles } from '../domain/push-create';
import type { RequestFiles } from '../domain/request-files';
import { discardStored } from '../uploads/cleanup';
import type { UploadPipeline } from '../uploads/pipeline';
import { storedKeys, uploadsOf } from '../uploads/upload-state';
import { mayAnswer } from '../domain/request';
import type { StoredRequest } from '../domain/ports/request-store';
import { auditContext } from './audit-context';
import { need } from './context-guard';
import { sendDownload } from './send-download';
import { authenticationRequired } from './bearer-auth';
import { responderOf } from './principal';
import { requestCreateForm, respondForm } from './request-upload-forms';

export interface RequestFileRouteDeps {
  requestFiles: RequestFiles;
  /** The responder's lookup: unknown, closed or past its window → RequestNotFound; answered → RequestAlreadyAnswered. */
  findForResponder(urlToken: string): Promise<StoredRequest>;
  rateLimit: RequestHandler;
  logger: Logger;
}

/** Files in the request routes (http/request.routes.ts): absent without an object store. */
export interface RequestUploadDeps {
  files: FileService;
  /** The upload pipeline with the request limits (PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES). */
  uploads: UploadPipeline;
  findForResponder(urlToken: string): Promise<StoredRequest>;
}

/** The steps the request routes put where a multipart body is read, and their clean-up. */
export interface RequestUploadSteps {
  /** `POST /requests`: a multipart body's fields, and its `request[files][]` streamed to the store. */
  create: RequestHandler[];
  /** `POST|PATCH /requests/:t/respond`: the request looked up first (404, 409, files allowed?), then the body. */
  respond: RequestHandler[];
  /** What the upload step stored (undefined when the body was not multipart or carried no file). */
  storedFiles(res: Response): PreparedFiles | undefined;
  /** After any failure, the files stored for this request are deleted before it is answered. */
  discard: ErrorRequestHandler;
}

/**
 * The upload steps of requests: the same streaming, encrypting pipeline as a file push's create
 * (uploads/pipeline.ts), with the request's own forms and limits. Anything that fails after files
 * were stored (a refused field, a wrong passphrase, a second answer: 409) deletes them, as a
 * refused push create does.
 */
export function requestUploadSteps(deps: RequestUploadDeps): RequestUploadSteps {
  const loadRespondTarget: RequestHandler = async (req, res, next) => {
    if (!req.is('multipart/form-data')) return next();
    const found = await deps.findForResponder(String(req.params.url_token));
    res.locals.respondTarget = { responseFileAttachments: found.request.responseFileAttachments };
    next();
  };
  return {
    create: [deps.uploads.parser(requestCreateForm)],
    respond: [loadRespondTarget, deps.uploads.parser(respondForm((res) => need(res, 'respondTarget')))],
    storedFiles: (res) =>
      res.locals.uploads && res.locals.uploads.stored.length > 0 ? uploadsOf(res) : undefined,
    discard: async (err, _req, res, next) => {
      await discardStored(deps.files, storedKeys(res), err);
      next(err);
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `GET /requests/:url_token/files/:file_id`: the responder downloads an attachment of the
 * requester, under the rules of the responder's view (anonymous while the instance allows it, a
 * person for a request answerable by `users`), at most `attachment_downloads` times (410 `gone`
 * after). Served like a push's download (file.routes.ts): octet-stream, attachment, a sandbox CSP.
 */
export function requestFileRoutes(deps: RequestFileRouteDeps): Router {
  const router = Router();
  router.get('/requests/:url_token/files/:file_id', deps.rateLimit, async (req, res) => {
    const found = await deps.findForResponder(String(req.params.url_token));
    const principal = need(res, 'principal');
    // The person gate of `users`; `emails` requests show their files to the link, like their view.
    if (found.request.answerableBy === 'users') {
      const decision = mayAnswer(found.request, responderOf(principal));
      if (!decision.ok) {
        throw decision.reason === 'user_required'
          ? authenticationRequired('This request can be answered only by a signed-in user.')
          : new HttpError(403, 'forbidden', 'This request can be answered only by a person, not a client.');
      }
    }
    const fileId = String(req.params.file_id);
    const notFound = new HttpError(404, 'not_found', 'File not found.');
    if (!UUID.test(fileId)) throw notFound;
    const opened = await deps.requestFiles.openAttachment(
      { id: found.request.id, keyId: found.secrets.keyId },
      fileId,
      auditContext(req),
    );
    if (opened.outcome === 'spent') {
      throw new HttpError(410, 'gone', 'This file was downloaded as many times as the request allows.');
    }
    if (opened.outcome !== 'opened') throw notFound;
    await sendDownload(res, opened, deps.logger, 'request file download');
  });
  return router;
}
