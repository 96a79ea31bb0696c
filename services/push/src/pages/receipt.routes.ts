import express, { type Request, type RequestHandler, Router } from 'express';
import { t } from '@secret-push/i18n';
import type { Logger } from '@secret-push/logger';
import { PushNotFound } from '../domain/errors';
import type { PushService } from '../domain/push-service';
import { isEffectivelyExpired } from '../domain/view-policy';
import { auditContext } from '../http/audit-context';
import { confirmPage } from './confirm.views';
import { setFlash, takeFlash } from './flash';
import { sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import { receiptPage } from './receipt.views';
import { errorPage } from './views';
import { headerOf } from './web-header';

export interface ReceiptPagesDeps {
  pushes: PushService;
  publicUrl: string;
  logger: Logger;
  /** The retrieve limit of the API, shared, as the recipient pages. */
  rateLimit: RequestHandler;
  signInEnabled: boolean;
}

/** The receipt's URL, for the created page. */
export const receiptUrl = (publicUrl: string, receipt: string) =>
  `${publicUrl.replace(/\/+$/, '')}/receipt/${receipt}`;

/**
 * An anonymous sender's receipt: `GET /receipt/:receipt` (the push's state, never its secret),
 * `GET /receipt/:receipt/expire` (asks first) and its `POST` (expires it, audited
 * `expire_by_receipt`, back to the receipt with the message). Unknown receipt: the 404 page.
 */
export function receiptPagesRoutes(deps: ReceiptPagesDeps): Router {
  const { pushes } = deps;
  const router = Router();
  const receipt = (req: Request) => String(req.params.receipt);
  const secure = deps.publicUrl.startsWith('https:');
  const readForm = express.urlencoded({ extended: false, limit: '2kb', parameterLimit: 5 });
  const header = (res: Parameters<typeof headerOf>[0]) => headerOf(res, deps.signInEnabled);

  router.get('/receipt/:receipt', deps.rateLimit, async (req, res) => {
    const { push, now } = await pushes.receiptStatus(receipt(req));
    setPageHeaders(res);
    const flash = takeFlash(req, res);
    const h = header(res);
    const page = receiptPage({
      receipt: receipt(req),
      push,
      now,
      ...(h ? { header: h } : {}),
      ...(flash ? { flash } : {}),
    });
    sendPage(res, 200, page);
  });

  router.get('/receipt/:receipt/expire', deps.rateLimit, async (req, res) => {
    const { push, now } = await pushes.receiptStatus(receipt(req));
    if (isEffectivelyExpired(push, now)) return res.redirect(303, `/receipt/${receipt(req)}`);
    setPageHeaders(res);
    const h = header(res);
    const page = confirmPage({
      ...(h ? { header: h } : {}),
      question: push.name
        ? t('receipt.confirm.questionNamed', { name: push.name })
        : t('receipt.confirm.question'),
      consequence: t('receipt.confirm.consequence'),
      action: `/receipt/${receipt(req)}/expire`,
      confirm: push.name
        ? t('receipt.confirm.actionNamed', { name: push.name })
        : t('receipt.confirm.action'),
      cancel: `/receipt/${receipt(req)}`,
    });
    sendPage(res, 200, page);
  });

  router.post(
    '/receipt/:receipt/expire',
    sameOriginPosts(deps.publicUrl),
    readForm,
    deps.rateLimit,
    async (req, res) => {
      const { push } = await pushes.expireByReceipt(receipt(req), auditContext(req));
      setFlash(res, 'secret-expired', push.name, secure);
      res.redirect(303, `/receipt/${receipt(req)}`);
    },
  );

  router.use('/receipt', ((err, _req, res, next) => {
    if (!(err instanceof PushNotFound)) return next(err);
    setPageHeaders(res);
    sendPage(res, 404, errorPage(t('receipt.missing.title'), t('receipt.missing.text')));
  }) as express.ErrorRequestHandler);
  router.use('/receipt', pageErrors(deps.logger, 'a receipt page'));
  return router;
}
