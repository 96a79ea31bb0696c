import type { Context, Middleware } from 'koa';
import { t } from '@secret-push/i18n';
import { isConnectionError } from '@secret-push/db-kit';
import type { Logger } from '@secret-push/logger';
import { DependencyUnavailable } from '../errors';
import { messagePage } from '../pages/message-page';
import { LoginThrottleUnavailable } from '../policy/login-throttle';
import { ResetThrottleUnavailable } from '../policy/reset-throttle';
import { SignupThrottleUnavailable } from '../policy/signup-throttle';
import { FormError } from './form-body';
import { page } from './responses';

/**
 * A text of a page: a function that gives it in the request's language when the page is drawn
 * (`() => t('errors.signIn.failed')`); a plain string is shown as it is.
 */
export type PageText = string | (() => string);

const shown = (text: PageText): string => (typeof text === 'function' ? text() : text);

/** The wording of a group of pages' error answers (the sign-in pages, the account console). */
export interface PageErrorTexts {
  /** The title of the page of a form that could not be read (FormError). */
  formRefused: PageText;
  /** The title of the 503 page. */
  unavailable: PageText;
  /** The text of the 500 page. */
  failed: PageText;
  /** The log lines of a database that is down, and of an unexpected error. */
  logs: { unavailable: string; failed: string };
}

const throttleDown = (err: unknown) =>
  err instanceof LoginThrottleUnavailable ||
  err instanceof SignupThrottleUnavailable ||
  err instanceof ResetThrottleUnavailable;

/** A form that could not be read, in the page's language (the FormError's own text is English). */
export function formErrorText(err: FormError): string {
  switch (err.status) {
    case 413:
      return t('errors.form.tooLarge');
    case 415:
      return t('errors.form.type');
    case 400:
      return t('errors.form.encoding');
  }
}

/**
 * The one error middleware of our pages, first in each of their routes' chains: what a step throws
 * becomes a page.
 *
 * - a form that cannot be read (form-body.ts FormError) → its status (400, 413, 415);
 * - Redis (a throttle) or the database down → 503 with Retry-After (the database logged), counted
 *   by `countUnavailable` when given;
 * - anything else → 500, logged.
 */
export function pageErrors(
  texts: PageErrorTexts,
  logger: Logger,
  countUnavailable?: (ctx: Context) => void,
): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof FormError) {
        return page(ctx, err.status, messagePage(shown(texts.formRefused), formErrorText(err)));
      }
      if (throttleDown(err) || err instanceof DependencyUnavailable || isConnectionError(err)) {
        countUnavailable?.(ctx);
        if (!throttleDown(err)) logger.warn({ err: (err as Error).message }, texts.logs.unavailable);
        ctx.set('Retry-After', '30');
        return page(ctx, 503, messagePage(shown(texts.unavailable), t('errors.tryLater')));
      }
      logger.error({ err }, texts.logs.failed);
      page(ctx, 500, messagePage(t('errors.failedTitle'), shown(texts.failed)));
    }
  };
}
