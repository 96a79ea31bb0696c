import Router from '@koa/router';
import { t } from '@secret-push/i18n';
import { labelRoute } from '../../request-state';
import { type PageErrorTexts, pageErrors } from '../page-errors';
import { notAllowed } from '../responses';
import { checkedAccountForm } from './account-form';
import { accountCallback, accountHome } from './account-home';
import { recentSignInRequired } from './account-reauth';
import { type AccountKit, accountViews } from './account-views';
import { passwordForm } from './password-form';
import { recoveryCodesForm } from './recovery-codes-form';
import { sessionsForm } from './sessions-form';
import type { AccountConsoleDeps, AccountMiddleware, AccountState } from './signed-in';
import { twoFactorForms } from './two-factor-forms';

/** Read when a page is drawn (getters), so in that request's language. */
const ACCOUNT_ERRORS: PageErrorTexts = {
  get formRefused() {
    return t('account.refused.title');
  },
  get unavailable() {
    return t('account.errors.unavailable');
  },
  get failed() {
    return t('account.errors.failed');
  },
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
 * session: otherwise 403, nothing changed), for the password, second-factor and recovery-code forms
 * a sign-in at most AUTH_REAUTH_MAX_AGE_SECONDS old (account-reauth.ts: otherwise the browser signs
 * in again first), then the section. Wrong passwords and codes count in
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
  const recent = recentSignInRequired(kit);
  const pass: AccountMiddleware = (_ctx, next) => next();
  // [path, section, whether it needs a recent sign-in (it changes how the person signs in)]
  const forms: [string, AccountMiddleware, boolean][] = [
    ['/account/password', passwordForm(kit), true],
    ['/account/two-factor/start', twoFactor.start, true],
    ['/account/two-factor/confirm', twoFactor.confirm, true],
    ['/account/two-factor/remove', twoFactor.remove, true],
    ['/account/recovery-codes', recoveryCodesForm(kit), true],
    ['/account/sessions', sessionsForm(kit), false],
  ];
  for (const [path, section, needsRecent] of forms) {
    router.post(path, labelRoute('account_form'), errors, checked, needsRecent ? recent : pass, section);
    router.all(path, labelRoute('account_form'), errors, (ctx) => notAllowed(ctx, 'POST'));
  }
  return router.routes();
}
