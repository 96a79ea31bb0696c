import type { Request, RequestHandler } from 'express';
import { t } from '@secret-push/i18n';
import { PushNotFound } from '../domain/errors';
import { parseCookie as parseCookies } from 'cookie';
import { ownerOf } from '../domain/create-policy';
import { idempotencyScope, isAcceptableKey } from '../domain/idempotency';
import type { PushService } from '../domain/push-service';
import { htmlUrl } from '../http/push.presenter';
import { webActor, webCallerOf } from '../session/web-session';
import { CREATED_COOKIE, CREATED_PAGE_SECONDS } from './create.submit';
import { createdGonePage, createdPage } from './created.views';
import { sendPage, setPageHeaders } from './page-security';
import { qrSvg } from './qr';
import { receiptCookieOf } from './receipt.cookie';
import { receiptUrl } from './receipt.routes';
import { errorPage } from './views';
import { headerOf } from './web-header';

/**
 * `GET /created`, where the create form redirects (Post/Redirect/Get): the link of the push the
 * form's key made, found by the key in the `sp_created` cookie, within the caller's scope (the
 * person signed in, or the address), for CREATED_PAGE_SECONDS after the create. A reload shows the
 * same link; nothing is created or audited. Later, elsewhere or without the cookie: a page that
 * says so (404), with where to find the secret.
 */
export function showCreated(
  deps: { pushes: PushService; publicUrl: string },
  signInEnabled: boolean,
): RequestHandler {
  return async (req, res) => {
    setPageHeaders(res);
    const header = headerOf(res, signInEnabled);
    if (!header) {
      return sendPage(res, 503, errorPage(t('create.unavailable.title'), t('create.unavailable.text')));
    }
    const caller = webCallerOf(res);
    const key = parseCookies(req.headers.cookie ?? '')[CREATED_COOKIE];
    const scope = idempotencyScope(ownerOf(webActor(caller)), req.ip ?? null);
    const created =
      key !== undefined && isAcceptableKey(key, true)
        ? await deps.pushes.createdWith({ scope, key }, CREATED_PAGE_SECONDS)
        : undefined;
    if (!created) {
      return sendPage(res, 404, createdGonePage({ header, signedIn: caller.kind === 'signed-in' }));
    }
    const { push, now } = created.snapshot;
    const link = htmlUrl(deps.publicUrl, created.urlToken, push.retrievalStep);
    const receipt = caller.kind === 'signed-in' ? undefined : await receiptOf(deps.pushes, req, push.id);
    const expireHref =
      caller.kind === 'signed-in'
        ? `/pushes/${created.urlToken}/expire`
        : receipt
          ? `/receipt/${receipt}/expire`
          : undefined;
    const qr = await qrSvg(link);
    const extra = {
      ...(expireHref ? { expireHref } : {}),
      ...(receipt ? { receipt: receiptUrl(deps.publicUrl, receipt) } : {}),
    };
    sendPage(res, 200, createdPage({ link, qr, push, now, header, ...extra }));
  };
}

/** The receipt the create handed this page, if it is this push's (a stale cookie is not shown). */
async function receiptOf(pushes: PushService, req: Request, pushId: string): Promise<string | undefined> {
  const receipt = receiptCookieOf(req);
  if (receipt === undefined) return undefined;
  try {
    return (await pushes.receiptStatus(receipt)).push.id === pushId ? receipt : undefined;
  } catch (err) {
    if (err instanceof PushNotFound) return undefined;
    throw err;
  }
}
