import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  Router,
} from 'express';
import { HttpError } from '@secret-push/http-kit';
import { t } from '@secret-push/i18n';
import type { Logger } from '@secret-push/logger';
import { ANONYMOUS } from '../domain/create-policy';
import { PassphraseRejected, PushNotFound, TooManyAttempts } from '../domain/errors';
import type { FileLink } from '../domain/file-link';
import type { PushService, RetrieveResult } from '../domain/push-service';
import { isValidRevealId, newRevealId } from '../domain/reveal-retry';
import { isEffectivelyExpired } from '../domain/view-policy';
import { auditContext } from '../http/audit-context';
import { toHttpError } from '../http/error-map';
import { DOWNLOAD_GONE, archiveLinkOf } from '../http/file-archive';
import { PAGES_CSS, PAGES_JS } from './assets';
import { CREATE_FORM_JS } from './create-form.script';
import { CREATE_FORM_SCRIPT } from './create.views';
import { formField, sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { qrSvg } from './qr';
import {
  type PassphraseProblem,
  deletedPage,
  downloadGonePage,
  errorPage,
  gonePage,
  notFoundPage,
  openPage,
  revealedPage,
} from './views';

export interface PagesDeps {
  pushes: PushService;
  publicUrl: string;
  logger: Logger;
  /** The retrieve limit of the API, shared: pages and API spend the same budget. */
  rateLimit: RequestHandler;
}

const token = (req: Request) => String(req.params.token);
const isWebUrl = (s: string) => /^https?:\/\//i.test(s) && URL.canParse(s);

/** A reveal's download links (file pushes). */
const filesOf = (result: RetrieveResult): readonly FileLink[] =>
  result.outcome === 'viewed' ? result.files : [];

/**
 * The recipient pages: `GET /p/:token[/r]` shows the push without using a view
 * (audited `link_opened`), `POST /p/:token` reveals it (a view), `POST /p/:token/delete` is the
 * viewer's delete. Legacy `/f/…` and `/r/…` links redirect here.
 */
export function pagesRoutes(deps: PagesDeps): Router {
  const { pushes } = deps;
  const router = Router();
  const forms = [sameOriginPosts(deps.publicUrl), express.urlencoded({ extended: false, limit: '16kb' })];

  router.get('/static/pages.css', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('css').send(PAGES_CSS);
  });
  router.get('/static/pages.js', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('js').send(PAGES_JS);
  });
  router.get(CREATE_FORM_SCRIPT, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('js').send(CREATE_FORM_JS);
  });

  router.get(['/f/:token', '/r/:token'], (req, res) => {
    res.redirect(301, `/p/${encodeURIComponent(token(req))}`);
  });
  router.get(['/f/:token/r', '/r/:token/r'], (req, res) => {
    res.redirect(301, `/p/${encodeURIComponent(token(req))}/r`);
  });

  const show =
    (retrievalStepPath: boolean): RequestHandler =>
    async (req, res) => {
      const { push, now } = await pushes.open(token(req), auditContext(req));
      setPageHeaders(res, { formLeavesSite: push.kind === 'url' });
      if (isEffectivelyExpired(push, now)) return sendPage(res, 404, gonePage());
      const autoSubmit = !retrievalStepPath && !push.retrievalStep;
      sendPage(res, 200, openPage({ token: token(req), push, now, autoSubmit, revealId: newRevealId() }));
    };
  router.get('/p/:token', deps.rateLimit, show(false));
  router.get('/p/:token/r', deps.rateLimit, show(true));

  /** Wrong passphrase or too many attempts: the form again, with the reason; no view was used. */
  async function passphraseAgain(req: Request, res: Response, problem: PassphraseProblem) {
    const { push, now } = await pushes.preview(token(req));
    setPageHeaders(res, { formLeavesSite: push.kind === 'url' });
    // Attempts are counted before the push is looked at: an expired one still gets the one page.
    if (isEffectivelyExpired(push, now)) return sendPage(res, 404, gonePage());
    if (problem.kind === 'too_many') res.set('Retry-After', String(problem.retryAfterSeconds));
    const status = problem.kind === 'wrong' ? 401 : 429;
    const page = openPage({
      token: token(req),
      push,
      now,
      autoSubmit: false,
      problem,
      revealId: newRevealId(),
    });
    sendPage(res, status, page);
  }

  const reveal: RequestHandler = async (req, res) => {
    const passphrase = formField(req.body, 'passphrase');
    // The form's reveal id: a resubmission (a reload of the revealed page, a retry) spends no view.
    const given = formField(req.body, 'reveal_id');
    const revealId = given !== undefined && isValidRevealId(given) ? given : undefined;
    let result: RetrieveResult;
    try {
      result = await pushes.retrieve(token(req), passphrase, auditContext(req), revealId);
    } catch (err) {
      if (err instanceof PassphraseRejected) return passphraseAgain(req, res, { kind: 'wrong' });
      if (err instanceof TooManyAttempts) {
        return passphraseAgain(req, res, { kind: 'too_many', retryAfterSeconds: err.retryAfterSeconds });
      }
      throw err;
    }
    setPageHeaders(res);
    if (result.outcome === 'expired') return sendPage(res, 404, gonePage());
    const { push, now } = result.snapshot;
    const payload = result.payload;
    if (push.kind === 'url' && payload !== null && isWebUrl(payload)) return res.redirect(303, payload);
    const qr = push.kind === 'qr' && payload ? await qrSvg(payload) : undefined;
    const files = filesOf(result);
    const archiveUrl = files.length > 1 ? archiveLinkOf(files) : undefined;
    const page = revealedPage({
      token: token(req),
      push,
      now,
      payload,
      qr,
      files,
      ...(archiveUrl ? { archiveUrl } : {}),
    });
    sendPage(res, 200, page);
  };
  router.post(['/p/:token', '/p/:token/r'], ...forms, deps.rateLimit, reveal);

  router.post('/p/:token/delete', ...forms, deps.rateLimit, async (req, res) => {
    await pushes.expire(token(req), ANONYMOUS, auditContext(req));
    setPageHeaders(res);
    sendPage(res, 200, deletedPage());
  });

  router.use(pageErrors(deps.logger, 'a recipient page'));
  return router;
}

