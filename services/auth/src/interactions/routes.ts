import type { Context, Middleware } from 'koa';
import type { Kysely } from 'kysely';
import { type Provider, errors } from 'oidc-provider';
import { isConnectionError } from '@secret-push/db-kit';
import type { Logger } from '@secret-push/logger';
import { DependencyUnavailable } from '../errors';
import type { AuthMetrics } from '../observability/metrics';
import { loginPage } from '../pages/login-page';
import { messagePage } from '../pages/message-page';
import { formTarget, pageHeaders } from '../pages/page-headers';
import { STYLESHEET, STYLESHEET_PATH } from '../pages/stylesheet';
import { LoginThrottleUnavailable, type LoginThrottle, accountKey } from '../policy/login-throttle';
import { type SignupThrottle, SignupThrottleUnavailable } from '../policy/signup-throttle';
import { isFirstParty } from '../provider/api';
import type { AuthDatabase } from '../storage/database';
import { normaliseEmail } from '../users/email';
import { checkPassword } from '../users/sign-in';
import { formToken, formTokenValid, fromOwnPage } from './csrf';
import { FormError, readForm, single } from './form-body';
import { type SignInStep, afterPassword } from './sign-in-steps';
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
const LOGIN = /^\/interaction\/([A-Za-z0-9_-]{1,64})\/login$/;
const SIGNUP = /^\/interaction\/([A-Za-z0-9_-]{1,64})\/signup$/;
const LOGIN_PURPOSE = 'login';
const WRONG_CREDENTIALS = 'Incorrect email or password.';

/** Answers with one of our pages; `formTargets` are where its form's answer may redirect. */
function page(ctx: Context, status: number, body: string, formTargets: (string | undefined)[] = []): void {
  ctx.set(pageHeaders(formTargets));
  ctx.status = status;
  ctx.type = 'html';
  ctx.body = body;
}

const expired = (ctx: Context) =>
  page(
    ctx,
    400,
    messagePage('Sign-in expired', 'This sign-in has expired. Go back to the application and sign in again.'),
  );

const forbidden = (ctx: Context) =>
  page(
    ctx,
    403,
    messagePage(
      'Sign-in refused',
      'This form has expired or was not sent from its page. Go back and try again.',
    ),
  );

const unavailable = (ctx: Context) => {
  ctx.set('Retry-After', '30');
  page(ctx, 503, messagePage('Sign-in is unavailable right now', 'Please try again in a few minutes.'));
};

