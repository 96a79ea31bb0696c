import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { ownerOf } from '../domain/create-policy';
import { PushNotFound } from '../domain/errors';
import type { PushService } from '../domain/push-service';
import { isEffectivelyExpired } from '../domain/view-policy';
import { auditContext } from '../http/audit-context';
import { signedInSession, webActor, webCallerOf } from '../session/web-session';
import { confirmPage } from './confirm.views';
import { setFlash } from './flash';
import { t } from '@secret-push/i18n';
import { sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { headerOf } from './web-header';

/**
 * Expire on /pushes and on the created page, confirm and tell: `GET /pushes/:token/expire` asks
 * first (names the push; nothing changes), its form POSTs, and /pushes then says it was done.
 * Only the person's own push: another's (even one deletable by viewers) is not found, as over the API.
 */
export function ownerExpireRoutes(
  router: Router,
  deps: { pushes: PushService; publicUrl: string },
  guard: RequestHandler[],
): void {
  const { pushes } = deps;
  const readForm = express.urlencoded({ extended: false, limit: '2kb', parameterLimit: 5 });
  const token = (req: Request) => String(req.params.token);
  const secure = deps.publicUrl.startsWith('https:');

  /** The person's own push to expire (another's, or a viewer-deletable one of someone else: not found). */
  async function ownPush(req: Request, res: Response) {
    const actor = webActor(webCallerOf(res)); // requireSignedIn let a signed-in person through
    const snapshot = await pushes.preview(token(req));
    if (snapshot.push.owner !== ownerOf(actor)) throw new PushNotFound();
    return { actor, ...snapshot };
  }

  /** Expire asks first: this page names the push; its form POSTs (nothing changes here). */
  router.get('/pushes/:token/expire', ...guard, async (req, res) => {
    const { push, now } = await ownPush(req, res);
    if (isEffectivelyExpired(push, now)) {
      setFlash(res, 'push-already-expired', push.name, secure);
      return res.redirect(303, '/pushes?state=expired');
    }
    setPageHeaders(res);
    const page = confirmPage({
      header: headerOf(res, true)!,
      question: push.name ? t('pages.expire.questionNamed', { name: push.name }) : t('pages.expire.question'),
      consequence: t('pages.expire.consequence'),
      action: `/pushes/${token(req)}/expire`,
      csrf: signedInSession(res).csrf,
      confirm: push.name ? t('pages.expire.confirmNamed', { name: push.name }) : t('pages.expire.confirm'),
      cancel: '/pushes',
    });
    sendPage(res, 200, page);
  });

  router.post(
    '/pushes/:token/expire',
    sameOriginPosts(deps.publicUrl),
    readForm,
    ...guard,
    async (req, res) => {
      const { actor, push } = await ownPush(req, res);
      await pushes.expire(token(req), actor, auditContext(req));
      setFlash(res, 'push-expired', push.name, secure);
      res.redirect(303, '/pushes');
    },
  );
}
