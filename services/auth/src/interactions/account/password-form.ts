import { changePassword } from '../../users/account-settings';
import { single } from '../form-body';
import type { AccountKit } from './account-views';
import { type AccountMiddleware, accountFields, signedInPerson } from './signed-in';

const epochNow = (): number => Math.floor(Date.now() / 1000);

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
      if (result.wrongPassword) return views.refused(ctx, who, 'password', result.problem);
      return views.showAccount(ctx, who, 422, { form: 'password', message: result.problem });
    }
    // This browser stays signed in: its sign-in time becomes the change's (not before it).
    who.session.loginTs = Math.max(epochNow(), Math.ceil(result.changedAt.getTime() / 1000));
    await who.session.persist();
    deps.logger.info({ ip: ctx.ip, account_id: who.account.id }, 'account console: password changed');
    views.backTo(ctx, 'password');
  };
}
