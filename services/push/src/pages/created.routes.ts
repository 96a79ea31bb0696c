import type { RequestHandler } from 'express';
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
      const why = 'Your session cannot be read right now. Please try again in a moment.';
      return sendPage(res, 503, errorPage('Temporarily unavailable', why));
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
    const expire =
      caller.kind === 'signed-in' ? { urlToken: created.urlToken, csrf: caller.session.csrf } : undefined;
    const qr = await qrSvg(link);
    sendPage(res, 200, createdPage({ link, qr, push, now, header, ...(expire ? { expire } : {}) }));
  };
}
