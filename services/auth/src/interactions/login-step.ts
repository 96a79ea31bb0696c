import { t } from '@secret-push/i18n';
import { accountKey } from '../policy/login-throttle';
import { normaliseEmail } from '../users/email';
import { checkPassword } from '../users/sign-in';
import { single } from './form-body';
import { type SignInMiddleware, pendingLogin, postedFields } from './pending-login';
import type { SignInKit } from './sign-in-flow';

/**
 * `POST /interaction/:uid/login`: checks the email and password; then, by `afterPassword`
 * (sign-in-steps.ts): signed in (303 to the provider's resume URL, which redirects to the
 * application with a code), or the second-factor page, or the enrolment page. Wrong → the page
 * again, 422, "Incorrect email or password.", the email kept, never the password.
 */
export function loginStep({ deps, pages, flow }: SignInKit): SignInMiddleware {
  const { logger, metrics } = deps;
  return async (ctx) => {
    const login = pendingLogin(ctx);
    const fields = postedFields(ctx);
    const clientId = login.client.clientId;

    const email = single(fields, 'email') ?? '';
    const password = single(fields, 'password') ?? '';
    const key = accountKey(normaliseEmail(email));
    const attempt = await flow.attempt(
      ctx,
      { account: key, password: true },
      () => checkPassword(deps.db, email, password),
      (checked) => !checked.verified,
    );
    if (!attempt) return;

    const result = attempt.result;
    if (!result.verified) {
      metrics.signIns.inc({ outcome: 'refused' });
      logger.info({ ip: ctx.ip, client_id: clientId }, 'sign-in refused: wrong email or password');
      return pages.showLogin(ctx, login, 422, email.trim(), t('errors.wrongCredentials'));
    }

    return flow.passwordPassed(ctx, login, result.account, key);
  };
}
