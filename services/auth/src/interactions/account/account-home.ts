import { t } from '@secret-push/i18n';
import { messagePage } from '../../pages/message-page';
import { signInCancelledPage } from '../../pages/app-link';
import { page } from '../responses';
import { finishAccountSignIn, startAccountSignIn } from './account-sign-in';
import type { AccountKit } from './account-views';
import { type AccountMiddleware, signedIn } from './signed-in';

export const signInOptions = ({ deps }: AccountKit) => ({
  provider: deps.provider,
  issuer: deps.issuer,
  secureCookies: deps.secureCookies,
});

/**
 * `GET /account`: the page. The person is who oidc-provider's own session (its `auth_session`
 * cookie) says, while that sign-in is still good (the account enabled, the password not changed
 * since); without one, the console signs them in as an application would (account-sign-in.ts),
 * through every sign-in step.
 */
export function accountHome(kit: AccountKit): AccountMiddleware {
  const options = signInOptions(kit);
  return async (ctx) => {
    const who = await signedIn(ctx, kit.deps);
    if (!who) return startAccountSignIn(ctx, options);
    kit.views.showAccount(ctx, who);
  };
}

/** `GET /account/callback`: the end of that sign-in. */
export function accountCallback(kit: AccountKit): AccountMiddleware {
  const options = signInOptions(kit);
  return async (ctx) => {
    const end = await finishAccountSignIn(ctx, options);
    if (end === 'signed-in-again') return kit.views.backTo(ctx, 'signed-in-again');
    if (end === 'signed-in') return kit.views.backTo(ctx);
    if (end === 'cancelled') return page(ctx, 200, signInCancelledPage(kit.deps.app));
    page(
      ctx,
      400,
      messagePage(
        t('account.signInFailed.title'),
        t('account.signInFailed.text'),
        t('account.signInFailed.detail'),
      ),
    );
  };
}
