import { checkSecondFactor } from '../users/second-factor';
import { single } from './form-body';
import { type SignInMiddleware, pendingLogin, postedFields } from './pending-login';
import { pendingStep } from './pending-step';
import { expired } from './responses';
import type { SignInKit } from './sign-in-flow';
import { afterSecondFactor } from './sign-in-steps';

const WRONG_CODE = 'Incorrect code. Try the code your app shows now, or another recovery code.';

/**
 * `POST /interaction/:uid/second-factor`: a TOTP code or a recovery code; right → signed in;
 * wrong → 422, counted by the login throttle like a wrong password.
 */
export function secondFactorStep({ deps, pages, flow }: SignInKit): SignInMiddleware {
  const { logger, metrics } = deps;
  return async (ctx) => {
    const login = pendingLogin(ctx);
    const step = pendingStep(login.details);
    if (step?.step !== 'second_factor') return expired(ctx);
    if (!(await flow.allowed(ctx, step.throttleKey))) return;

    const code = single(postedFields(ctx), 'code') ?? '';
    const result = await checkSecondFactor(deps.db, deps.totpSecrets, step.accountId, code);
    if (!result.verified) {
      await deps.throttle.recordFailure(step.throttleKey, ctx.ip);
      metrics.signIns.inc({ outcome: 'refused' });
      logger.info(
        { ip: ctx.ip, client_id: login.client.clientId, account_id: step.accountId },
        'sign-in refused: wrong second factor',
      );
      return pages.showSecondFactor(ctx, login, 422, WRONG_CODE);
    }
    await deps.throttle.recordSuccess(step.throttleKey, ctx.ip);
    return flow.finish(ctx, login, afterSecondFactor(step.accountId, result.method), {
      second_factor: result.method,
    });
  };
}