/**
 * The page's text for a 401/403 (in the page's language): the API's English message says which
 * refusal it is (the API keeps it as it is: clients parse it); one the pages do not know gets a
 * general sentence.
 */
const FORBIDDEN_TEXTS: Readonly<Record<string, () => string>> = {
  "That push doesn't belong to you.": () => t('errors.forbidden.notOwner'),
  'That push is not deletable by viewers.': () => t('errors.forbidden.notDeletable'),
  'This account is disabled.': () => t('errors.disabled.text'),
  'Only signed-in users may answer this request.': () => t('errors.forbidden.usersOnly'),
  'Only users may answer this request, not clients.': () => t('errors.forbidden.notAClient'),
  'Only the addresses the requester listed may answer, with the code sent to them.': () =>
    t('errors.forbidden.codeRequired'),
};

function forbiddenText(mapped: unknown): string {
  const message = mapped instanceof HttpError ? mapped.message : '';
  // A page's own refusal, already in the page's language (pageRefusal).
  if (mapped instanceof HttpError && mapped.options.extra?.pageText === true) return message;
  if (message.startsWith('This form is out of date')) return t('errors.forbidden.outOfDate');
  return Object.hasOwn(FORBIDDEN_TEXTS, message) ? FORBIDDEN_TEXTS[message]!() : t('errors.forbidden.text');
}

/** Retry-After in seconds (a number; an HTTP date or nothing: a minute). */
function retryAfterSeconds(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : 60;
}

/**
 * Errors on the pages are pages too, in the page's language; unknown and expired pushes look the
 * same (404, one body).
 */
export function pageErrors(logger: Logger, where: string): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    setPageHeaders(res);
    if (err instanceof PushNotFound) return sendPage(res, 404, gonePage());
    const mapped = toHttpError(err);
    const status = mapped instanceof HttpError ? mapped.status : statusOf(err);
    if (mapped instanceof HttpError) res.set(mapped.options.headers ?? {});
    res.removeHeader('WWW-Authenticate');
    if (status === 401 || status === 403) {
      return sendPage(res, 403, errorPage(t('errors.forbidden.title'), forbiddenText(mapped)));
    }
    if (status === 404 || status === 410) {
      const download = mapped instanceof HttpError && mapped.message === DOWNLOAD_GONE;
      return sendPage(res, status, download || status === 410 ? downloadGonePage() : notFoundPage());
    }
    if (status === 405) {
      return sendPage(res, 405, errorPage(t('errors.forbidden.title'), t('errors.methodNotAllowed.text')));
    }
    if (status === 429) {
      const seconds = retryAfterSeconds(res.get('Retry-After'));
      return sendPage(res, 429, errorPage(t('errors.tooMany.title'), t('errors.tooMany.text', { seconds })));
    }
    if (status >= 400 && status < 500) {
      return sendPage(res, status, errorPage(t('errors.badRequest.title'), t('errors.badRequest.text')));
    }
    if (status === 503) {
      return sendPage(res, 503, errorPage(t('errors.unavailable.title'), t('errors.unavailable.text')));
    }
    // Never the path: a recipient page's path holds its url_token.
    logger.error({ err, method: req.method }, `unhandled error on ${where}`);
    sendPage(res, 500, errorPage(t('errors.internal.title'), t('errors.internal.text')));
  };
}

const statusOf = (err: unknown): number => {
  const s = (err as { status?: unknown } | null)?.status;
  return typeof s === 'number' && s >= 400 && s < 600 ? s : 500;
};
