import type { Context } from 'koa';
import type { VerifiedAccount } from '../users/sign-in';
import type { PendingLogin } from './pending-login';
import { savePendingStep } from './pending-step';
import { tooManyAttempts } from './responses';
import type { InteractionDeps } from './sign-in-deps';
import type { SignInPages } from './sign-in-pages';
import { type SignedIn, afterPassword } from './sign-in-steps';

/** How the steps of a sign-in go on: the throttle's check, the next step, and the end. */
export interface SignInFlow {
  /** Whether the throttle lets `key` try from this address; a 429 page has been sent when not. */
  allowed(ctx: Context, key: string): Promise<boolean>;
  /**
   * A password passed (the login form), or an account was just made with one (sign-up): by
   * `afterPassword`, signed in, or the second-factor page, or the enrolment page. `key` is the
   * account's login-throttle key.
   */
  passwordPassed(ctx: Context, login: PendingLogin, account: VerifiedAccount, key: string): Promise<void>;
  /** The last step passed: the interaction's result, and back to the provider (which signs in). */
  finish(ctx: Context, login: PendingLogin, next: SignedIn, how: Record<string, string>): Promise<void>;
}

/** What every step of the sign-in router is built from. */
export interface SignInKit {
  deps: InteractionDeps;
  pages: SignInPages;
  flow: SignInFlow;
}

export function signInFlow(deps: InteractionDeps, pages: SignInPages): SignInFlow {
  const { provider, logger, metrics } = deps;

  async function finish(ctx: Context, login: PendingLogin, next: SignedIn, how: Record<string, string>) {
    // A browser-session cookie (`remember: false`): closing the browser signs out here; the sign-in
    // itself lasts AUTH_SESSION_TTL_SECONDS at most. This result replaces the pending step.
    const returnTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { ...next.login, remember: false } },
      { mergeWithLastSubmission: false },
    );
    metrics.signIns.inc({ outcome: 'success' });
    logger.info(
      { ip: ctx.ip, client_id: login.client.clientId, account_id: next.login.accountId, ...how },
      'signed in',
    );
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(returnTo);
    ctx.status = 303;
  }

  async function allowed(ctx: Context, key: string): Promise<boolean> {
    const allowance = await deps.throttle.check(key, ctx.ip);
    if (allowance.allowed) return true;
    metrics.signIns.inc({ outcome: 'throttled' });
    logger.info({ ip: ctx.ip, reason: allowance.reason }, 'sign-in throttled');
    tooManyAttempts(ctx, allowance);
    return false;
  }

  async function passwordPassed(ctx: Context, login: PendingLogin, account: VerifiedAccount, key: string) {
    const clientId = login.client.clientId;
    const next = afterPassword(account, { requireTotp: deps.totp.required });
    const accountId = account.id;
    // The (account, IP) failure counter is cleared only when the whole sign-in succeeds: clearing
    // it on the password would let someone who has the password retry codes without limit.
    switch (next.step) {
      case 'done':
        await deps.throttle.recordSuccess(key, ctx.ip);
        return finish(ctx, login, next, {});
      case 'second_factor':
        await savePendingStep(login.details, { step: 'second_factor', accountId, throttleKey: key });
        logger.info(
          { ip: ctx.ip, client_id: clientId, account_id: accountId },
          'sign-in: password passed, second factor asked',
        );
        return pages.showSecondFactor(ctx, login, 200);
      case 'enrol': {
        const step = {
          step: 'enrol',
          accountId,
          throttleKey: key,
          email: account.email,
          sealedSecret: deps.totpSecrets.generate(accountId),
        } as const;
        await savePendingStep(login.details, step);
        logger.info(
          { ip: ctx.ip, client_id: clientId, account_id: accountId },
          'sign-in: password passed, enrolment required',
        );
        return pages.showEnrol(ctx, login, step, 200);
      }
    }
  }

  return { allowed, passwordPassed, finish };
}
