import type { Context } from 'koa';
import { t } from '@secret-push/i18n';
import { messagePage } from '../../pages/message-page';
import { formTokenValid, fromOwnPage } from '../csrf';
import { readForm, single } from '../form-body';
import { page } from '../responses';
import { CSRF_PURPOSE } from './account-views';
import { type AccountConsoleDeps, type AccountMiddleware, signedIn } from './signed-in';

/**
 * The checks every console form passes first: sent from our own page, as a form, by a person
 * signed in in this browser, with the token bound to that session. Otherwise 403, nothing
 * changed, and the chain ends; when they pass, `ctx.state` has the person and the fields.
 */
export function checkedAccountForm(deps: AccountConsoleDeps): AccountMiddleware {
  const issuerOrigin = new URL(deps.issuer).origin;
  const refusedForm = (ctx: Context) =>
    page(ctx, 403, messagePage(t('account.refused.title'), t('account.refused.text')));
  return async (ctx, next) => {
    if (!fromOwnPage(ctx, issuerOrigin)) return refusedForm(ctx);
    const fields = await readForm(ctx);
    const who = await signedIn(ctx, deps);
    if (!who) {
      return page(ctx, 403, messagePage(t('account.notSignedIn.title'), t('account.notSignedIn.text')));
    }
    if (!formTokenValid(deps.cookieKeys, CSRF_PURPOSE, who.session.jti, single(fields, 'csrf'))) {
      return refusedForm(ctx);
    }
    ctx.state.who = who;
    ctx.state.fields = fields;
    await next();
  };
}
