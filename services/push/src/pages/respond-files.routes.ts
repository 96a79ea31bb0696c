import type { ErrorRequestHandler, Request, RequestHandler, Response, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import { t } from '@secret-push/i18n';
import type { Logger } from '@secret-push/logger';
import { AnswerNotAllowed } from '../domain/errors';
import type { FileService } from '../domain/file-service';
import type { PreparedFiles } from '../domain/push-create';
import type { StoredRequest } from '../domain/ports/request-store';
import { auditContext } from '../http/audit-context';
import { need } from '../http/context-guard';
import { sendDownload } from '../http/send-download';
import { type WebSessions, webActor, webCallerOf } from '../session/web-session';
import { discardStored } from '../uploads/cleanup';
import type { UploadForm } from '../uploads/form';
import type { UploadPipeline } from '../uploads/pipeline';
import { storedKeys, uploadsOf } from '../uploads/upload-state';
import { sendPage } from './page-security';
import type { RequestPages } from './request-pages.port';
import { attachmentGonePage } from './respond.views';
import { headerOf } from './web-header';

/** The responder's file answers: the request uploads (the API's pipeline, limits and clean-up). */
export interface RespondUploads {
  /** The upload pipeline under the request limits (server-requests.ts). */
  pipeline: UploadPipeline;
  files: FileService;
  /** The responder's lookup: unknown or closed → not found; answered → already answered. */
  findForResponder(urlToken: string): Promise<StoredRequest>;
}

/** The page form's file input (`files`) and answer (`payload`). */
const FILES_FIELD = 'files';

/** What a multipart answer stored (undefined when it carried no file). */
export const storedAnswerFiles = (res: Response): PreparedFiles | undefined =>
  res.locals.uploads && res.locals.uploads.stored.length > 0 ? uploadsOf(res) : undefined;

/**
 * The steps of a multipart answer before the answer itself: the request is looked up first (404,
 * 409, signed-in users only: 401 before any byte is read), then the form is read with its files
 * streamed, encrypted, into the object store, each admitted only when the request takes files and
 * a signed-in person's CSRF token came first. `discard` deletes what was stored when anything
 * after fails (a refused field, a passphrase, a code, a second answer), as the API's respond does.
 */
export function respondUploadSteps(
  uploads: RespondUploads,
  tokenOf: (req: Request) => string,
  sessions: WebSessions | undefined,
): { read: RequestHandler[]; discard: ErrorRequestHandler } {
  const loadTarget: RequestHandler = async (req, res, next) => {
    const found = await uploads.findForResponder(tokenOf(req));
    if (found.request.answerableBy === 'users' && webCallerOf(res).kind !== 'signed-in') {
      throw new AnswerNotAllowed('user_required');
    }
    res.locals.respondTarget = { responseFileAttachments: found.request.responseFileAttachments };
    next();
  };
  const form: UploadForm = {
    fileFields: [FILES_FIELD],
    payloadField: 'payload',
    filesPer: 'answer',
    admitFiles(req, res) {
      if (!need(res, 'respondTarget').responseFileAttachments) {
        return HttpError.validation({ files: [t('respond.problem.noFiles')] });
      }
      const caller = webCallerOf(res);
      if (caller.kind === 'signed-in' && !sessions!.csrfMatches(req, caller.session)) {
        return new HttpError(403, 'forbidden', 'This form is out of date. Please reload the page.');
      }
      return undefined;
    },
  };
  return {
    read: [loadTarget, uploads.pipeline.parser(form)],
    discard: async (err, _req, res, next) => {
      await discardStored(uploads.files, storedKeys(res), err);
      next(err);
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `GET /respond/:url_token/files/:file_id`: a file the requester attached, downloaded from the
 * responder's page through the same domain service as the API's `GET /requests/:t/files/:id`
 * (counted, audited `attachment_download`, at most the request's number of downloads: then a 410
 * page). Served like a push's download: octet-stream, attachment, a sandbox CSP.
 */
export function respondDownloadRoute(
  router: Router,
  steps: RequestHandler[],
  deps: { requests: RequestPages; logger: Logger; signInEnabled: boolean; tokenOf: (req: Request) => string },
): void {
  const download = deps.requests.download;
  if (!download) return;
  router.get('/respond/:url_token/files/:file_id', ...steps, async (req, res) => {
    const fileId = String(req.params.file_id);
    const opened = UUID.test(fileId)
      ? await download(deps.tokenOf(req), fileId, webActor(webCallerOf(res)), auditContext(req))
      : ({ outcome: 'unavailable' } as const);
    if (opened.outcome !== 'opened') {
      const spent = opened.outcome === 'spent';
      return sendPage(res, spent ? 410 : 404, attachmentGonePage(spent, headerOf(res, deps.signInEnabled)));
    }
    await sendDownload(res, opened, deps.logger, 'request file download');
  });
}
