import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  Router,
} from 'express';
import { HttpError } from '@secret-push/http-kit';
import type { Logger } from '@secret-push/logger';
import { type CreateFeatures, mayCreate, ownerOf } from '../domain/create-policy';
import type { FileService } from '../domain/file-service';
import type { PushKind } from '../domain/push';
import type { PreparedFiles, PushService } from '../domain/push-service';
import { auditContext } from '../http/audit-context';
import { toHttpError } from '../http/error-map';
import { onlyMultipart } from '../http/request-body';
import { htmlUrl } from '../http/push.presenter';
import { type CreateRules, MAX_TEXT_PAYLOAD, parseCreateBody } from '../http/push.schemas';

import { type FormRules, type FormValues, createFormPage, createdPage } from './create.views';
import { headerOf } from './web-header';
import { type WebCaller, type WebSessions, webActor, webCallerOf } from '../session/web-session';
import { discardStored } from '../uploads/cleanup';
import type { UploadForm } from '../uploads/form';
import type { UploadPipeline } from '../uploads/pipeline';
import { uploadsOf } from '../uploads/upload-state';
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
  /** File pushes: the file service and the API's upload pipeline; absent without an object store. */
  files?: { service: FileService; uploads: UploadPipeline };
}

/** The kinds the form can offer, in its order; each only where the instance enables it. */
const FORM_KINDS: readonly PushKind[] = ['text', 'url', 'qr', 'file'];

/** The form's file input: its parts are the push's files. */
const FILES_FIELD = 'files';

/** The form's pages: its script sends a Files secret to us with XMLHttpRequest. */
const FORM_PAGE = { connectsToSelf: true };

const CSRF_REFUSED = 'This form is out of date. Please go back, reload the page and try again.';

