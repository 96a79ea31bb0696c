import type { Context } from 'koa';
import { t } from '@secret-push/i18n';
import { messagePage } from '../pages/message-page';
import { pageHeaders } from '../pages/page-headers';
import type { LoginAllowance } from '../policy/login-throttle';

/*
 * The answers the sign-in pages and the account console share: a page with our headers, and the
 * refusals every form can meet.
 */

/** Answers with one of our pages; `formTargets` are where its form's answer may redirect. */
export function page(
  ctx: Context,
  status: number,
  body: string,
  formTargets: (string | undefined)[] = [],
): void {
  ctx.set(pageHeaders(formTargets));
  ctx.status = status;
  ctx.type = 'html';
  ctx.body = body;
}

export const expired = (ctx: Context) =>
  page(ctx, 400, messagePage(t('messages.expired.title'), t('messages.expired.text')));

export const forbidden = (ctx: Context) =>
  page(ctx, 403, messagePage(t('messages.refused.title'), t('messages.refused.form')));

/** 405 for a method a page does not take, with the `Allow` it does. */
export function notAllowed(ctx: Context, allow: string): void {
  ctx.set('Allow', allow);
  page(ctx, 405, messagePage(t('messages.notAllowed.title'), t('messages.notAllowed.text')));
}

/** 429 with Retry-After, for an attempt the login throttle refused. */
export function tooManyAttempts(ctx: Context, allowance: Extract<LoginAllowance, { allowed: false }>): void {
  ctx.set('Retry-After', String(allowance.retryAfterSeconds));
  const minutes = Math.ceil(allowance.retryAfterSeconds / 60);
  page(
    ctx,
    429,
    messagePage(
      t('errors.throttle.title'),
      allowance.reason === 'account_slowed' || allowance.reason === 'in_flight'
        ? t('errors.throttle.account')
        : t('errors.throttle.failed', { minutes }),
    ),
  );
}
