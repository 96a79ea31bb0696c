import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import { t } from '@secret-push/i18n';
import { logoutPage, signedOutPage } from '../pages/logout-page';
import { messagePage } from '../pages/message-page';
import { formTarget, pageHeaders } from '../pages/page-headers';

/**
 * The provider's routes a browser visits: their errors are pages; every other route answers JSON
 * (in English, for the programs that parse it). The pages are drawn in the person's language: the
 * languages middleware (languages.ts, first in the chain) runs these routes in it.
 */
const BROWSER_ROUTES = new Set([
  'authorization',
  'resume',
  'end_session',
  'end_session_confirm',
  'end_session_success',
]);

function page(ctx: KoaContextWithOIDC, body: string, formTargets: (string | undefined)[] = []): void {
  ctx.set(pageHeaders(formTargets));
  ctx.type = 'html';
  ctx.body = body;
}

/**
 * RP-initiated logout's confirmation page (`features.rpInitiatedLogout.logoutSource`), rendered like
 * the login page. Its form carries oidc-provider's own CSRF token (`xsrf`, random, kept in the
 * session and checked by the provider); the same-origin check of the POST is the interaction
 * routes' (interactions/). The form's answer redirects to the client's post_logout_redirect_uri
 * (validated by the provider against the client's registered ones), so that origin is allowed in
 * `form-action`.
 */
export function logoutSource(ctx: KoaContextWithOIDC): void {
  const { session, client, params } = ctx.oidc;
  const state = session?.state as { secret?: string } | undefined;
  page(
    ctx,
    logoutPage({
      action: ctx.oidc.urlFor('end_session_confirm'),
      xsrf: state?.secret ?? '',
      clientName: client?.clientName?.trim() || undefined,
    }),
    [formTarget(params?.post_logout_redirect_uri as string | undefined)],
  );
}

/** Where a logout ends when the application gave no post_logout_redirect_uri. */
export function postLogoutSuccessSource(ctx: KoaContextWithOIDC): void {
  page(ctx, signedOutPage());
}

/** The errors oidc-provider raises when a logout form is not the one it handed out. */
const FORGED_LOGOUT = new Set(['xsrf token invalid', 'could not find logout details']);

/**
 * `renderError`: JSON for the machine endpoints (token, introspection, revocation, userinfo), even
 * when the caller asks for HTML; a page for the browser's routes, for errors that cannot be sent
 * back to the application (unknown client, unregistered redirect_uri, an expired sign-in).
 */
export function renderError(ctx: KoaContextWithOIDC, out: ErrorOut): void {
  const route = (ctx.oidc as KoaContextWithOIDC['oidc'] | undefined)?.route;
  if (route === undefined || !BROWSER_ROUTES.has(route)) {
    ctx.type = 'json';
    ctx.body = out;
    return;
  }
  const description = out.error_description ?? '';
  if (route === 'end_session_confirm' && out.error === 'invalid_request' && FORGED_LOGOUT.has(description)) {
    ctx.status = 403;
    return page(ctx, messagePage(t('messages.logoutRefused.title'), t('messages.logoutRefused.text')));
  }
  if (out.error === 'server_error') {
    return page(ctx, messagePage(t('errors.failedTitle'), t('errors.signIn.failed')));
  }
  if (
    out.error === 'invalid_request' &&
    /expired|not found|mismatch/.test(description) &&
    route === 'resume'
  ) {
    return page(ctx, messagePage(t('messages.expired.title'), t('messages.expired.text')));
  }
  page(
    ctx,
    messagePage(
      t('messages.requestRefused.title'),
      t('messages.requestRefused.text'),
      // The provider's own words (English, technical), for the application's developers.
      t('messages.requestRefused.detail', { detail: `${out.error}${description ? `: ${description}` : ''}` }),
    ),
  );
}
