import type { AuthMetrics } from '../observability/metrics';
import { formTokenValid, fromOwnPage } from './csrf';
import { readForm, single } from './form-body';
import { type SignInMiddleware, uidOf } from './pending-login';
import { forbidden } from './responses';
import type { InteractionDeps } from './sign-in-deps';

/**
 * The checks every sign-in form passes first: sent from our own page, as a form, with the token of
 * this form (`purpose`) for this interaction. A refusal page (403, counted in `counter` as
 * `forbidden`) ends the chain; otherwise the fields go on in `ctx.state.fields`. The pending login
 * is found after this (loadPendingLogin).
 */
export function checkedForm(
  deps: InteractionDeps,
  purpose: string,
  counter: AuthMetrics['signIns'],
): SignInMiddleware {
  const issuerOrigin = new URL(deps.issuer).origin;
  return async (ctx, next) => {
    if (!fromOwnPage(ctx, issuerOrigin)) {
      counter.inc({ outcome: 'forbidden' });
      return forbidden(ctx);
    }
    const fields = await readForm(ctx);
    if (!formTokenValid(deps.cookieKeys, purpose, uidOf(ctx), single(fields, 'csrf'))) {
      counter.inc({ outcome: 'forbidden' });
      return forbidden(ctx);
    }
    ctx.state.fields = fields;
    await next();
  };
}
