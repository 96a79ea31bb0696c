import { t } from '@secret-push/i18n';
import { messagePage } from '../pages/message-page';
import { recoveryCodesPage } from '../pages/recovery-codes-page';
import { confirmEnrolment } from '../users/second-factor';
import { single } from './form-body';
import { type SignInMiddleware, formTargets, pendingLogin, postedFields } from './pending-login';
import { pendingStep, savePendingStep } from './pending-step';
import { expired, page } from './responses';
import type { SignInKit } from './sign-in-flow';
import { afterEnrolment } from './sign-in-steps';

/**
 * `POST /interaction/:uid/enrol`: the code confirming a new TOTP secret (AUTH_REQUIRE_TOTP) →
 * the recovery codes, shown once, with a form to `…/continue` (continueStep).
 */
export function enrolmentStep({ deps, pages, flow }: SignInKit): SignInMiddleware {
  const { logger, metrics } = deps;
  return async (ctx) => {
    const login = pendingLogin(ctx);
    const step = pendingStep(login.details);
    if (step?.step !== 'enrol') return expired(ctx);
    const code = single(postedFields(ctx), 'code') ?? '';
    const attempt = await flow.attempt(
      ctx,
      { account: step.throttleKey },
      () =>
        confirmEnrolment(deps.db, deps.totpSecrets, step.accountId, step.sealedSecret, code, {
          outbox: deps.outbox,
        }),
      (enrolment) => !enrolment.enrolled && enrolment.reason === 'wrong_code',
    );
    if (!attempt) return;
    const result = attempt.result;
    if (!result.enrolled && result.reason === 'wrong_code') {
      metrics.signIns.inc({ outcome: 'refused' });
      logger.info({ ip: ctx.ip, account_id: step.accountId }, 'sign-in: enrolment code refused');
      return pages.showEnrol(ctx, login, step, 422, t('factor.enrol.wrongCode'));
    }
    if (!result.enrolled) {
      // Enrolled meanwhile (another tab, the account console): this secret is not the account's.
      await savePendingStep(login.details, undefined);
      return page(
        ctx,
        409,
        messagePage(t('messages.expired.title'), t('factor.enrol.elsewhere'), t('messages.expired.again')),
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
      recoveryCodesPage({ codes: result.recoveryCodes, next: { form: pages.continueForm(login) } }),
      formTargets(login),
    );
  };
}

/** `POST /interaction/:uid/continue`: after the recovery codes of an enrolment, finishes the sign-in. */
export function continueStep({ flow }: SignInKit): SignInMiddleware {
  return async (ctx) => {
    const login = pendingLogin(ctx);
    const step = pendingStep(login.details);
    if (step?.step !== 'enrolled') return expired(ctx);
    return flow.finish(ctx, login, afterEnrolment(step.accountId), { second_factor: 'enrolled' });
  };
}
