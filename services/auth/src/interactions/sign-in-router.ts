import type { Context, Middleware } from 'koa';
import type { Kysely } from 'kysely';
import { type Provider, errors } from 'oidc-provider';
import { isConnectionError } from '@secret-push/db-kit';
import type { Logger } from '@secret-push/logger';
import { DependencyUnavailable } from '../errors';
import type { AuthMetrics } from '../observability/metrics';
import { enrolPage } from '../pages/enrol-page';
import { loginPage } from '../pages/login-page';
import { messagePage } from '../pages/message-page';
import { formTarget } from '../pages/page-headers';
import { qrSvg } from '../pages/qr';
import { enrolledPage, recoveryCodesPage } from '../pages/recovery-codes-page';
import { secondFactorPage } from '../pages/second-factor-page';
import { STYLESHEET, STYLESHEET_PATH } from '../pages/stylesheet';
import { LoginThrottleUnavailable, type LoginThrottle, accountKey } from '../policy/login-throttle';
import { type SignupThrottle, SignupThrottleUnavailable } from '../policy/signup-throttle';
import { isFirstParty } from '../provider/api';
import type { AuthDatabase } from '../storage/database';
import { normaliseEmail } from '../users/email';
import { checkSecondFactor, confirmEnrolment } from '../users/second-factor';
import { type VerifiedAccount, checkPassword } from '../users/sign-in';
import { generateTotpSecret, totpUri } from '../users/totp';
import { formToken, formTokenValid, fromOwnPage } from './csrf';
import { FormError, readForm, single } from './form-body';
import { type PendingStep, pendingStep, savePendingStep } from './pending-step';
import { expired, forbidden, notAllowed, page, tooManyAttempts, unavailable } from './responses';
import { type SignedIn, afterEnrolment, afterPassword, afterSecondFactor } from './sign-in-steps';
import { signupRoutes } from './signup';

export interface InteractionDeps {
  provider: Provider;
  db: Kysely<AuthDatabase>;
  throttle: LoginThrottle;
  /** The cookie keys (AUTH_COOKIE_KEYS), which also bind the login form's CSRF token. */
  cookieKeys: readonly string[];
  issuer: string;
  logger: Logger;
  metrics: AuthMetrics;
  /** AUTH_REQUIRE_TOTP and AUTH_TOTP_ISSUER. */
  totp: { required: boolean; issuer: string };
  /** Self sign-up's throttle when AUTH_SELF_SIGNUP is on; undefined: no sign-up page (404). */
  signupThrottle?: SignupThrottle;
}

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type Client = NonNullable<Awaited<ReturnType<Provider['Client']['find']>>>;

/** A pending login: oidc-provider's interaction and the (first-party) client it is for. */
export interface PendingLogin {
  details: Interaction;
  client: Client;
}

const INTERACTION = /^\/interaction\/([A-Za-z0-9_-]{1,64})$/;
/** The forms of a sign-in, each a step: `/interaction/:uid/<form>`. */
const FORM = /^\/interaction\/([A-Za-z0-9_-]{1,64})\/(login|second-factor|enrol|continue)$/;
type FormName = 'login' | 'second-factor' | 'enrol' | 'continue';
const SIGNUP = /^\/interaction\/([A-Za-z0-9_-]{1,64})\/signup$/;
const WRONG_CREDENTIALS = 'Incorrect email or password.';
const WRONG_CODE = 'Incorrect code. Try the code your app shows now, or another recovery code.';
const WRONG_ENROL_CODE =
  "That code does not match. Enter the code the app shows now (check that the device's clock is right).";

