import { t } from '@secret-push/i18n';
import { isCurrentPassword } from '../../users/account-settings';
import { checkSecondFactor, regenerateRecoveryCodes } from '../../users/second-factor';
import { normaliseTotpCode } from '../../users/totp';
import { single } from '../form-body';
import type { AccountKit } from './account-views';
import { type AccountMiddleware, accountFields, signedInPerson } from './signed-in';

/** `POST /account/recovery-codes`: needs the current password or a TOTP code; a new set, shown once. */
export function recoveryCodesForm({ deps, views }: AccountKit): AccountMiddleware {
  const { db, logger } = deps;
  return async (ctx) => {
    const who = signedInPerson(ctx);
    if (!who.account.secondFactor) return views.backTo(ctx);
    const credential = single(accountFields(ctx), 'credential') ?? '';
    // Passwords are at least 12 characters: 6 digits can only be a code.
    const isCode = normaliseTotpCode(credential) !== undefined;
    const proved = await views.attempt(
      ctx,
      who,
      { password: !isCode },
      async () =>
        isCode
          ? (
              await checkSecondFactor(db, deps.totpSecrets, who.account.id, credential, {
                outbox: deps.outbox,
              })
            ).verified
          : await isCurrentPassword(db, who.account.id, credential),
      (right) => !right,
    );
    if (proved === undefined) return;
    if (!proved) return views.refused(ctx, who, 'recovery-codes', t('account.problem.wrongCredential'));
    const codes = await regenerateRecoveryCodes(db, who.account.id, deps.outbox);
    if (!codes) return views.backTo(ctx);
    logger.info({ ip: ctx.ip, account_id: who.account.id }, 'recovery codes regenerated');
    views.showCodes(ctx, codes);
  };
}
