import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { HttpError } from '@secret-push/http-kit';
import { mayCreate, ownerOf } from '../domain/create-policy';
import type { FileService } from '../domain/file-service';
import type { PushKind } from '../domain/push';
import type { PreparedFiles, PushService } from '../domain/push-service';
import { auditContext } from '../http/audit-context';
import { toHttpError } from '../http/error-map';
import { htmlUrl } from '../http/push.presenter';
import { parseCreateBody } from '../http/push.schemas';
import { webActor, webCallerOf } from '../session/web-session';
import { discardStored } from '../uploads/cleanup';
import { uploadsOf } from '../uploads/upload-state';
import { CSRF_REFUSED, FORM_PAGE, type FormVisitor, type FormVisitorDeps } from './create-form.visitor';
import { type FormValues, createFormPage, createdPage } from './create.views';
import { formField, sendPage, setPageHeaders } from './page-security';
import { qrSvg } from './qr';
import { headerOf } from './web-header';

export interface FormSubmissionDeps extends FormVisitorDeps {
  pushes: PushService;
  publicUrl: string;
}

/** The steps that create the push of a sent form, and show the form again when it was refused. */
export interface FormSubmission {
  /** A urlencoded form (text, URL, QR): no file step. */
  createFromForm: RequestHandler;
  /** A multipart form's create: if the push is not created, the files it stored go (see discardStored). */
  createWithUploads: (files: FileService) => RequestHandler;
  /**
   * A create refused for what was sent (422, or a file over a limit, 413) shows the form again with
   * the problems and what had arrived of it; everything else is an error page (pageErrors).
   */
  formProblems: ErrorRequestHandler;
}

export function formSubmission(deps: FormSubmissionDeps, visitor: FormVisitor): FormSubmission {
  const { signInEnabled, kindsFor, rulesFor, csrfOf, csrfRefused } = visitor;
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

  return { createFromForm, createWithUploads, formProblems };
}
