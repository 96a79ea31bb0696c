import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { HttpError } from '@secret-push/http-kit';
import { t, translator } from '@secret-push/i18n';
import { mayCreate, ownerOf } from '../domain/create-policy';
import { IdempotencyKeyReused } from '../domain/errors';
import type { FileService } from '../domain/file-service';
import { idempotencyScope, isAcceptableKey, newIdempotencyKey } from '../domain/idempotency';
import type { PushKind } from '../domain/push';
import type { PreparedFiles, PushService } from '../domain/push-service';
import { auditContext } from '../http/audit-context';
import { toHttpError } from '../http/error-map';
import { parseCreateBody } from '../http/push.schemas';
import type { WebFormPresets } from '../config/web-form';
import { webActor, webCallerOf } from '../session/web-session';
import { discardStored } from '../uploads/cleanup';
import { uploadsOf } from '../uploads/upload-state';
import { expiryOf } from './create-form.expiry';
import { csrfRefusedMessage, FORM_PAGE, type FormVisitor, type FormVisitorDeps } from './create-form.visitor';
import { type FormValues, createFormPage } from './create.views';
import { DEFAULT_LOCALE, senderLocaleOf } from '../domain/email-rules';
import { PASSPHRASE_AGAIN } from './create-form.messages';
import { formRefusal, pageProblems } from './create-form.problems';
import { emailSenderOfSession, formValues } from './email-pages';
import { formField, pageRefusal, sendPage, setPageHeaders } from './page-security';
import { giveReceipt } from './receipt.cookie';
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

/** The created page: where a create redirects, its cookie (the form's key) and how long it shows the link. */
export const CREATED_PATH = '/created';
export const CREATED_COOKIE = 'sp_created';
export const CREATED_PAGE_SECONDS = 600;

/** The language of the page the form was sent from, as the emails' (the sender's language), if they have it. */
/**
 * The email fields as the API's: the addresses and their language when some are given, the sender
 * named when asked, and the notices checked (none checked is none) where the form offers them.
 */
function emailFieldsOf(values: FormValues, noticesOffered: boolean): Record<string, unknown> {
  const to = values.notify_emails_to?.trim();
  return {
    ...(to ? { notify_emails_to: to } : {}),
    ...(to && values.notify_emails_to_locale
      ? { notify_emails_to_locale: values.notify_emails_to_locale }
      : {}),
    ...(values.notify_emails_include_sender ? { notify_emails_include_sender: true } : {}),
    ...(noticesOffered || (values.notify_owner_on?.length ?? 0) > 0
      ? { notify_owner_on: (values.notify_owner_on ?? []).join(',') }
      : {}),
  };
}

/** The form's fields as the API's `push` object; checks the API's schema does not know. */
function pushOf(
  values: FormValues,
  passphrase: string | undefined,
  uploadCount: number,
  noticesOffered: boolean,
  presets: WebFormPresets,
): Record<string, unknown> {
  const { kind } = values;
  if (values.passphraseRequired && !passphrase) {
    throw formRefusal({ passphrase: [t(PASSPHRASE_AGAIN)] });
  }
  if (kind === 'file' && uploadCount === 0) {
    throw formRefusal({ files: [t('create.problem.noFile')] });
  }
  if (kind !== 'file' && uploadCount > 0) {
    throw formRefusal({ files: [t('create.problem.filesNotFiles')] });
  }
  return {
    kind,
    payload: kind === 'file' && !values.payload ? undefined : values.payload,
    ...expiryOf(values, presets),
    retrieval_step: values.retrieval_step,
    deletable_by_viewer: values.deletable_by_viewer,
    ...(passphrase ? { passphrase } : {}),
    ...(values.name ? { name: values.name } : {}),
    ...(values.note ? { note: values.note } : {}),
    ...emailFieldsOf(values, noticesOffered),
  };
}

const storedKeyList = (stored: PreparedFiles | undefined): string[] =>
  stored?.uploads.map((u) => u.objectKey) ?? [];

/** The form's fields as typed (strings as sent; check boxes as booleans). */
const valuesOf = (body: unknown): FormValues => ({
  kind: formField(body, 'kind'),
  payload: formField(body, 'payload'),
  duration: formField(body, 'duration'),
  views: formField(body, 'views'),
  expire_after_days: formField(body, 'expire_after_days'),
  expire_after_views: formField(body, 'expire_after_views'),
  retrieval_step: formField(body, 'retrieval_step') === 'true',
  deletable_by_viewer: formField(body, 'deletable_by_viewer') === 'true',
  name: formField(body, 'name'),
  note: formField(body, 'note'),
  passphraseRequired:
    formField(body, 'passphrase_required') === 'true' || (formField(body, 'passphrase') ?? '') !== '',
  idempotencyKey: formField(body, 'idempotency_key'),
  notify_emails_to: formField(body, 'notify_emails_to'),
  notify_emails_to_locale: formField(body, 'notify_emails_to_locale'),
  notify_emails_include_sender: formField(body, 'notify_emails_include_sender') === 'true',
  notify_owner_on: formValues(body, 'notify_owner_on'),
});

