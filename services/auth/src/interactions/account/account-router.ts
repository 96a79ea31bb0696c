import Router from '@koa/router';
import { labelRoute } from '../../request-state';
import { type PageErrorTexts, pageErrors } from '../page-errors';
import { notAllowed } from '../responses';
import { checkedAccountForm } from './account-form';
import { accountCallback, accountHome } from './account-home';
import { type AccountKit, accountViews } from './account-views';
import { passwordForm } from './password-form';
import { recoveryCodesForm } from './recovery-codes-form';
import { sessionsForm } from './sessions-form';
import type { AccountConsoleDeps, AccountMiddleware, AccountState } from './signed-in';
import { twoFactorForms } from './two-factor-forms';

const ACCOUNT_ERRORS: PageErrorTexts = {
  formRefused: 'Request refused',
  unavailable: 'Your account page is unavailable right now',
  failed: 'Your account page failed on our side. Please try again later.',
  logs: { unavailable: 'account console unavailable: database', failed: 'account console failed' },
};

/**
 * The account console: a signed-in person's own page at the auth service (which owns credentials).
 * One file per section:
 *
 * - `GET /account` and `GET /account/callback` (account-home.ts): the page, and the end of the
 *   console's own sign-in (account-sign-in.ts).
 * - `POST /account/password` (password-form.ts).
 * - `POST /account/two-factor/start`, `…/confirm`, `…/remove` (two-factor-forms.ts).
 * - `POST /account/recovery-codes` (recovery-codes-form.ts).
 * - `POST /account/sessions` (sessions-form.ts).
 * - any other method on these paths: 405 with `Allow`.
 *
 * Each route's chain: its metrics label, the error middleware (page-errors.ts), for a form its
 * checks (account-form.ts: from our own page, with a token bound to the session, from a signed-in
 * session: otherwise 403, nothing changed), then the section. Wrong passwords and codes count in
 * the login throttle like at sign-in. The database down → 503; Redis down → 503 for the forms that
 * check a password or code.
 */
export function accountConsoleRoutes(deps: AccountConsoleDeps): AccountMiddleware {
  const kit: AccountKit = { deps, views: accountViews(deps) };
  const errors = pageErrors(ACCOUNT_ERRORS, deps.logger);
  const checked = checkedAccountForm(deps);
  const router = new Router<AccountState>({ strict: true, sensitive: true });

  router.get('/account', labelRoute('account'), errors, accountHome(kit));
  router.all('/account', labelRoute('account'), errors, (ctx) => notAllowed(ctx, 'GET, HEAD'));
  router.get('/account/callback', labelRoute('account_callback'), errors, accountCallback(kit));
  router.all('/account/callback', labelRoute('account_callback'), errors, (ctx) =>
    notAllowed(ctx, 'GET, HEAD'),
  );

  const twoFactor = twoFactorForms(kit);
  const forms: [string, AccountMiddleware][] = [
    ['/account/password', passwordForm(kit)],
    ['/account/two-factor/start', twoFactor.start],
    ['/account/two-factor/confirm', twoFactor.confirm],
    ['/account/two-factor/remove', twoFactor.remove],
    ['/account/recovery-codes', recoveryCodesForm(kit)],
    ['/account/sessions', sessionsForm(kit)],
  ];
  for (const [path, section] of forms) {
    router.post(path, labelRoute('account_form'), errors, checked, section);
    router.all(path, labelRoute('account_form'), errors, (ctx) => notAllowed(ctx, 'POST'));
  }
  return router.routes();
}
