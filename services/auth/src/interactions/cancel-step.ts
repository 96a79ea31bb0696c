import { type SignInMiddleware, pendingLogin } from './pending-login';
import type { SignInKit } from './sign-in-flow';

/**
 * `POST /interaction/:uid/cancel`: "Cancel" on the login or second-factor page. The interaction
 * ends with `access_denied` (nobody is signed in, a step already passed is forgotten), and the
 * provider sends the browser back to the application's redirect_uri with that error and the
 * application's `state`: the application says the sign-in was cancelled.
 */
export function cancelStep({ deps }: SignInKit): SignInMiddleware {
  const { provider, logger, metrics } = deps;
  return async (ctx) => {
    const login = pendingLogin(ctx);
    const returnTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { error: 'access_denied', error_description: 'The sign-in was cancelled.' },
      { mergeWithLastSubmission: false },
    );
    metrics.signIns.inc({ outcome: 'cancelled' });
    logger.info({ ip: ctx.ip, client_id: login.client.clientId }, 'sign-in cancelled');
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(returnTo);
    ctx.status = 303;
  };
}
