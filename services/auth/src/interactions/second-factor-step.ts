import type { Context } from 'koa';
import { t } from '@secret-push/i18n';
import { INTERACTION_TTL_SECONDS } from '../provider/sign-in';
import { SECOND_FACTOR_LOCK_AFTER, checkSecondFactor } from '../users/second-factor';
import { single } from './form-body';
import { type PendingLogin, type SignInMiddleware, pendingLogin, postedFields } from './pending-login';
import { pendingStep, savePendingStep } from './pending-step';
import { expired } from './responses';
import type { SignInKit } from './sign-in-flow';
import { afterSecondFactor } from './sign-in-steps';

/** Codes one pending sign-in may try (one password typed); then the password must be typed again. */
export const SECOND_FACTOR_CODES_PER_SIGN_IN = 5;

/**
 * `POST /interaction/:uid/second-factor`: a TOTP code or a recovery code; right → signed in;
 * wrong → 422. Each code is taken, before it is checked, from the login throttle's counters (like a
 * password) and from this pending sign-in's own counter (SECOND_FACTOR_CODES_PER_SIGN_IN): the
 * last code it allows, if wrong, voids the pending sign-in (the login page again), and codes past
 * it are refused unchecked (429, the login page). Wrong codes in a row also count in the account
 * (users/second-factor.ts): at SECOND_FACTOR_LOCK_AFTER, TOTP codes are refused until a recovery
 * code is used or the operator unlocks the factor.
 */
export function secondFactorStep({ deps, pages, flow }: SignInKit): SignInMiddleware {
  const { logger, metrics } = deps;

  /** The pending sign-in is over: the password again, on the same interaction's login page. */
  async function signInAgain(ctx: Context, login: PendingLogin, status: number) {
    await savePendingStep(login.details, undefined);
    pages.showLogin(ctx, login, status, undefined, t('factor.signInAgain'));
  }

  return async (ctx) => {
    const login = pendingLogin(ctx);
    const step = pendingStep(login.details);
    if (step?.step !== 'second_factor') return expired(ctx);
    const code = single(postedFields(ctx), 'code') ?? '';
    const log = { ip: ctx.ip, client_id: login.client.clientId, account_id: step.accountId };

    const attempt = await deps.throttle.attempt(
      {
        account: step.throttleKey,
        ip: ctx.ip,
        codes: {
          key: step.codesKey ?? login.details.uid,
          max: SECOND_FACTOR_CODES_PER_SIGN_IN,
          ttlSeconds: INTERACTION_TTL_SECONDS,
        },
      },
      () => checkSecondFactor(deps.db, deps.totpSecrets, step.accountId, code, { outbox: deps.outbox }),
      (checked) => !checked.verified,
    );
    if (!attempt.allowed) {
      if (attempt.reason !== 'second_factor') return flow.throttled(ctx, attempt);
      metrics.signIns.inc({ outcome: 'throttled' });
      logger.info({ ...log, reason: attempt.reason }, 'sign-in throttled');
      return signInAgain(ctx, login, 429);
    }
    const result = attempt.result;
    if (!result.verified) {
      metrics.signIns.inc({ outcome: 'refused' });
      logger.info(log, 'sign-in refused: wrong second factor');
      if (result.failures === SECOND_FACTOR_LOCK_AFTER) {
        logger.warn(log, 'second factor locked: too many wrong codes in a row');
      }
      if (attempt.codesUsed >= SECOND_FACTOR_CODES_PER_SIGN_IN) return signInAgain(ctx, login, 422);
      return pages.showSecondFactor(
        ctx,
        login,
        422,
        result.locked ? t('factor.locked') : t('factor.wrongCode'),
      );
    }
    await deps.throttle.recordSuccess(step.throttleKey, ctx.ip);
    return flow.finish(ctx, login, afterSecondFactor(step.accountId, result.method), {
      second_factor: result.method,
    });
  };
}
