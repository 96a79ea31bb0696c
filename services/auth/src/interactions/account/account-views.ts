import type { Context } from 'koa';
import { t } from '@secret-push/i18n';
import { type AccountForm, accountPage } from '../../pages/account-page';
import { enrolPage } from '../../pages/enrol-page';
import { messagePage } from '../../pages/message-page';
import { qrSvg } from '../../pages/qr';
import { recoveryCodesPage } from '../../pages/recovery-codes-page';
import { accountKey } from '../../policy/login-throttle';
import { ACCOUNT_CONSOLE_CLIENT_ID } from '../../provider/account-console-client';
import { PASSWORD_MIN_CHARACTERS } from '../../users/password';
import { totpUri } from '../../users/totp';
import { formToken } from '../csrf';
import { page } from '../responses';
import type { AccountConsoleDeps, Session, SignedIn } from './signed-in';

/** The CSRF purpose of the console's forms (their token is bound to the provider session). */
export const CSRF_PURPOSE = 'account';

/** What a form did, shown on /account after its redirect (`?done=`): fixed texts only (their keys). */
const NOTICES: Record<string, string> = {
  password: 'account.notice.password',
  'two-factor-off': 'account.notice.twoFactorOff',
  sessions: 'account.notice.sessions',
  'signed-in-again': 'account.notice.signedInAgain',
};

/** The account console's answers, which more than one of its sections gives. */
export interface AccountViews {
  csrfOf(session: Session): string;
  showAccount(
    ctx: Context,
    who: SignedIn,
    status?: number,
    error?: { form: AccountForm; message: string },
  ): void;
  /** 303 back to /account, with the notice of `done`. */
  backTo(ctx: Context, done?: string): void;
  /** The enrolment page of `sealedSecret` (opened here, to be shown). */
  showEnrol(ctx: Context, who: SignedIn, sealedSecret: string, status: number, error?: string): Promise<void>;
  /** New recovery codes, shown once. */
  showCodes(ctx: Context, codes: string[]): void;
  /**
   * One attempt at this account's password (`password`) or a code, taken from the login throttle's
   * counters before `check` runs and given back unless `failed` (as at sign-in; the account named
   * as there, accountKey of the normalised email). Undefined when refused: a 429 page was sent.
   */
  attempt<T>(
    ctx: Context,
    who: SignedIn,
    how: { password: boolean },
    check: () => Promise<T>,
    failed: (result: T) => boolean,
  ): Promise<T | undefined>;
  /** A wrong password or code (counted by `attempt`): logged, and the page again with `message`. */
  refused(ctx: Context, who: SignedIn, form: AccountForm, message: string): void;
}

export function accountViews(deps: AccountConsoleDeps): AccountViews {
  const { provider, logger, throttle } = deps;
  const signOutHref = `${provider.pathFor('end_session')}?client_id=${ACCOUNT_CONSOLE_CLIENT_ID}`;
  const csrfOf = (session: Session) => formToken(deps.cookieKeys, CSRF_PURPOSE, session.jti);

  function showAccount(
    ctx: Context,
    { session, account }: SignedIn,
    status = 200,
    error?: { form: AccountForm; message: string },
  ) {
    const key =
      typeof ctx.query.done === 'string' && Object.hasOwn(NOTICES, ctx.query.done)
        ? NOTICES[ctx.query.done]
        : undefined;
    const done = key ? t(key) : undefined;
    page(
      ctx,
      status,
      accountPage({
        email: account.email,
        secondFactor: account.secondFactor,
        recoveryCodesLeft: account.recoveryCodesLeft,
        passwordMinLength: PASSWORD_MIN_CHARACTERS,
        secondFactorLocked: account.secondFactorLocked,
        totpRequired: deps.totp.required,
        csrfToken: csrfOf(session),
        notice: error ? undefined : done,
        error,
        signOutHref,
        app: deps.app,
      }),
    );
  }

  return {
    csrfOf,
    showAccount,

    backTo(ctx, done) {
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(done ? `/account?done=${done}` : '/account');
      ctx.status = 303;
    },

    async showEnrol(ctx, who, sealedSecret, status, error) {
      const secret = deps.totpSecrets.open(who.account.id, sealedSecret);
      page(
        ctx,
        status,
        enrolPage({
          action: '/account/two-factor/confirm',
          csrfToken: csrfOf(who.session),
          lead: t('account.enrol.lead'),
          qr: await qrSvg(totpUri(secret, who.account.email, deps.totp.issuer)),
          secret,
          error,
          cancelHref: '/account',
        }),
      );
    },

    showCodes: (ctx, codes) =>
      page(
        ctx,
        200,
        recoveryCodesPage({ codes, next: { link: { href: '/account', label: t('account.backToAccount') } } }),
      ),

    async attempt(ctx, who, how, check, failed) {
      const scope = { account: accountKey(who.account.email), ip: ctx.ip, password: how.password };
      const attempted = await throttle.attempt(scope, check, failed);
      if (attempted.allowed) return attempted.result;
      ctx.set('Retry-After', String(attempted.retryAfterSeconds));
      page(ctx, 429, messagePage(t('account.tooMany.title'), t('account.tooMany.text')));
      return undefined;
    },

    refused(ctx, who, form, message) {
      logger.info(
        { ip: ctx.ip, account_id: who.account.id, form },
        'account console: wrong password or code',
      );
      showAccount(ctx, who, 422, { form, message });
    },
  };
}

/** What every section of the console is built from. */
export interface AccountKit {
  deps: AccountConsoleDeps;
  views: AccountViews;
}
