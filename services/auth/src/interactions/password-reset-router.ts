import Router, { type RouterMiddleware } from '@koa/router';
import { t } from '@secret-push/i18n';
import { noEmailPage } from '../pages/reset-password-page';
import { labelRoute } from '../request-state';
import { findPasswordReset } from '../users/password-reset';
import { fromOwnPage } from './csrf';
import { readForm, single } from './form-body';
import { type PageErrorTexts, pageErrors } from './page-errors';
import {
  type ResetKit,
  resetFormTokenValid,
  showInvalidLink,
  showResetForm,
  submitReset,
} from './password-reset-form';
import { forbidden, notAllowed, page } from './responses';
import type { InteractionDeps } from './sign-in-deps';

const RESET_ERRORS: PageErrorTexts = {
  formRefused: () => t('errors.reset.formRefused'),
  unavailable: () => t('errors.reset.unavailable'),
  failed: () => t('errors.reset.failed'),
  logs: { unavailable: 'password reset unavailable: database', failed: 'password reset page failed' },
};

/**
 * The reset link's page, `/reset/:token` (the link of the reset email; the token is a secret: the
 * request log shows `/reset/:token`, and the page sends no referrer):
 *
 * - `GET`: the form (new password twice, and a code when the account has a second factor), or the
 *   one "link no longer works" page (410). Nothing is used: a mail scanner that opens the link
 *   changes nothing.
 * - `POST`: from our own page (same origin, a form token bound to this link), then
 *   password-reset-form.ts `submitReset`; a form without them: 403, nothing changed.
 * - email off (no AUTH_SMTP_URL): 404, "not available".
 */
export function passwordResetRoutes(deps: InteractionDeps): RouterMiddleware {
  const router = new Router({ strict: true, sensitive: true });
  const chain = [
    labelRoute('password_reset'),
    pageErrors(RESET_ERRORS, deps.logger, () => deps.metrics.passwordResets.inc({ outcome: 'unavailable' })),
  ];
  const path = '/reset/:token';
  const reset = deps.passwordReset;
  if (!reset) {
    router.all(path, ...chain, (ctx) => page(ctx, 404, noEmailPage()));
    return router.routes();
  }
  const kit: ResetKit = { deps, reset };
  const issuerOrigin = new URL(deps.issuer).origin;

  router.get(path, ...chain, async (ctx) => {
    const token = ctx.params.token ?? '';
    const live = await findPasswordReset(deps.db, token);
    if (!live) return showInvalidLink(ctx);
    showResetForm(kit, ctx, token, live, 200);
  });
  router.post(path, ...chain, async (ctx) => {
    const token = ctx.params.token ?? '';
    if (!fromOwnPage(ctx, issuerOrigin)) {
      deps.metrics.passwordResets.inc({ outcome: 'forbidden' });
      return forbidden(ctx);
    }
    const fields = await readForm(ctx);
    if (!resetFormTokenValid(deps.cookieKeys, token, single(fields, 'csrf'))) {
      deps.metrics.passwordResets.inc({ outcome: 'forbidden' });
      return forbidden(ctx);
    }
    await submitReset(kit, ctx, token, fields);
  });
  router.all(path, ...chain, (ctx) => notAllowed(ctx, 'GET, HEAD, POST'));
  return router.routes();
}