/** The request metrics' `route` label of our paths. */
function routeLabel(path: string, logoutConfirm: string): string {
  if (path === STYLESHEET_PATH) return 'static';
  if (path === logoutConfirm) return 'end_session_confirm';
  if (SIGNUP.test(path)) return 'interaction_signup';
  return LOGIN.test(path) ? 'interaction_login' : 'interaction';
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The login pages oidc-provider sends browsers to (`interactions.url`), and the same-origin check
 * of its logout confirmation. Mounted with `provider.use`, so it runs before the provider's routes;
 * every other request passes through untouched.
 *
 * - `GET /static/auth.css`: the pages' stylesheet.
 * - `GET /interaction/:uid`: the login page of a pending authorization request.
 * - `POST /interaction/:uid/login`: checks the email and password; right → back to the provider
 *   (303 to its resume URL, which redirects to the application with a code); wrong → the page again,
 *   422, "Incorrect email or password.", the email kept, never the password.
 * - `POST /connect/endsession/confirm`: refused (403 page) unless sent from our own page; oidc-provider
 *   then checks its CSRF token.
 *
 * - `GET`/`POST /interaction/:uid/signup`: self sign-up (interactions/signup.ts) when
 *   AUTH_SELF_SIGNUP is on (the login page then links to it); a 404 page when it is off.
 *
 * Only first-party clients (`clients create-web`) may use the login page; for any other the page
 * refuses (403) rather than ask for consent, which this service has no page for.
 */
export function interactionRoutes(deps: InteractionDeps): Middleware {
  const { provider, logger, metrics } = deps;
  const issuerOrigin = new URL(deps.issuer).origin;
  /** oidc-provider's RP-initiated logout confirmation, where its logout page posts. */
  const LOGOUT_CONFIRM = provider.pathFor('end_session_confirm');

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

  /** Where a form's answer may redirect: the application's redirect_uri (see `formTarget`). */
  const formTargets = ({ details }: PendingLogin) => [formTarget(text(details.params.redirect_uri))];

  function showLogin(
    ctx: Context,
    { details, client }: PendingLogin,
    status: number,
    email?: string,
    error?: string,
  ) {
    page(
      ctx,
      status,
      loginPage({
        action: `/interaction/${details.uid}/login`,
        csrfToken: formToken(deps.cookieKeys, LOGIN_PURPOSE, details.uid),
        clientName: client.clientName ?? client.clientId,
        email,
        error,
        signupUrl: deps.signupThrottle ? `/interaction/${details.uid}/signup` : undefined,
      }),
      formTargets({ details, client }),
    );
  }

  async function getLogin(ctx: Context, uid: string) {
    const login = await pending(ctx, uid);
    if (!login) return;
    const hint = text(login.details.params.login_hint);
    showLogin(ctx, login, 200, hint?.includes('@') ? hint : undefined);
  }

  async function postLogin(ctx: Context, uid: string) {
    if (!fromOwnPage(ctx, issuerOrigin)) {
      metrics.signIns.inc({ outcome: 'forbidden' });
      return forbidden(ctx);
    }
    const form = await readForm(ctx);
    if (!formTokenValid(deps.cookieKeys, LOGIN_PURPOSE, uid, single(form, 'csrf'))) {
      metrics.signIns.inc({ outcome: 'forbidden' });
      return forbidden(ctx);
    }
    const login = await pending(ctx, uid);
    if (!login) return;
    const clientId = login.client.clientId;

    const email = single(form, 'email') ?? '';
    const password = single(form, 'password') ?? '';
    const key = accountKey(normaliseEmail(email));
    const allowance = await deps.throttle.check(key, ctx.ip);
    if (!allowance.allowed) {
      metrics.signIns.inc({ outcome: 'throttled' });
      logger.info({ ip: ctx.ip, reason: allowance.reason }, 'sign-in throttled');
      ctx.set('Retry-After', String(allowance.retryAfterSeconds));
      const minutes = Math.ceil(allowance.retryAfterSeconds / 60);
      return page(
        ctx,
        429,
        messagePage(
          'Too many sign-in attempts',
          allowance.reason === 'account_slowed'
            ? 'Too many sign-in attempts for this account. Try again in a few seconds.'
            : `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        ),
      );
    }

    const result = await checkPassword(deps.db, email, password);
    if (!result.verified) {
      await deps.throttle.recordFailure(key, ctx.ip);
      metrics.signIns.inc({ outcome: 'refused' });
      logger.info({ ip: ctx.ip, client_id: clientId }, 'sign-in refused: wrong email or password');
      return showLogin(ctx, login, 422, email.trim(), WRONG_CREDENTIALS);
    }
    await deps.throttle.recordSuccess(key, ctx.ip);
    return continueSignIn(ctx, login, afterPassword(result.account));
  }

  /**
   * Carries on a sign-in whose step passed: the next step, or back to the provider (303 to its
   * resume URL, which redirects to the application with a code). The login form and the sign-up
   * form both end here.
   */
  async function continueSignIn(ctx: Context, login: PendingLogin, next: SignInStep) {
    const clientId = login.client.clientId;
    if (next.step === 'second_factor') {
      metrics.signIns.inc({ outcome: 'forbidden' });
      logger.warn(
        { account_id: next.accountId },
        'sign-in refused: second factor enrolled, not supported yet',
      );
      return page(
        ctx,
        403,
        messagePage(
          'Sign-in refused',
          'This account has a second factor, which this sign-in page cannot check yet.',
          'Ask the operator to remove it (secret-push-auth users reset-mfa).',
        ),
      );
    }
    // A browser-session cookie (`remember: false`): closing the browser signs out here; the sign-in
    // itself lasts AUTH_SESSION_TTL_SECONDS at most.
    const returnTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { ...next.login, remember: false } },
      { mergeWithLastSubmission: false },
    );
    metrics.signIns.inc({ outcome: 'success' });
    logger.info({ ip: ctx.ip, client_id: clientId, account_id: next.login.accountId }, 'signed in');
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(returnTo);
    ctx.status = 303;
  }

  const signup =
    deps.signupThrottle &&
    signupRoutes({
      deps,
      throttle: deps.signupThrottle,
      pending,
      page,
      formTargets,
      forbidden,
      continueSignIn,
    });

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
    const loginPath = LOGIN.exec(path);
    const interactionPath = INTERACTION.exec(path);
    if (interactionPath && (method === 'GET' || method === 'HEAD')) {
      return () => getLogin(ctx, interactionPath[1]!);
    }
    if (loginPath && method === 'POST') return () => postLogin(ctx, loginPath[1]!);
    const signupPath = SIGNUP.exec(path);
    if (signupPath && !signup) {
      return () => page(ctx, 404, messagePage('Page not found', 'There is no such page.'));
    }
    if (signupPath && (method === 'GET' || method === 'HEAD')) return () => signup!.show(ctx, signupPath[1]!);
    if (signupPath && method === 'POST') return () => signup!.submit(ctx, signupPath[1]!);
    if (!loginPath && !interactionPath && !signupPath) return undefined;
    return () => {
      ctx.set('Allow', loginPath ? 'POST' : signupPath ? 'GET, HEAD, POST' : 'GET, HEAD');
      page(ctx, 405, messagePage('Not allowed', 'This page cannot be used this way.'));
    };
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
