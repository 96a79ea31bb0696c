import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { AttemptScope, Attempted, LoginAllowance } from '../policy/login-throttle';
import type { VerifiedAccount } from '../users/sign-in';
import type { PendingLogin } from './pending-login';
import { savePendingStep } from './pending-step';
import { tooManyAttempts } from './responses';
import type { InteractionDeps } from './sign-in-deps';
import type { SignInPages } from './sign-in-pages';
import { type SignedIn, afterPassword } from './sign-in-steps';

type Checked<T> = Extract<Attempted<T>, { allowed: true }>;

/** How the steps of a sign-in go on: the throttle's attempt, the next step, and the end. */
export interface SignInFlow {
  /**
   * One attempt at a password or code, counted by the login throttle before `check` runs (given
   * back when not `failed`); undefined when the throttle refused it: a 429 page has been sent.
   */
  attempt<T>(
    ctx: Context,
    scope: Omit<AttemptScope, 'ip'>,
    check: () => Promise<T>,
    failed: (result: T) => boolean,
  ): Promise<Checked<T> | undefined>;
  /** The throttle refused an attempt: counted, logged, and a 429 page. */
  throttled(ctx: Context, refusal: Extract<LoginAllowance, { allowed: false }>): void;
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

  function throttled(ctx: Context, refusal: Extract<LoginAllowance, { allowed: false }>): void {
    metrics.signIns.inc({ outcome: 'throttled' });
    logger.info({ ip: ctx.ip, reason: refusal.reason }, 'sign-in throttled');
    tooManyAttempts(ctx, refusal);
  }

  async function attempt<T>(
    ctx: Context,
    scope: Omit<AttemptScope, 'ip'>,
    check: () => Promise<T>,
    failed: (result: T) => boolean,
  ): Promise<Checked<T> | undefined> {
    const attempted = await deps.throttle.attempt({ ...scope, ip: ctx.ip }, check, failed);
    if (attempted.allowed) return attempted;
    throttled(ctx, attempted);
    return undefined;
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
        await savePendingStep(login.details, {
          step: 'second_factor',
          accountId,
          throttleKey: key,
          codesKey: randomUUID(),
        });
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

  return { attempt, throttled, passwordPassed, finish };
}
