import type { Middleware } from 'koa';
import { t } from '@secret-push/i18n';
import { HEALTH_PATHS } from '@secret-push/runtime';
import { messagePage } from '../pages/message-page';
import { ACCOUNTS_API_PATH } from '../provider/api';
import { page } from './responses';

/**
 * The paths of programs: the provider's endpoints (`/connect/…`, `/.well-known/…`), the accounts
 * API, health and metrics. Their 404s stay JSON, as they are today.
 */
const API_PREFIXES = ['/connect/', '/.well-known/', `${ACCOUNTS_API_PATH}/`];
const API_PATHS = new Set([...HEALTH_PATHS, '/metrics', ACCOUNTS_API_PATH, '/connect', '/.well-known']);

export const isApiPath = (path: string): boolean =>
  API_PATHS.has(path) || API_PREFIXES.some((prefix) => path.startsWith(prefix));

/**
 * People never see JSON: a 404 of any other path (a mistyped sign-in or account page, an unknown
 * path) becomes a page. First in the chain, it rewrites the answer of whatever came after it
 * (oidc-provider answers an unknown route with a JSON `invalid_request`); a page that already
 * answered 404 with HTML is left as it is.
 */
export function pagesNotFound(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || isApiPath(ctx.path) || ctx.response.is('html')) return;
    page(ctx, 404, messagePage(t('messages.notFound.title'), t('messages.notFound.text')));
  };
}
