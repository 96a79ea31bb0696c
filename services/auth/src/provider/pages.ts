import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import { logoutPage, signedOutPage } from '../pages/logout-page';
import { messagePage } from '../pages/message-page';
import { formTarget, pageHeaders } from '../pages/page-headers';

/** The provider's routes a browser visits: their errors are pages; every other route answers JSON. */
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
    return page(
      ctx,
      messagePage('Sign-out refused', 'This sign-out form has expired or was not sent from its page.'),
    );
  }
  if (out.error === 'server_error') {
    return page(
      ctx,
      messagePage('Something went wrong', 'Sign-in failed on our side. Please try again later.'),
    );
  }
  if (
    out.error === 'invalid_request' &&
    /expired|not found|mismatch/.test(description) &&
    route === 'resume'
  ) {
    return page(
      ctx,
      messagePage(
        'Sign-in expired',
        'This sign-in has expired. Go back to the application and sign in again.',
      ),
    );
  }
  page(
    ctx,
    messagePage(
      'Sign-in request refused',
      'The application sent a sign-in request this service cannot accept.',
      `${out.error}${description ? `: ${description}` : ''}`,
    ),
  );
}
