import type { Context } from 'koa';
import { messagePage } from '../pages/message-page';
import { signupPage } from '../pages/signup-page';
import type { SignupThrottle } from '../policy/signup-throttle';
import { PASSWORD_MIN_CHARACTERS } from '../users/password';
import { type SignUpProblem, signUp, signUpProblem } from '../users/self-signup';
import { formToken, formTokenValid, fromOwnPage } from './csrf';
import { readForm, single } from './form-body';
import type { InteractionDeps, PendingLogin } from './routes';
import type { VerifiedAccount } from '../users/sign-in';

/** The form token's purpose: a login form's token is not good here, nor this one there. */
const SIGNUP_PURPOSE = 'signup';

/** What the sign-up pages borrow from the login routes (interactions/routes.ts). */
export interface SignupRouteDeps {
  deps: InteractionDeps;
  throttle: SignupThrottle;
  /** The pending login `uid`, or undefined once a page saying why not has been sent. */
  pending(ctx: Context, uid: string): Promise<PendingLogin | undefined>;
  page(ctx: Context, status: number, body: string, formTargets?: (string | undefined)[]): void;
  formTargets(login: PendingLogin): (string | undefined)[];
  forbidden(ctx: Context): void;
  /** Carries on the sign-in of a new account exactly as after a correct password. */
  passwordPassed(ctx: Context, login: PendingLogin, account: VerifiedAccount): Promise<void>;
}

/**
 * The self sign-up page of a pending sign-in (AUTH_SELF_SIGNUP), inside the same interaction as
 * the login page, with its layout, CSP and CSRF checks:
 *
 * - `GET /interaction/:uid/signup`: email, password, password again.
 * - `POST /interaction/:uid/signup`: checked like the login form (same origin, a form token of its
 *   own purpose); a form the rules refuse (invalid email, short password, passwords that differ)
 *   is shown again, 422, the email kept; then one attempt is counted for the IP (429 over the cap,
 *   503 without Redis); an email that already has an account is shown again, 422, nothing changed;
 *   otherwise the account is created (email not verified) and the sign-in continues exactly as a
 *   correct password does (`afterPassword`).
 */
export function signupRoutes(s: SignupRouteDeps) {
  const { deps, throttle } = s;
  const { logger, metrics } = deps;
  const issuerOrigin = new URL(deps.issuer).origin;

  function showSignup(
    ctx: Context,
    login: PendingLogin,
    status: number,
    email?: string,
    problem?: SignUpProblem,
  ) {
    const uid = login.details.uid;
    s.page(
      ctx,
      status,
      signupPage({
        action: `/interaction/${uid}/signup`,
        csrfToken: formToken(deps.cookieKeys, SIGNUP_PURPOSE, uid),
        loginUrl: `/interaction/${uid}`,
        clientName: login.client.clientName ?? login.client.clientId,
        passwordMinCharacters: PASSWORD_MIN_CHARACTERS,
        email,
        error: problem?.message,
        errorField: problem?.field,
      }),
      s.formTargets(login),
    );
  }

  async function show(ctx: Context, uid: string): Promise<void> {
    const login = await s.pending(ctx, uid);
    if (login) showSignup(ctx, login, 200);
  }

  async function submit(ctx: Context, uid: string): Promise<void> {
    if (!fromOwnPage(ctx, issuerOrigin)) {
      metrics.signUps.inc({ outcome: 'forbidden' });
      return s.forbidden(ctx);
    }
    const form = await readForm(ctx);
    if (!formTokenValid(deps.cookieKeys, SIGNUP_PURPOSE, uid, single(form, 'csrf'))) {
      metrics.signUps.inc({ outcome: 'forbidden' });
      return s.forbidden(ctx);
    }
    const login = await s.pending(ctx, uid);
    if (!login) return;
    const clientId = login.client.clientId;
    const fields = {
      email: single(form, 'email') ?? '',
      password: single(form, 'password') ?? '',
      passwordAgain: single(form, 'password_again') ?? '',
    };
    const email = fields.email.trim();

    const problem = signUpProblem(fields);
    if (problem) {
      metrics.signUps.inc({ outcome: 'refused' });
      return showSignup(ctx, login, 422, email, problem);
    }
    const allowance = await throttle.admit(ctx.ip);
    if (!allowance.allowed) {
      metrics.signUps.inc({ outcome: 'throttled' });
      logger.info({ ip: ctx.ip }, 'sign-up throttled');
      ctx.set('Retry-After', String(allowance.retryAfterSeconds));
      const minutes = Math.ceil(allowance.retryAfterSeconds / 60);
      return s.page(
        ctx,
        429,
        messagePage(
          'Too many new accounts',
          `Too many accounts were created from your network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        ),
      );
    }
    const result = await signUp(deps.db, fields);
    if (!result.created) {
      metrics.signUps.inc({ outcome: 'taken' });
      logger.info({ ip: ctx.ip, client_id: clientId }, 'sign-up refused: email taken');
      return showSignup(ctx, login, 422, email, result.problem);
    }
    metrics.signUps.inc({ outcome: 'created' });
    logger.info(
      { ip: ctx.ip, client_id: clientId, account_id: result.account.id },
      'account created (self sign-up)',
    );
    return s.passwordPassed(ctx, login, result.account);
  }

  return { show, submit };
}