/** The request metrics' `route` label of our paths. */
function routeLabel(path: string, logoutConfirm: string): string {
  if (path === STYLESHEET_PATH) return 'static';
  if (path === logoutConfirm) return 'end_session_confirm';
  if (SIGNUP.test(path)) return 'interaction_signup';
  const form = FORM.exec(path)?.[2];
  return form ? `interaction_${form.replace('-', '_')}` : 'interaction';
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The sign-in pages oidc-provider sends browsers to (`interactions.url`), and the same-origin check
 * of its logout confirmation. Mounted with `provider.use`, so it runs before the provider's routes;
 * every other request passes through untouched.
 *
 * - `GET /static/auth.css`: the pages' stylesheet.
 * - `GET /interaction/:uid`: the page of the step the sign-in is at: the login page, or (once the
 *   password passed) the second-factor page, the enrolment page, or the "continue" page.
 * - `POST /interaction/:uid/login`: checks the email and password; then, by `afterPassword`
 *   (sign-in-steps.ts): signed in (303 to the provider's resume URL, which redirects to the
 *   application with a code), or the second-factor page, or the enrolment page. Wrong → the page
 *   again, 422, "Incorrect email or password.", the email kept, never the password.
 * - `POST /interaction/:uid/second-factor`: a TOTP code or a recovery code; right → signed in;
 *   wrong → 422, counted by the login throttle like a wrong password.
 * - `POST /interaction/:uid/enrol`: the code confirming a new TOTP secret (AUTH_REQUIRE_TOTP) →
 *   the recovery codes, shown once, with a form to `…/continue`, which finishes the sign-in.
 * - `GET`/`POST /interaction/:uid/signup`: self sign-up (interactions/signup.ts) when
 *   AUTH_SELF_SIGNUP is on (the login page then links to it); a 404 page when it is off. A new
 *   account then goes on as after a correct password.
 * - `POST /connect/endsession/confirm`: refused (403 page) unless sent from our own page; oidc-provider
 *   then checks its CSRF token.
 *
 * Every form carries a token bound to the interaction and to that form (csrf.ts). Only first-party
 * clients (`clients create-web`, and the account console) may use these pages; for any other the
 * page refuses (403) rather than ask for consent, which this service has no page for.
 */
export function interactionRoutes(deps: InteractionDeps): Middleware {
  const { provider, logger, metrics } = deps;
  const issuerOrigin = new URL(deps.issuer).origin;
  /** oidc-provider's RP-initiated logout confirmation, where its logout page posts. */
  const LOGOUT_CONFIRM = provider.pathFor('end_session_confirm');
  const csrfFor = (form: FormName, uid: string) => formToken(deps.cookieKeys, form, uid);

  /** The pending login `uid`, or undefined once a page saying why not has been sent. */
  async function pending(ctx: Context, uid: string): Promise<PendingLogin | undefined> {
    let details: Interaction;
    try {
      details = await provider.interactionDetails(ctx.req, ctx.res);
    } catch (err) {
      if (err instanceof errors.SessionNotFound) {
        expired(ctx);
        return undefined;
      }
      throw err;
    }
    if (details.uid !== uid) {
      expired(ctx);
      return undefined;
    }
    const client = await provider.Client.find(text(details.params.client_id) ?? '');
    if (!client || !isFirstParty(client)) {
      metrics.signIns.inc({ outcome: 'forbidden' });
      page(
        ctx,
        403,
        messagePage(
          'Sign-in refused',
          'This application is not allowed to use this sign-in page.',
          'Only applications the operator registered as web clients may sign people in here.',
        ),
      );
      return undefined;
    }
    if (details.prompt.name !== 'login') {
      // First-party clients are granted without a consent prompt (provider/sign-in.ts); any other
      // prompt is one this service has no page for.
      page(
        ctx,
        400,
        messagePage('Sign-in refused', 'This sign-in request needs a step this service does not offer.'),
      );
      return undefined;
    }
    return { details, client };
  }

  /** Where the forms' answers may redirect to (the application), for the pages' CSP. */
  const targets = ({ details }: PendingLogin) => [formTarget(text(details.params.redirect_uri))];
  const clientName = ({ client }: PendingLogin) => client.clientName ?? client.clientId;

  function showLogin(ctx: Context, login: PendingLogin, status: number, email?: string, error?: string) {
    const uid = login.details.uid;
    page(
      ctx,
      status,
      loginPage({
        action: `/interaction/${uid}/login`,
        csrfToken: csrfFor('login', uid),
        clientName: clientName(login),
        email,
        error,
        signupUrl: deps.signupThrottle ? `/interaction/${uid}/signup` : undefined,
      }),
      targets(login),
    );
  }

  function showSecondFactor(ctx: Context, login: PendingLogin, status: number, error?: string) {
    const uid = login.details.uid;
    page(
      ctx,
      status,
      secondFactorPage({
        action: `/interaction/${uid}/second-factor`,
        csrfToken: csrfFor('second-factor', uid),
        clientName: clientName(login),
        error,
      }),
      targets(login),
    );
  }

  async function showEnrol(
    ctx: Context,
    login: PendingLogin,
    step: Extract<PendingStep, { step: 'enrol' }>,
    status: number,
    error?: string,
  ) {
    const uid = login.details.uid;
    page(
      ctx,
      status,
      enrolPage({
        action: `/interaction/${uid}/enrol`,
        csrfToken: csrfFor('enrol', uid),
        lead: `This service requires two-factor authentication. Set it up to continue to ${clientName(login)}.`,
        qr: await qrSvg(totpUri(step.secret, step.email, deps.totp.issuer)),
        secret: step.secret,
        error,
      }),
    );
  }

  const continueForm = (login: PendingLogin) => ({
    action: `/interaction/${login.details.uid}/continue`,
    csrfToken: csrfFor('continue', login.details.uid),
    label: `Continue to ${clientName(login)}`,
  });

  /** The last step passed: the interaction's result, and back to the provider (which signs in). */
  async function finish(ctx: Context, login: PendingLogin, next: SignedIn, how: Record<string, string>) {
    // A browser-session cookie (`remember: false`): closing the browser signs out here; the sign-in
    // itself lasts AUTH_SESSION_TTL_SECONDS at most. This result replaces the pending step.
    const returnTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { ...next.login, remember: false } },
      { mergeWithLastSubmission: false },
    );
    metrics.signIns.inc({ outcome: 'success' });
    logger.info(
      { ip: ctx.ip, client_id: login.client.clientId, account_id: next.login.accountId, ...how },
      'signed in',
    );
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(returnTo);
    ctx.status = 303;
  }

  async function getStep(ctx: Context, uid: string) {
    const login = await pending(ctx, uid);
    if (!login) return;
    const step = pendingStep(login.details);
    switch (step?.step) {
      case 'second_factor':
        return showSecondFactor(ctx, login, 200);
      case 'enrol':
        return showEnrol(ctx, login, step, 200);
      case 'enrolled':
        return page(ctx, 200, enrolledPage(continueForm(login)), targets(login));
      case undefined: {
        const hint = text(login.details.params.login_hint);
        return showLogin(ctx, login, 200, hint?.includes('@') ? hint : undefined);
      }
    }
  }

  /**
   * The checks every form passes first: sent from our page, with its token, for a pending login
   * (a refusal page is sent otherwise, and undefined returned).
   */
  async function formFor(
    ctx: Context,
    uid: string,
    form: FormName,
  ): Promise<{ login: PendingLogin; fields: URLSearchParams } | undefined> {
    if (!fromOwnPage(ctx, issuerOrigin)) {
      metrics.signIns.inc({ outcome: 'forbidden' });
      forbidden(ctx);
      return undefined;
    }
    const fields = await readForm(ctx);
    if (!formTokenValid(deps.cookieKeys, form, uid, single(fields, 'csrf'))) {
      metrics.signIns.inc({ outcome: 'forbidden' });
      forbidden(ctx);
      return undefined;
    }
    const login = await pending(ctx, uid);
    return login ? { login, fields } : undefined;
  }

  /** Whether the throttle lets `key` try from this address; a 429 page has been sent when not. */
  async function allowed(ctx: Context, key: string): Promise<boolean> {
    const allowance = await deps.throttle.check(key, ctx.ip);
    if (allowance.allowed) return true;
    metrics.signIns.inc({ outcome: 'throttled' });
    logger.info({ ip: ctx.ip, reason: allowance.reason }, 'sign-in throttled');
    tooManyAttempts(ctx, allowance);
    return false;
  }

  async function postLogin(ctx: Context, uid: string) {
    const posted = await formFor(ctx, uid, 'login');
    if (!posted) return;
    const { login, fields } = posted;
    const clientId = login.client.clientId;

    const email = single(fields, 'email') ?? '';
    const password = single(fields, 'password') ?? '';
    const key = accountKey(normaliseEmail(email));
    if (!(await allowed(ctx, key))) return;

    const result = await checkPassword(deps.db, email, password);
    if (!result.verified) {
      await deps.throttle.recordFailure(key, ctx.ip);
      metrics.signIns.inc({ outcome: 'refused' });
      logger.info({ ip: ctx.ip, client_id: clientId }, 'sign-in refused: wrong email or password');
      return showLogin(ctx, login, 422, email.trim(), WRONG_CREDENTIALS);
    }

    return passwordPassed(ctx, login, result.account, key);
  }

  /**
   * A password passed (the login form), or an account was just made with one (sign-up): by
   * `afterPassword`, signed in, or the second-factor page, or the enrolment page. `key` is the
   * account's login-throttle key.
   */
  async function passwordPassed(ctx: Context, login: PendingLogin, account: VerifiedAccount, key: string) {
    const clientId = login.client.clientId;
    const next = afterPassword(account, { requireTotp: deps.totp.required });
    const accountId = account.id;
    // The (account, IP) failure counter is cleared only when the whole sign-in succeeds: clearing
    // it on the password would let someone who has the password retry codes without limit.
    switch (next.step) {
      case 'done':
        await deps.throttle.recordSuccess(key, ctx.ip);
        return finish(ctx, login, next, {});
      case 'second_factor':
        await savePendingStep(login.details, { step: 'second_factor', accountId, throttleKey: key });
        logger.info(
          { ip: ctx.ip, client_id: clientId, account_id: accountId },
          'sign-in: password passed, second factor asked',
        );
        return showSecondFactor(ctx, login, 200);
      case 'enrol': {
        const step = {
          step: 'enrol',
          accountId,
          throttleKey: key,
          email: account.email,
          secret: generateTotpSecret(),
        } as const;
        await savePendingStep(login.details, step);
        logger.info(
          { ip: ctx.ip, client_id: clientId, account_id: accountId },
          'sign-in: password passed, enrolment required',
        );
        return showEnrol(ctx, login, step, 200);
      }
    }
  }

  async function postSecondFactor(ctx: Context, uid: string) {
    const posted = await formFor(ctx, uid, 'second-factor');
    if (!posted) return;
    const { login, fields } = posted;
    const step = pendingStep(login.details);
    if (step?.step !== 'second_factor') return expired(ctx);
    if (!(await allowed(ctx, step.throttleKey))) return;

    const result = await checkSecondFactor(deps.db, step.accountId, single(fields, 'code') ?? '');
    if (!result.verified) {
      await deps.throttle.recordFailure(step.throttleKey, ctx.ip);
      metrics.signIns.inc({ outcome: 'refused' });
      logger.info(
        { ip: ctx.ip, client_id: login.client.clientId, account_id: step.accountId },
        'sign-in refused: wrong second factor',
      );
      return showSecondFactor(ctx, login, 422, WRONG_CODE);
    }
    await deps.throttle.recordSuccess(step.throttleKey, ctx.ip);
    return finish(ctx, login, afterSecondFactor(step.accountId, result.method), {
      second_factor: result.method,
    });
  }

  async function postEnrol(ctx: Context, uid: string) {
    const posted = await formFor(ctx, uid, 'enrol');
    if (!posted) return;
    const { login, fields } = posted;
    const step = pendingStep(login.details);
    if (step?.step !== 'enrol') return expired(ctx);
    if (!(await allowed(ctx, step.throttleKey))) return;

    const result = await confirmEnrolment(deps.db, step.accountId, step.secret, single(fields, 'code') ?? '');
    if (!result.enrolled && result.reason === 'wrong_code') {
      await deps.throttle.recordFailure(step.throttleKey, ctx.ip);
      metrics.signIns.inc({ outcome: 'refused' });
      logger.info({ ip: ctx.ip, account_id: step.accountId }, 'sign-in: enrolment code refused');
      return showEnrol(ctx, login, step, 422, WRONG_ENROL_CODE);
    }
    if (!result.enrolled) {
      // Enrolled meanwhile (another tab, the account console): this secret is not the account's.
      await savePendingStep(login.details, undefined);
      return page(
        ctx,
        409,
        messagePage(
          'Sign-in expired',
          'Two-factor authentication was set up for this account elsewhere meanwhile.',
          'Go back to the application and sign in again.',
        ),
      );
    }
    await deps.throttle.recordSuccess(step.throttleKey, ctx.ip);
    await savePendingStep(login.details, {
      step: 'enrolled',
      accountId: step.accountId,
      throttleKey: step.throttleKey,
    });
    logger.info({ ip: ctx.ip, account_id: step.accountId }, 'second factor enrolled');
    page(
      ctx,
      200,
      recoveryCodesPage({ codes: result.recoveryCodes, next: { form: continueForm(login) } }),
      targets(login),
    );
  }

  async function postContinue(ctx: Context, uid: string) {
    const posted = await formFor(ctx, uid, 'continue');
    if (!posted) return;
    const step = pendingStep(posted.login.details);
    if (step?.step !== 'enrolled') return expired(ctx);
    return finish(ctx, posted.login, afterEnrolment(step.accountId), { second_factor: 'enrolled' });
  }

  const signup =
    deps.signupThrottle &&
    signupRoutes({
      deps,
      throttle: deps.signupThrottle,
      pending,
      page,
      formTargets: targets,
      forbidden,
      passwordPassed: (ctx, login, account) =>
        passwordPassed(ctx, login, account, accountKey(normaliseEmail(account.email))),
    });

  const POSTS: Record<FormName, (ctx: Context, uid: string) => Promise<void>> = {
    login: postLogin,
    'second-factor': postSecondFactor,
    enrol: postEnrol,
    continue: postContinue,
  };

  /** Our handler for this request, or undefined when it is not ours. */
  function handlerFor(ctx: Context): (() => Promise<void> | void) | undefined {
    const { path, method } = ctx;
    if (path === STYLESHEET_PATH && (method === 'GET' || method === 'HEAD')) {
      return () => {
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.type = 'text/css';
        ctx.body = STYLESHEET;
      };
    }
    if (path === LOGOUT_CONFIRM && method === 'POST' && !fromOwnPage(ctx, issuerOrigin)) {
      return () => forbidden(ctx);
    }
    const formPath = FORM.exec(path);
    const interactionPath = INTERACTION.exec(path);
    if (interactionPath && (method === 'GET' || method === 'HEAD')) {
      return () => getStep(ctx, interactionPath[1]!);
    }
    if (formPath && method === 'POST') return () => POSTS[formPath[2] as FormName](ctx, formPath[1]!);
    const signupPath = SIGNUP.exec(path);
    if (signupPath && !signup) {
      return () => page(ctx, 404, messagePage('Page not found', 'There is no such page.'));
    }
    if (signupPath && (method === 'GET' || method === 'HEAD')) return () => signup!.show(ctx, signupPath[1]!);
    if (signupPath && method === 'POST') return () => signup!.submit(ctx, signupPath[1]!);
    if (!formPath && !interactionPath && !signupPath) return undefined;
    return () => notAllowed(ctx, formPath ? 'POST' : signupPath ? 'GET, HEAD, POST' : 'GET, HEAD');
  }

  return async (ctx, next) => {
    const handle = handlerFor(ctx);
    if (!handle) {
      await next();
      return;
    }
    (ctx.state as { route?: string }).route = routeLabel(ctx.path, LOGOUT_CONFIRM);
    try {
      await handle();
    } catch (err) {
      if (err instanceof FormError) {
        return page(ctx, err.status, messagePage('Sign-in refused', err.message));
      }
      if (
        err instanceof LoginThrottleUnavailable ||
        err instanceof SignupThrottleUnavailable ||
        err instanceof DependencyUnavailable ||
        isConnectionError(err)
      ) {
        const counter = SIGNUP.test(ctx.path) ? metrics.signUps : metrics.signIns;
        counter.inc({ outcome: 'unavailable' });
        if (!(err instanceof LoginThrottleUnavailable || err instanceof SignupThrottleUnavailable)) {
          logger.warn({ err: (err as Error).message }, 'sign-in unavailable: database');
        }
        return unavailable(ctx);
      }
      logger.error({ err }, 'sign-in page failed');
      page(
        ctx,
        500,
        messagePage('Something went wrong', 'Sign-in failed on our side. Please try again later.'),
      );
    }
  };
}
