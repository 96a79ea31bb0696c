import { t } from '@secret-push/i18n';
import { type PasswordChangeProblem, changePassword } from '../../users/account-settings';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_CHARACTERS } from '../../users/password';
import { single } from '../form-body';
import type { AccountKit } from './account-views';
import { type AccountMiddleware, accountFields, signedInPerson } from './signed-in';

const epochNow = (): number => Math.floor(Date.now() / 1000);

/** A refused change in the page's language (the domain's `problem` stays English, for the log). */
function problemText(reason: PasswordChangeProblem): string {
  switch (reason) {
    case 'wrong_password':
      return t('account.problem.wrongCurrentPassword');
    case 'mismatch':
      return t('account.problem.mismatch');
    case 'too_long':
      return t('account.problem.tooLong', { max: PASSWORD_MAX_BYTES });
    case 'too_short':
      return t('account.problem.tooShort', { min: PASSWORD_MIN_CHARACTERS });
    case 'is_email':
      return t('account.problem.isEmail');
    case 'gone':
      return t('account.problem.gone');
  }
}

/**
 * `POST /account/password`: current password, the new one twice (the rules of `users create`).
 * The change ends the account's other sign-ins (password_changed_at); this browser's provider
 * session is kept (its sign-in time becomes the change's: the password was just proved).
 */
export function passwordForm({ deps, views }: AccountKit): AccountMiddleware {
  return async (ctx) => {
    const who = signedInPerson(ctx);
    const fields = accountFields(ctx);
    const input = {
      current: single(fields, 'current_password') ?? '',
      next: single(fields, 'new_password') ?? '',
      repeat: single(fields, 'repeat_password') ?? '',
    };
    const result = await views.attempt(
      ctx,
      who,
      { password: true },
      () => changePassword(deps.db, who.account.id, input, deps.outbox),
      (change) => !change.changed && change.wrongPassword,
    );
    if (!result) return;
    if (!result.changed) {
      const message = problemText(result.reason);
      if (result.wrongPassword) return views.refused(ctx, who, 'password', message);
      return views.showAccount(ctx, who, 422, { form: 'password', message });
    }
    // This browser stays signed in: its sign-in time becomes the change's (not before it).
    who.session.loginTs = Math.max(epochNow(), Math.ceil(result.changedAt.getTime() / 1000));
    await who.session.persist();
    deps.logger.info({ ip: ctx.ip, account_id: who.account.id }, 'account console: password changed');
    views.backTo(ctx, 'password');
  };
}