/**
 * The web app's create form: `GET /` shows it, `POST /` creates the push through the same rules
 * and domain service as `POST /api/v2/pushes` (the body is read into the API's `{push: …}` shape
 * and parsed by the API's schema), and answers the page with the link. A refused create shows
 * the form again with the problems and what was typed (never the passphrase, never the files).
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
  const signInEnabled = sessions !== undefined;
  const filesOn = deps.files !== undefined && deps.rules.enabledKinds.has('file');
  /** The kinds this visitor is offered: enabled here, and (files) allowed to this caller. */
  const kindsFor = (caller: WebCaller): PushKind[] =>
    FORM_KINDS.filter(
      (k) =>
        deps.rules.enabledKinds.has(k) &&
        (k !== 'file' || (filesOn && mayCreate(webActor(caller), 'file', deps.features).ok)),
    );
  const rulesFor = (caller: WebCaller): FormRules => {
    const kinds = kindsFor(caller);
    return {
      ...deps.rules,
      kinds,
      ...(kinds.includes('file') && deps.files ? { fileLimits: deps.files.uploads.limits } : {}),
      nameAndNote: caller.kind === 'signed-in',
    };
  };
  /** Why this visitor gets no form, if they get none. */
  const noticeFor = (caller: WebCaller): string | undefined => {
    if (kindsFor(caller).length === 0) return 'This instance does not offer any kind of secret to share.';
    if (caller.kind === 'signed-in' || deps.features.anonymousCreate) return undefined;
    return signInEnabled
      ? 'Sign in to share a secret on this instance.'
      : 'Creating a secret on this instance needs an account; sign-in is not configured. Use the API with a token.';
  };
  const csrfOf = (caller: WebCaller) => (caller.kind === 'signed-in' ? caller.session.csrf : undefined);
  /** A signed-in person's form must carry their session's token; an anonymous one has none to carry. */
  const csrfRefused = (req: Request, res: Response): boolean => {
    const caller = webCallerOf(res);
    return caller.kind === 'signed-in' && !sessions!.csrfMatches(req, caller.session);
  };
  const load: RequestHandler[] = sessions ? [sessions.load] : [];
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
        rules: rulesFor(caller),
        header,
        ...(notice ? { notice } : {}),
        ...(csrf ? { csrf } : {}),
      }),
    );
  });

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
    parameterLimit: 20,
  });
  /** The form's shape for the upload pipeline, and who may store files through it. */
  const uploadForm: UploadForm = {
    fileFields: [FILES_FIELD],
    payloadField: 'payload',
    admitFiles(req, res) {
      if (!kindsFor(webCallerOf(res)).includes('file')) {
        return new HttpError(403, 'forbidden', 'You may not share files on this instance.');
      }
      if (csrfRefused(req, res)) return new HttpError(403, 'forbidden', CSRF_REFUSED);
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

  const valuesOf = (body: unknown): FormValues => ({
    kind: formField(body, 'kind'),
    payload: formField(body, 'payload'),
    expire_after_days: formField(body, 'expire_after_days'),
    expire_after_views: formField(body, 'expire_after_views'),
    retrieval_step: formField(body, 'retrieval_step') === 'true',
    deletable_by_viewer: formField(body, 'deletable_by_viewer') === 'true',
    name: formField(body, 'name'),
    note: formField(body, 'note'),
  });

  /** Creates the push of the form in `req.body`, with the files a multipart form stored. */
  const create = async (req: Request, res: Response, stored?: PreparedFiles): Promise<void> => {
    const header = headerOf(res, signInEnabled)!; // mayUseForm answered for a session not read
    const caller = webCallerOf(res);
    const actor = webActor(caller);
    const uploads = stored?.uploads ?? [];
    if (csrfRefused(req, res)) throw new HttpError(403, 'forbidden', CSRF_REFUSED);
    const body: unknown = req.body;
    const values = valuesOf(body);
    const passphrase = formField(body, 'passphrase');
    const push: Record<string, unknown> = {
      kind: values.kind,
      payload: values.kind === 'file' && !values.payload ? undefined : values.payload,
      expire_after_days: values.expire_after_days,
      expire_after_views: values.expire_after_views,
      retrieval_step: values.retrieval_step,
      deletable_by_viewer: values.deletable_by_viewer,
      ...(passphrase ? { passphrase } : {}),
      ...(values.name ? { name: values.name } : {}),
      ...(values.note ? { note: values.note } : {}),
    };
    if (!kindsFor(caller).includes(values.kind as PushKind)) {
      throw HttpError.validation({ kind: ['Choose what you want to share.'] });
    }
    if (values.kind === 'file' && uploads.length === 0) {
      throw HttpError.validation({ files: ['Choose at least one file.'] });
    }
    if (values.kind !== 'file' && uploads.length > 0) {
      throw HttpError.validation({
        files: ['Only a Files secret carries files: choose Files, or remove them.'],
      });
    }
    const input = parseCreateBody({ push }, deps.rules);
    const decision = mayCreate(actor, input.kind, deps.features);
    if (!decision.ok) throw new HttpError(403, 'forbidden', 'You may not create this kind of secret here.');
    const created = await deps.pushes.create(input, {
      owner: ownerOf(actor),
      audit: auditContext(req),
      ...(stored ? { files: stored } : {}),
    });
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
  };
  const createFromForm: RequestHandler = (req, res) => create(req, res);
  /** A multipart form's create: if the push is not created, the files it stored go (see discardStored). */
  const createWithUploads =
    (files: FileService): RequestHandler =>
    async (req, res) => {
      const stored = uploadsOf(res);
      try {
        await create(req, res, stored);
      } catch (err) {
        await discardStored(
          files,
          stored.uploads.map((u) => u.objectKey),
          err,
        );
        throw err;
      }
    };

  /**
   * A create refused for what was sent (422, or a file over a limit, 413) shows the form again with
   * the problems and what had arrived of it; everything else is an error page (pageErrors).
   */
  const formProblems: ErrorRequestHandler = (err: unknown, req, res, next) => {
    const mapped = toHttpError(err);
    const header = headerOf(res, signInEnabled);
    if (!(mapped instanceof HttpError) || (mapped.status !== 422 && mapped.status !== 413) || !header) {
      return next(err);
    }
    const caller = webCallerOf(res);
    const csrf = csrfOf(caller);
    const errors = mapped.options.fields ?? { push: [mapped.message] };
    setPageHeaders(res, FORM_PAGE);
    sendPage(
      res,
      mapped.status,
      createFormPage({
        rules: rulesFor(caller),
        values: valuesOf(req.body),
        errors,
        header,
        ...(csrf ? { csrf } : {}),
      }),
    );
  };

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
