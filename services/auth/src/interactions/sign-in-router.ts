import Router from '@koa/router';
import { t } from '@secret-push/i18n';
import type { Middleware } from 'koa';
import type { AuthMetrics } from '../observability/metrics';
import { messagePage } from '../pages/message-page';
import { noEmailPage } from '../pages/reset-password-page';
import { type StaticAsset, brandAssets } from '@secret-push/html';
import { CODES_STYLESHEET } from '../pages/codes-stylesheet';
import { RECOVERY_CODES_SCRIPT, RECOVERY_CODES_SCRIPT_PATH } from '../pages/recovery-codes-script';
import { STYLESHEET, STYLESHEET_PATH } from '../pages/stylesheet';
import { labelRoute } from '../request-state';
import { fromOwnPage } from './csrf';
import { cancelStep } from './cancel-step';
import { currentStepPage } from './current-step-page';
import { continueStep, enrolmentStep } from './enrolment-step';
import { FORGOT_PURPOSE, forgotPageStep, forgotStep } from './forgot-password-step';
import { loginStep } from './login-step';
import { type PageErrorTexts, pageErrors } from './page-errors';
import { type SignInMiddleware, type SignInState, loadPendingLogin } from './pending-login';
import { forbidden, notAllowed, page } from './responses';
import { secondFactorStep } from './second-factor-step';
import type { InteractionDeps } from './sign-in-deps';
import { checkedForm } from './sign-in-form';
import { type SignInKit, signInFlow } from './sign-in-flow';
import { type FormName, signInPages } from './sign-in-pages';
import { SIGNUP_PURPOSE, signupPageStep, signupStep } from './signup';

const SIGN_IN_ERRORS: PageErrorTexts = {
  formRefused: () => t('errors.signIn.formRefused'),
  unavailable: () => t('errors.signIn.unavailable'),
  failed: () => t('errors.signIn.failed'),
  logs: { unavailable: 'sign-in unavailable: database', failed: 'sign-in page failed' },
};

/**
 * An interaction's uid is oidc-provider's (1 to 64 of `A-Za-z0-9_-`): a path under `/interaction/`
 * with anything else there is not one of ours, and goes on to the provider untouched.
 */
const FOREIGN_INTERACTION = /^\/interaction\/(?![A-Za-z0-9_-]{1,64}(?:\/|$))/;

/** A served file of the pages (`type`: its media type), cached for an hour. */
const served =
  (type: string, body: string): Middleware =>
  (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = type;
    ctx.body = body;
  };

/** The look's files both services serve (the brand's stylesheet, logo, favicon, theme script). */
const staticAsset =
  (asset: StaticAsset): Middleware =>
  (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = asset.contentType;
    ctx.body = typeof asset.body === 'string' ? asset.body : Buffer.from(asset.body);
  };

/**
 * The sign-in pages oidc-provider sends browsers to (`interactions.url`), and the same-origin check
 * of its logout confirmation. Mounted with `provider.use`, so it runs before the provider's routes;
 * every other request passes through untouched. One file per step:
 *
 * - `GET /static/auth.css`: the pages' stylesheet; `GET /static/recovery-codes.js`: the recovery
 *   codes page's "Copy" and "Print" (recovery-codes-script.ts).
 * - `GET /interaction/:uid`: the page of the step the sign-in is at (current-step-page.ts).
 * - `POST /interaction/:uid/login` (login-step.ts), `…/second-factor` (second-factor-step.ts),
 *   `…/enrol` and `…/continue` (enrolment-step.ts): the steps of sign-in-steps.ts.
 * - `POST /interaction/:uid/cancel` (cancel-step.ts): "Cancel", back to the application with
 *   `access_denied`.
 * - `GET`/`POST /interaction/:uid/signup`: self sign-up (signup.ts) when AUTH_SELF_SIGNUP is on (the
 *   login page then links to it); a 404 page when it is off. A new account then goes on as after a
 *   correct password.
 * - `GET`/`POST /interaction/:uid/forgot`: "Forgot password?" (forgot-password-step.ts) when email is
 *   on (AUTH_SMTP_URL; the login page then links to it); a 404 page when it is off.
 * - `POST /connect/endsession/confirm`: refused (403 page) unless sent from our own page; oidc-provider
 *   then checks its CSRF token.
 * - any other method on these paths: 405 with `Allow`.
 *
 * Each route's chain: its metrics label, the error middleware (page-errors.ts), for a form its
 * checks (sign-in-form.ts: from our own page, with a token bound to the interaction and to that
 * form, csrf.ts), the pending login (pending-login.ts), then the step. Only first-party clients
 * (`clients create-web`, and the account console) may use these pages; for any other the page
 * refuses (403) rather than ask for consent, which this service has no page for.
 */
