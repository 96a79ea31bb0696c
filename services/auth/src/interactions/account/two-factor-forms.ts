import { t } from '@secret-push/i18n';
import { isCurrentPassword } from '../../users/account-settings';
import { confirmEnrolment, removeSecondFactor } from '../../users/second-factor';
import { single } from '../form-body';
import type { AccountKit } from './account-views';
import { type AccountMiddleware, accountFields, signedInPerson } from './signed-in';

/** How long a secret shown for enrolment waits for its confirming code. */
const ENROLMENT_TTL_SECONDS = 15 * 60;

/**
 * Enrolment: `POST /account/two-factor/start` → the enrolment page (QR, secret as text), the
 * secret kept server-side for 15 min (oidc-provider's adapter, model `AccountEnrolment`), sealed by
 * the data key ring and bound to this session; `POST /account/two-factor/confirm` with a code of it → the recovery codes,
 * shown once. `POST /account/two-factor/remove`: needs the current password; refused with
 * AUTH_REQUIRE_TOTP.
 */
export function twoFactorForms({
  deps,
  views,
}: AccountKit): Record<'start' | 'confirm' | 'remove', AccountMiddleware> {
  const { db, logger } = deps;
  const enrolments = new deps.adapter('AccountEnrolment');

  const start: AccountMiddleware = async (ctx) => {
    const who = signedInPerson(ctx);
    if (who.account.secondFactor) return views.backTo(ctx);
    const sealedSecret = deps.totpSecrets.generate(who.account.id);
    await enrolments.upsert(
      who.session.jti,
      { accountId: who.account.id, sealedSecret },
      ENROLMENT_TTL_SECONDS,
    );
    await views.showEnrol(ctx, who, sealedSecret, 200);
  };

  const confirm: AccountMiddleware = async (ctx) => {
    const who = signedInPerson(ctx);
    const pending = (await enrolments.find(who.session.jti)) as
      { accountId?: string; sealedSecret?: string } | undefined;
    if (!pending?.sealedSecret || pending.accountId !== who.account.id) {
      return views.showAccount(ctx, who, 409, {
        form: 'two-factor/start',
        message: t('account.problem.setupExpired'),
      });
    }
    const code = single(accountFields(ctx), 'code') ?? '';
    const sealedSecret = pending.sealedSecret;
    const result = await views.attempt(
      ctx,
      who,
      { password: false },
      () =>
        confirmEnrolment(db, deps.totpSecrets, who.account.id, sealedSecret, code, { outbox: deps.outbox }),
      (enrolment) => !enrolment.enrolled && enrolment.reason === 'wrong_code',
    );
    if (!result) return;
    if (!result.enrolled && result.reason === 'wrong_code') {
      return views.showEnrol(ctx, who, pending.sealedSecret, 422, t('account.problem.wrongCode'));
    }
    await enrolments.destroy(who.session.jti);
    if (!result.enrolled) return views.backTo(ctx);
    logger.info({ ip: ctx.ip, account_id: who.account.id }, 'second factor enrolled');
    views.showCodes(ctx, result.recoveryCodes);
  };

  const remove: AccountMiddleware = async (ctx) => {
    const who = signedInPerson(ctx);
    if (deps.totp.required) {
      return views.showAccount(ctx, who, 403, {
        form: 'two-factor/remove',
        message: t('account.problem.totpRequired'),
      });
    }
    const password = single(accountFields(ctx), 'password') ?? '';
    const right = await views.attempt(
      ctx,
      who,
      { password: true },
      () => isCurrentPassword(db, who.account.id, password),
      (ok) => !ok,
    );
    if (right === undefined) return;
    if (!right) {
      return views.refused(ctx, who, 'two-factor/remove', t('account.problem.wrongPassword'));
    }
    await removeSecondFactor(db, who.account.id, deps.outbox);
    logger.info({ ip: ctx.ip, account_id: who.account.id }, 'second factor removed');
    views.backTo(ctx, 'two-factor-off');
  };

  return { start, confirm, remove };
}