export function formSubmission(deps: FormSubmissionDeps, visitor: FormVisitor): FormSubmission {
  const { signInEnabled, kindsFor, fullRulesFor, csrfOf, csrfRefused } = visitor;

  /**
   * Creates the push of the form in `req.body`, with the files a multipart form stored, under the
   * form's Idempotency-Key (Post/Redirect/Get): the answer is a 303 to `/created`, whose cookie
   * names the key; a resubmission of the same form gets the same push (its duplicate files go).
   */
  const create = async (req: Request, res: Response, files?: FileService): Promise<void> => {
    const caller = webCallerOf(res);
    const actor = webActor(caller);
    const stored = files ? uploadsOf(res) : undefined;
    const uploads = stored?.uploads ?? [];
    if (csrfRefused(req, res)) throw new HttpError(403, 'forbidden', csrfRefusedMessage());
    const values = valuesOf(req.body);
    const key = values.idempotencyKey ?? newIdempotencyKey(); // a form of an older page has none
    if (!isAcceptableKey(key, true)) throw new HttpError(400, 'bad_request', csrfRefusedMessage());
    if (!kindsFor(caller).includes(values.kind as PushKind)) {
      throw formRefusal({ kind: [t('create.problem.chooseKind')] });
    }
    const input = parseCreateBody(
      {
        push: pushOf(
          values,
          formField(req.body, 'passphrase') || undefined,
          uploads.length,
          visitor.noticesOffered(caller),
          deps.presets,
        ),
      },
      deps.rules,
    );
    const decision = mayCreate(actor, input.kind, deps.features);
    if (!decision.ok) throw pageRefusal(t('create.refused.kind'));
    const owner = ownerOf(actor);
    const created = await deps.pushes.create(input, {
      owner,
      audit: auditContext(req),
      // The person, for email (their verified address); the page's language is the sender's.
      sender: caller.kind === 'signed-in' ? emailSenderOfSession(caller.session) : null,
      senderLocale: senderLocaleOf(translator().locale, DEFAULT_LOCALE),
      ...(stored ? { files: stored } : {}),
      idempotency: { scope: idempotencyScope(owner, req.ip ?? null), key },
    });
    if (created.replayed && files) await discardStored(files, storedKeyList(stored), undefined);
    res.cookie(CREATED_COOKIE, key, {
      httpOnly: true,
      sameSite: 'strict',
      secure: deps.publicUrl.startsWith('https:'),
      path: CREATED_PATH,
      maxAge: CREATED_PAGE_SECONDS * 1000,
    });
    await giveReceipt(res, deps, created, { owner, path: CREATED_PATH, seconds: CREATED_PAGE_SECONDS });
    res.redirect(303, CREATED_PATH);
  };
  const createFromForm: RequestHandler = (req, res) => create(req, res);
  const createWithUploads =
    (files: FileService): RequestHandler =>
    async (req, res) => {
      try {
        await create(req, res, files);
      } catch (err) {
        await discardStored(files, storedKeyList(uploadsOf(res)), err);
        throw err;
      }
    };

  const formProblems: ErrorRequestHandler = async (err: unknown, req, res, next) => {
    const mapped = toHttpError(err);
    const header = headerOf(res, signInEnabled);
    if (!(mapped instanceof HttpError) || (mapped.status !== 422 && mapped.status !== 413) || !header) {
      return next(err);
    }
    const caller = webCallerOf(res);
    const csrf = csrfOf(caller);
    const values = valuesOf(req.body);
    // This form already made a secret, and was changed since: sending it again makes another one.
    const reused = err instanceof IdempotencyKeyReused;
    // The API's problems (English, for its clients) are said in the page's language.
    const errors: Record<string, string[]> = reused
      ? { push: [t('create.problem.formReused')] }
      : pageProblems(mapped);
    // The passphrase typed is not sent back: the form says so, and will not create without one.
    if (values.passphraseRequired && !errors.passphrase) errors.passphrase = [t(PASSPHRASE_AGAIN)];
    setPageHeaders(res, FORM_PAGE);
    sendPage(
      res,
      mapped.status,
      createFormPage({
        rules: await fullRulesFor(caller),
        values: {
          ...values,
          idempotencyKey: reused || !values.idempotencyKey ? newIdempotencyKey() : values.idempotencyKey,
        },
        errors,
        header,
        ...(csrf ? { csrf } : {}),
      }),
    );
  };

  return { createFromForm, createWithUploads, formProblems };
}