export function interactionRoutes(deps: InteractionDeps): SignInMiddleware {
  const { provider, metrics } = deps;
  const issuerOrigin = new URL(deps.issuer).origin;
  const pages = signInPages(deps);
  const kit: SignInKit = { deps, pages, flow: signInFlow(deps, pages) };
  const pending = loadPendingLogin(deps);
  /** The start of each chain: its label, and its errors as pages (503s counted in `counter`). */
  const ours = (route: string, counter: AuthMetrics['signIns'] = metrics.signIns): SignInMiddleware[] => [
    labelRoute(route),
    pageErrors(SIGN_IN_ERRORS, deps.logger, () => counter.inc({ outcome: 'unavailable' })),
  ];
  const router = new Router<SignInState>({ strict: true, sensitive: true });

  router.get(STYLESHEET_PATH, labelRoute('static'), served('text/css', STYLESHEET + CODES_STYLESHEET));
  router.get(
    RECOVERY_CODES_SCRIPT_PATH,
    labelRoute('static'),
    served('text/javascript', RECOVERY_CODES_SCRIPT),
  );
  for (const asset of brandAssets()) router.get(asset.path, labelRoute('static'), staticAsset(asset));
  /** oidc-provider's RP-initiated logout confirmation, where its logout page posts. */
  router.post(provider.pathFor('end_session_confirm'), (ctx, next) => {
    if (fromOwnPage(ctx, issuerOrigin)) return next();
    ctx.state.route = 'end_session_confirm';
    return forbidden(ctx);
  });

  router.get('/interaction/:uid', ...ours('interaction'), pending, currentStepPage(kit));
  router.all('/interaction/:uid', ...ours('interaction'), (ctx) => notAllowed(ctx, 'GET, HEAD'));

  const forms: [FormName, SignInMiddleware][] = [
    ['login', loginStep(kit)],
    ['second-factor', secondFactorStep(kit)],
    ['enrol', enrolmentStep(kit)],
    ['continue', continueStep(kit)],
    ['cancel', cancelStep(kit)],
  ];
  for (const [form, step] of forms) {
    const path = `/interaction/:uid/${form}`;
    const route = `interaction_${form.replace('-', '_')}`;
    router.post(path, ...ours(route), checkedForm(deps, form, metrics.signIns), pending, step);
    router.all(path, ...ours(route), (ctx) => notAllowed(ctx, 'POST'));
  }

  const signup = ours('interaction_signup', metrics.signUps);
  if (deps.signupThrottle) {
    const checked = checkedForm(deps, SIGNUP_PURPOSE, metrics.signUps);
    router.get('/interaction/:uid/signup', ...signup, pending, signupPageStep(kit));
    router.post(
      '/interaction/:uid/signup',
      ...signup,
      checked,
      pending,
      signupStep(kit, deps.signupThrottle),
    );
    router.all('/interaction/:uid/signup', ...signup, (ctx) => notAllowed(ctx, 'GET, HEAD, POST'));
  } else {
    router.all('/interaction/:uid/signup', ...signup, (ctx) =>
      page(ctx, 404, messagePage(t('messages.notFound.title'), t('messages.notFound.short'))),
    );
  }

  const forgot = ours('interaction_forgot', metrics.passwordResets);
  if (deps.passwordReset) {
    const checked = checkedForm(deps, FORGOT_PURPOSE, metrics.passwordResets);
    router.get('/interaction/:uid/forgot', ...forgot, pending, forgotPageStep(kit));
    router.post('/interaction/:uid/forgot', ...forgot, checked, pending, forgotStep(kit, deps.passwordReset));
    router.all('/interaction/:uid/forgot', ...forgot, (ctx) => notAllowed(ctx, 'GET, HEAD, POST'));
  } else {
    router.all('/interaction/:uid/forgot', ...forgot, (ctx) => page(ctx, 404, noEmailPage()));
  }

  const routes = router.routes();
  return async (ctx, next) => {
    if (FOREIGN_INTERACTION.test(ctx.path)) await next();
    else await routes(ctx, next);
  };
}
