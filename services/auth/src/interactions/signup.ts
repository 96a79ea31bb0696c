import type { Context } from 'koa';
import { t } from '@secret-push/i18n';
import { messagePage } from '../pages/message-page';
import { signupPage } from '../pages/signup-page';
import { accountKey } from '../policy/login-throttle';
import type { SignupThrottle } from '../policy/signup-throttle';
import { emailProblem, normaliseEmail } from '../users/email';
import { PASSWORD_MIN_CHARACTERS } from '../users/password';
import { type SignUpForm, type SignUpProblem, signUp, signUpProblem } from '../users/self-signup';
import { formToken } from './csrf';
import { single } from './form-body';
import { passwordRuleText } from './password-rules';
import {
  type PendingLogin,
  type SignInMiddleware,
  clientName,
  formTargets,
  pendingLogin,
  postedFields,
} from './pending-login';
import { page } from './responses';
import type { SignInKit } from './sign-in-flow';

/** The form token's purpose: a login form's token is not good here, nor this one there. */
export const SIGNUP_PURPOSE = 'signup';

/*
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

/**
 * A problem of the form in the page's language: the same checks, in the same order, as
 * `signUpProblem` (whose words are English), or an email that is taken.
 */
function problemText(fields: SignUpForm, problem: SignUpProblem, taken: boolean): SignUpProblem {
  if (taken) return { field: 'email', message: t('signup.problem.taken') };
  const email = normaliseEmail(fields.email);
  if (emailProblem(email)) return { field: 'email', message: t('signup.problem.email') };
  const rule = passwordRuleText(fields.password, email);
  if (rule) return { field: 'password', message: rule };
  return { field: problem.field, message: t('signup.problem.mismatch') };
}

function showSignup(
  { deps }: SignInKit,
  ctx: Context,
  login: PendingLogin,
  status: number,
  email?: string,
  problem?: SignUpProblem,
) {
  const uid = login.details.uid;
  page(
    ctx,
    status,
    signupPage({
      action: `/interaction/${uid}/signup`,
      csrfToken: formToken(deps.cookieKeys, SIGNUP_PURPOSE, uid),
      loginUrl: `/interaction/${uid}`,
      clientName: clientName(login),
      passwordMinCharacters: PASSWORD_MIN_CHARACTERS,
      email,
      error: problem?.message,
      errorField: problem?.field,
    }),
    formTargets(login),
  );
}

/** `GET /interaction/:uid/signup`. */
export function signupPageStep(kit: SignInKit): SignInMiddleware {
  return (ctx) => showSignup(kit, ctx, pendingLogin(ctx), 200);
}

/** `POST /interaction/:uid/signup`, once the form passed its checks (sign-in-form.ts). */
export function signupStep(kit: SignInKit, throttle: SignupThrottle): SignInMiddleware {
  const { deps, flow } = kit;
  const { logger, metrics } = deps;
  return async (ctx) => {
    const login = pendingLogin(ctx);
    const form = postedFields(ctx);
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
      return showSignup(kit, ctx, login, 422, email, problemText(fields, problem, false));
    }
    const allowance = await throttle.admit(ctx.ip);
    if (!allowance.allowed) {
      metrics.signUps.inc({ outcome: 'throttled' });
      logger.info({ ip: ctx.ip }, 'sign-up throttled');
      ctx.set('Retry-After', String(allowance.retryAfterSeconds));
      const minutes = Math.ceil(allowance.retryAfterSeconds / 60);
      return page(
        ctx,
        429,
        messagePage(t('errors.signupThrottle.title'), t('errors.signupThrottle.text', { minutes })),
      );
    }
    const result = await signUp(deps.db, fields);
    if (!result.created) {
      metrics.signUps.inc({ outcome: 'taken' });
      logger.info({ ip: ctx.ip, client_id: clientId }, 'sign-up refused: email taken');
      return showSignup(kit, ctx, login, 422, email, problemText(fields, result.problem, true));
    }
    metrics.signUps.inc({ outcome: 'created' });
    logger.info(
      { ip: ctx.ip, client_id: clientId, account_id: result.account.id },
      'account created (self sign-up)',
    );
    const key = accountKey(normaliseEmail(result.account.email));
    return flow.passwordPassed(ctx, login, result.account, key);
  };
}
