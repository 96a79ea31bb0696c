import { isRecentSignIn } from '../../provider/recent-sign-in';
import { signInOptions } from './account-home';
import { startAccountSignIn } from './account-sign-in';
import type { AccountKit } from './account-views';
import { type AccountMiddleware, signedInPerson } from './signed-in';

/**
 * The step before every form that changes how the person signs in (password, second factor,
 * recovery codes): the browser's sign-in (every step of it) must be at most
 * AUTH_REAUTH_MAX_AGE_SECONDS old. Otherwise nothing changes and the browser is sent to sign in
 * again (`prompt=login`: password, then the second factor, even though a provider session exists),
 * and comes back to `/account`, where the person sends the form again. A held session (a browser
 * left open, a stolen cookie) cannot change the credentials without them.
 */
export function recentSignInRequired(kit: AccountKit): AccountMiddleware {
  const { deps } = kit;
  const options = signInOptions(kit);
  return async (ctx, next) => {
    const who = signedInPerson(ctx);
    if (isRecentSignIn(who.session.loginTs, deps.reauthMaxAgeSeconds)) {
      await next();
      return;
    }
    deps.logger.info(
      { ip: ctx.ip, account_id: who.account.id, form: ctx.path },
      'account console: sign-in again asked',
    );
    startAccountSignIn(ctx, options, { email: who.account.email });
  };
}
