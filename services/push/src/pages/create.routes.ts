import express, { type RequestHandler, type Response, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import { t } from '@secret-push/i18n';
import type { Logger } from '@secret-push/logger';
import { DEFAULT_WEB_FORM, type WebFormPresets } from '../config/web-form';
import type { CreateFeatures } from '../domain/create-policy';
import { newIdempotencyKey } from '../domain/idempotency';
import type { FileService } from '../domain/file-service';
import type { PushService } from '../domain/push-service';
import { type CreateRules, MAX_TEXT_PAYLOAD } from '../http/push.schemas';
import { onlyMultipart } from '../http/request-body';
import { type WebSessions, webCallerOf } from '../session/web-session';
import type { UploadForm } from '../uploads/form';
import type { UploadPipeline } from '../uploads/pipeline';
import { DROP_JS, DROP_SCRIPT } from './create-form.drop.script';
import { GENERATOR_SCRIPT } from './create-form.generator';
import { GENERATOR_JS } from './create-form.generator.script';
import { PRESETS_JS, PRESETS_SCRIPT } from './create-form.presets.script';
import { csrfRefusedMessage, FORM_PAGE, formVisitor } from './create-form.visitor';
import { CREATED_PATH, formSubmission } from './create.submit';
import { showCreated } from './created.routes';
import { createFormPage } from './create.views';
import { pageRefusal, sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import type { WebEmail } from './email-pages';
import { errorPage } from './views';
import { headerOf } from './web-header';

export interface CreatePagesDeps {
  pushes: PushService;
  publicUrl: string;
  rules: CreateRules;
  features: CreateFeatures;
  /** The form's expiry presets (PUSH_WEB_*); absent: the defaults of those variables. */
  webForm?: WebFormPresets;
  /** The API's create limit, shared: the form and the API spend the same budget. */
  rateLimit: RequestHandler;
  logger: Logger;
  /** Sessions of signed-in people: absent when the instance has no sign-in. */
  sessions?: WebSessions;
  /** File pushes: the file service and the API's upload pipeline; absent without an object store. */
  files?: { service: FileService; uploads: UploadPipeline };
  /** Email (the link to recipients, owner notices): absent where the instance sends none. */
  email?: WebEmail;
}

/** The form's own scripts (progressive enhancement; also the request form's presets). */
function serveScripts(router: Router): void {
  const scripts: [string, string][] = [
    [PRESETS_SCRIPT, PRESETS_JS],
    [GENERATOR_SCRIPT, GENERATOR_JS],
    [DROP_SCRIPT, DROP_JS],
  ];
  for (const [path, js] of scripts) {
    router.get(path, (_req, res) => {
      res.set('Cache-Control', 'public, max-age=3600').type('js').send(js);
    });
  }
}

/** The form's file input: its parts are the push's files. */
const FILES_FIELD = 'files';

/**
 * The web app's create form: `GET /` shows it, `POST /` creates the push through the same rules
 * and domain service as `POST /api/v2/pushes` (the body is read into the API's `{push: …}` shape
 * and parsed by the API's schema) under the form's Idempotency-Key, and redirects to `/created`,
 * the page with the link (Post/Redirect/Get: a reload or a resubmission creates nothing). A
 * refused create shows the form again with the problems and what was typed (the passphrase
 * included, and flagged; never the files).
 *
 * Files: where the instance has an object store and this visitor may create file pushes (the
 * create policy: files may need sign-in), the form offers "Files" and is sent as
 * `multipart/form-data`, read by the API's streaming upload pipeline (uploads/pipeline.ts): each
 * file goes encrypted into the object store as it arrives, never whole into memory. A signed-in
 * person's form carries the session's CSRF token as its first field, and it must arrive before
 * the first file: a file part that comes before a matching token is refused (403) before any of
 * its bytes are stored.
 */
export function createPagesRoutes(deps: CreatePagesDeps): Router {
  const router = Router();
  const { sessions } = deps;
  const presets = deps.webForm ?? DEFAULT_WEB_FORM;
  const visitor = formVisitor({
    rules: deps.rules,
    features: deps.features,
    presets,
    ...(sessions ? { sessions } : {}),
    ...(deps.files ? { fileLimits: deps.files.uploads.limits } : {}),
    ...(deps.email ? { email: deps.email } : {}),
  });
  const { signInEnabled, kindsFor, rulesFor, fullRulesFor, noticeFor, csrfOf, csrfRefused } = visitor;
  const { createFromForm, createWithUploads, formProblems } = formSubmission({ ...deps, presets }, visitor);
  const load: RequestHandler[] = sessions ? [sessions.load] : [];
  const unavailable = (res: Response) =>
    sendPage(res, 503, errorPage(t('create.unavailable.title'), t('create.unavailable.text')));

  router.get('/', ...load, async (req, res) => {
    setPageHeaders(res, FORM_PAGE);
    const header = headerOf(res, signInEnabled);
    if (!header) return unavailable(res);
    const caller = webCallerOf(res);
    const notice = noticeFor(caller);
    const csrf = csrfOf(caller);
    sendPage(
      res,
      200,
      createFormPage({
        rules: notice ? rulesFor(caller) : await fullRulesFor(caller),
        header,
        values: { idempotencyKey: newIdempotencyKey() },
        ...(notice ? { notice } : {}),
        ...(csrf ? { csrf } : {}),
      }),
    );
  });

  router.get(CREATED_PATH, ...load, showCreated(deps, signInEnabled));
  serveScripts(router);

  /** Before the body is read: a session that cannot be read, or a visitor who may not create. */
  const mayUseForm: RequestHandler = (req, res, next) => {
    setPageHeaders(res, FORM_PAGE);
    const header = headerOf(res, signInEnabled);
    if (!header) return unavailable(res);
    const caller = webCallerOf(res);
    const notice = noticeFor(caller);
    if (notice) return sendPage(res, 403, createFormPage({ rules: rulesFor(caller), header, notice }));
    next();
  };

  const readForm = express.urlencoded({
    extended: false,
    // The largest text payload, URL-encoded (up to 9 bytes per character), and the other fields.
    limit: MAX_TEXT_PAYLOAD * 9 + 16 * 1024,
    parameterLimit: 30,
  });
  /** The form's shape for the upload pipeline, and who may store files through it. */
  const uploadForm: UploadForm = {
    fileFields: [FILES_FIELD],
    payloadField: 'payload',
    admitFiles(req, res) {
      if (!kindsFor(webCallerOf(res)).includes('file')) {
        return pageRefusal(t('create.refused.files'));
      }
      if (csrfRefused(req, res)) return pageRefusal(csrfRefusedMessage());
      return undefined;
    },
  };
  /** Without an object store, the form takes no files. */
  const noFiles: RequestHandler = (req, _res, next) =>
    next(
      req.is('multipart/form-data')
        ? new HttpError(415, 'unsupported_media_type', 'This instance does not take files.')
        : undefined,
    );

  const checks = [sameOriginPosts(deps.publicUrl), deps.rateLimit, ...load, mayUseForm];
  if (deps.files) {
    // A multipart form (the one that offers Files) takes the upload step; any other, no file step.
    const readUpload = deps.files.uploads.parser(uploadForm);
    const withUploads = createWithUploads(deps.files.service);
    router.post('/', ...checks, onlyMultipart, readUpload, withUploads, formProblems);
    router.post('/', readForm, createFromForm, formProblems);
  } else {
    router.post('/', ...checks, noFiles, readForm, createFromForm, formProblems);
  }
  router.use(pageErrors(deps.logger, 'the create form'));
  return router;
}
