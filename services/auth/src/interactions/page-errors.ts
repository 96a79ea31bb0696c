import type { Context, Middleware } from 'koa';
import { isConnectionError } from '@secret-push/db-kit';
import type { Logger } from '@secret-push/logger';
import { DependencyUnavailable } from '../errors';
import { messagePage } from '../pages/message-page';
import { LoginThrottleUnavailable } from '../policy/login-throttle';
import { ResetThrottleUnavailable } from '../policy/reset-throttle';
import { SignupThrottleUnavailable } from '../policy/signup-throttle';
import { FormError } from './form-body';
import { page } from './responses';

/** The wording of a group of pages' error answers (the sign-in pages, the account console). */
export interface PageErrorTexts {
  /** The title of the page of a form that could not be read (FormError). */
  formRefused: string;
  /** The title of the 503 page. */
  unavailable: string;
  /** The text of the 500 page. */
  failed: string;
  /** The log lines of a database that is down, and of an unexpected error. */
  logs: { unavailable: string; failed: string };
}

const throttleDown = (err: unknown) =>
  err instanceof LoginThrottleUnavailable ||
  err instanceof SignupThrottleUnavailable ||
  err instanceof ResetThrottleUnavailable;

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
        return page(ctx, err.status, messagePage(texts.formRefused, err.message));
      }
      if (throttleDown(err) || err instanceof DependencyUnavailable || isConnectionError(err)) {
        countUnavailable?.(ctx);
        if (!throttleDown(err)) logger.warn({ err: (err as Error).message }, texts.logs.unavailable);
        ctx.set('Retry-After', '30');
        return page(ctx, 503, messagePage(texts.unavailable, 'Please try again in a few minutes.'));
      }
      logger.error({ err }, texts.logs.failed);
      page(ctx, 500, messagePage('Something went wrong', texts.failed));
    }
  };
}
