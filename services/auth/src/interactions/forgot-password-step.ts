import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'koa';
import { t } from '@secret-push/i18n';
import { forgotPasswordPage, resetSentPage } from '../pages/forgot-password-page';
import { messagePage } from '../pages/message-page';
import { accountKey } from '../policy/login-throttle';
import { emailProblem, normaliseEmail } from '../users/email';
import { requestPasswordReset } from '../users/password-reset';
import { formToken } from './csrf';
import { single } from './form-body';
import { type PendingLogin, type SignInMiddleware, pendingLogin, postedFields } from './pending-login';
import { page } from './responses';
import type { PasswordResetDeps } from './sign-in-deps';
import type { SignInKit } from './sign-in-flow';

/** The form token's purpose: no other form's token is good here, nor this one there. */
export const FORGOT_PURPOSE = 'forgot';

/**
 * Every answer to a reset request takes at least this long, so that an address with an account
 * (whose reset is written: one more transaction) cannot be told from one without by the timing.
 */
export const RESET_REQUEST_FLOOR_MS = 250;

/*
 * "Forgot password?" (email on), inside the pending sign-in like the sign-up page:
 *
 * - `GET /interaction/:uid/forgot`: the email form, with the way back to the login page.
 * - `POST /interaction/:uid/forgot`: checked like the login form (same origin, a form token of its
 *   own purpose); an address that cannot be one is shown again (422, the same for every address);
 *   then one request is taken from the throttle (per address, per IP: 429 over either, 503 without
 *   Redis); then the reset is written and its email queued only when the address has an enabled
 *   account. Either way the same page ("Check your email") after the same time.
 */

function showForgot(
  kit: SignInKit,
  ctx: Context,
  login: PendingLogin,
  status: number,
  email?: string,
  error?: string,
) {
  const uid = login.details.uid;
  page(
    ctx,
    status,
    forgotPasswordPage({
      action: `/interaction/${uid}/forgot`,
      csrfToken: formToken(kit.deps.cookieKeys, FORGOT_PURPOSE, uid),
      loginUrl: `/interaction/${uid}`,
      email,
      error,
    }),
  );
}

/** `GET /interaction/:uid/forgot`. */
export function forgotPageStep(kit: SignInKit): SignInMiddleware {
  return (ctx) => showForgot(kit, ctx, pendingLogin(ctx), 200);
}

/** `POST /interaction/:uid/forgot`, once the form passed its checks (sign-in-form.ts). */
export function forgotStep(kit: SignInKit, reset: PasswordResetDeps): SignInMiddleware {
  const { deps } = kit;
  const { logger, metrics } = deps;
  return async (ctx) => {
    const started = Date.now();
    const login = pendingLogin(ctx);
    const typed = (single(postedFields(ctx), 'email') ?? '').trim();
    const email = normaliseEmail(typed);
    if (emailProblem(email) !== undefined) {
      metrics.passwordResets.inc({ outcome: 'refused' });
      return showForgot(kit, ctx, login, 422, typed, t('reset.forgot.invalidEmail'));
    }
    const allowance = await reset.throttle.admit(accountKey(email), ctx.ip);
    if (!allowance.allowed) {
      metrics.passwordResets.inc({ outcome: 'throttled' });
      logger.info({ ip: ctx.ip }, 'password reset request throttled');
      ctx.set('Retry-After', String(allowance.retryAfterSeconds));
      const minutes = Math.ceil(allowance.retryAfterSeconds / 60);
      return page(ctx, 429, messagePage(t('reset.throttled.title'), t('reset.throttled.text', { minutes })));
    }
    const { queued } = await requestPasswordReset(deps.db, reset.outbox, email, reset.ttlSeconds);
    metrics.passwordResets.inc({ outcome: 'requested' });
    logger.info({ ip: ctx.ip, client_id: login.client.clientId, queued }, 'password reset requested');
    await sleep(Math.max(0, started + RESET_REQUEST_FLOOR_MS - Date.now()));
    page(
      ctx,
      200,
      resetSentPage({
        email: typed,
        ttlMinutes: Math.round(reset.ttlSeconds / 60),
        loginUrl: `/interaction/${login.details.uid}`,
      }),
    );
  };
}
