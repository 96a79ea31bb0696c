import type { Context, Middleware } from 'koa';
import type { Kysely } from 'kysely';
import type { Adapter, Provider } from 'oidc-provider';
import { isConnectionError } from '@secret-push/db-kit';
import type { Logger } from '@secret-push/logger';
import { DependencyUnavailable } from '../errors';
import { type AccountForm, accountPage } from '../pages/account-page';
import { enrolPage } from '../pages/enrol-page';
import { messagePage } from '../pages/message-page';
import { qrSvg } from '../pages/qr';
import { recoveryCodesPage } from '../pages/recovery-codes-page';
import { LoginThrottleUnavailable, type LoginThrottle, accountKey } from '../policy/login-throttle';
import { ACCOUNT_CONSOLE_CLIENT_ID } from '../provider/account-console-client';
import { predatesPasswordChange } from '../provider/sign-in';
import { endOtherSessions } from '../storage/oidc-payload.repository';
import type { AuthDatabase } from '../storage/database';
import {
  type AccountOverview,
  accountOverview,
  changePassword,
  isCurrentPassword,
} from '../users/account-settings';
import {
  checkSecondFactor,
  confirmEnrolment,
  regenerateRecoveryCodes,
  removeSecondFactor,
} from '../users/second-factor';
import { findSignInAccount } from '../users/sign-in';
import { generateTotpSecret, normaliseTotpCode, totpUri } from '../users/totp';
import { finishAccountSignIn, startAccountSignIn } from './account-sign-in';
import { formToken, formTokenValid, fromOwnPage } from './csrf';
import { FormError, readForm, single } from './form-body';
import { notAllowed, page } from './responses';

export interface AccountConsoleDeps {
  provider: Provider;
  db: Kysely<AuthDatabase>;
  /** oidc-provider's storage adapter, which also keeps a pending enrolment (model `AccountEnrolment`). */
  adapter: new (model: string) => Adapter;
  throttle: LoginThrottle;
  cookieKeys: readonly string[];
  issuer: string;
  secureCookies: boolean;
  logger: Logger;
  totp: { required: boolean; issuer: string };
}

type Session = Awaited<ReturnType<Provider['Session']['get']>>;

interface SignedIn {
  session: Session;
  account: AccountOverview;
}

/** How long a secret shown for enrolment waits for its confirming code. */
const ENROLMENT_TTL_SECONDS = 15 * 60;
const CSRF_PURPOSE = 'account';

/** The POST forms, by path. */
const FORMS = new Map<string, AccountForm | 'two-factor/confirm'>([
  ['/account/password', 'password'],
  ['/account/two-factor/start', 'two-factor/start'],
  ['/account/two-factor/confirm', 'two-factor/confirm'],
  ['/account/two-factor/remove', 'two-factor/remove'],
  ['/account/recovery-codes', 'recovery-codes'],
  ['/account/sessions', 'sessions'],
]);

/** What a form did, shown on /account after its redirect (`?done=`): fixed texts only. */
const NOTICES: Record<string, string> = {
  password: 'Your password was changed. Your sign-ins elsewhere have ended.',
  'two-factor-off': 'Two-factor authentication is off.',
  sessions: 'You were signed out on every other browser and device.',
};

const epochNow = (): number => Math.floor(Date.now() / 1000);

/**
 * The account console: a signed-in person's own page at the auth service (which owns credentials).
 *
 * - `GET /account`: the page. The person is who oidc-provider's own session (its `auth_session`
 *   cookie) says, while that sign-in is still good (the account enabled, the password not changed
 *   since); without one, the console signs them in as an application would (account-sign-in.ts),
 *   through every sign-in step.
 * - `GET /account/callback`: the end of that sign-in.
 * - `POST /account/password`: current password, the new one twice (the rules of `users create`).
 *   The change ends the account's other sign-ins (password_changed_at); this browser's provider
 *   session is kept (its sign-in time becomes the change's: the password was just proved).
 * - `POST /account/two-factor/start` → the enrolment page (QR, secret as text), the secret kept
 *   server-side for 15 min, bound to this session; `POST /account/two-factor/confirm` with a code
 *   of it → the recovery codes, shown once.
 * - `POST /account/two-factor/remove`: needs the current password; refused with AUTH_REQUIRE_TOTP.
 * - `POST /account/recovery-codes`: needs the current password or a TOTP code; a new set, shown once.
 * - `POST /account/sessions`: ends every other provider session of the account and revokes the
 *   grants (and so refresh tokens) not held by this one.
 *
 * Every POST must come from our own page (csrf.ts `fromOwnPage`) with a token bound to the session
 * (an HMAC of its id under the cookie keys), and from a signed-in session: otherwise 403, nothing
 * changed. Wrong passwords and codes count in the login throttle like at sign-in. The database
 * down → 503; Redis down → 503 for the forms that check a password or code.
 */
export function accountConsoleRoutes(deps: AccountConsoleDeps): Middleware {
  const { provider, db, logger, throttle } = deps;
  const issuerOrigin = new URL(deps.issuer).origin;
  const enrolments = new deps.adapter('AccountEnrolment');
  const signInOptions = { provider, issuer: deps.issuer, secureCookies: deps.secureCookies };
  const signOutHref = `${provider.pathFor('end_session')}?client_id=${ACCOUNT_CONSOLE_CLIENT_ID}`;
  const csrfOf = (session: Session) => formToken(deps.cookieKeys, CSRF_PURPOSE, session.jti);

  /** The person signed in in this browser, while that sign-in is still good. */
  async function signedIn(ctx: Context): Promise<SignedIn | undefined> {
    const session = await provider.Session.get(ctx);
    const accountId = session.accountId;
    if (!accountId || session.loginTs === undefined) return undefined;
    const account = await findSignInAccount(db, accountId);
    if (!account || predatesPasswordChange(session.loginTs, account.passwordChangedAt)) return undefined;
    const overview = await accountOverview(db, accountId);
    return overview ? { session, account: overview } : undefined;
  }

  function showAccount(
    ctx: Context,
    { session, account }: SignedIn,
    status = 200,
    error?: { form: AccountForm; message: string },
  ) {
    const done = typeof ctx.query.done === 'string' ? NOTICES[ctx.query.done] : undefined;
    page(
      ctx,
      status,
      accountPage({
        email: account.email,
        secondFactor: account.secondFactor,
        recoveryCodesLeft: account.recoveryCodesLeft,
        totpRequired: deps.totp.required,
        csrfToken: csrfOf(session),
        notice: error ? undefined : done,
        error,
        signOutHref,
      }),
    );
  }

  const backTo = (ctx: Context, done?: string) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(done ? `/account?done=${done}` : '/account');
    ctx.status = 303;
  };

  async function showEnrol(ctx: Context, who: SignedIn, secret: string, status: number, error?: string) {
    page(
      ctx,
      status,
      enrolPage({
        action: '/account/two-factor/confirm',
        csrfToken: csrfOf(who.session),
        lead: 'Signing in will ask for a code from your authenticator app after your password.',
        qr: await qrSvg(totpUri(secret, who.account.email, deps.totp.issuer)),
        secret,
        error,
        cancelHref: '/account',
      }),
    );
  }

  const showCodes = (ctx: Context, codes: string[]) =>
    page(
      ctx,
      200,
      recoveryCodesPage({ codes, next: { link: { href: '/account', label: 'Back to your account' } } }),
    );

  /**
   * Whether the throttle lets this account try a password or code from here; a 429 page is sent
   * when not. The account is named as at sign-in (accountKey of the normalised email).
   */
  async function allowed(ctx: Context, who: SignedIn): Promise<boolean> {
    const allowance = await throttle.check(accountKey(who.account.email), ctx.ip);
    if (allowance.allowed) return true;
    ctx.set('Retry-After', String(allowance.retryAfterSeconds));
    page(ctx, 429, messagePage('Too many attempts', 'Too many wrong passwords or codes. Try again later.'));
    return false;
  }

  async function refused(ctx: Context, who: SignedIn, form: AccountForm, message: string) {
    await throttle.recordFailure(accountKey(who.account.email), ctx.ip);
    logger.info({ ip: ctx.ip, account_id: who.account.id, form }, 'account console: wrong password or code');
    showAccount(ctx, who, 422, { form, message });
  }

  const forms: Record<
    AccountForm | 'two-factor/confirm',
    (ctx: Context, who: SignedIn, fields: URLSearchParams) => Promise<void>
  > = {
    async password(ctx, who, fields) {
      if (!(await allowed(ctx, who))) return;
      const result = await changePassword(db, who.account.id, {
        current: single(fields, 'current_password') ?? '',
        next: single(fields, 'new_password') ?? '',
        repeat: single(fields, 'repeat_password') ?? '',
      });
      if (!result.changed) {
        if (result.wrongPassword) return refused(ctx, who, 'password', result.problem);
        return showAccount(ctx, who, 422, { form: 'password', message: result.problem });
      }
      // This browser stays signed in: its sign-in time becomes the change's (not before it).
      who.session.loginTs = Math.max(epochNow(), Math.ceil(result.changedAt.getTime() / 1000));
      await who.session.persist();
      logger.info({ ip: ctx.ip, account_id: who.account.id }, 'account console: password changed');
      backTo(ctx, 'password');
    },

    async 'two-factor/start'(ctx, who) {
      if (who.account.secondFactor) return backTo(ctx);
      const secret = generateTotpSecret();
      await enrolments.upsert(who.session.jti, { accountId: who.account.id, secret }, ENROLMENT_TTL_SECONDS);
      await showEnrol(ctx, who, secret, 200);
    },

    async 'two-factor/confirm'(ctx, who, fields) {
      const pending = (await enrolments.find(who.session.jti)) as
        { accountId?: string; secret?: string } | undefined;
      if (!pending?.secret || pending.accountId !== who.account.id) {
        return showAccount(ctx, who, 409, {
          form: 'two-factor/start',
          message: 'This setup has expired. Start again.',
        });
      }
      if (!(await allowed(ctx, who))) return;
      const result = await confirmEnrolment(db, who.account.id, pending.secret, single(fields, 'code') ?? '');
      if (!result.enrolled && result.reason === 'wrong_code') {
        await throttle.recordFailure(accountKey(who.account.email), ctx.ip);
        return showEnrol(
          ctx,
          who,
          pending.secret,
          422,
          'That code does not match. Enter the code the app shows now.',
        );
      }
      await enrolments.destroy(who.session.jti);
      if (!result.enrolled) return backTo(ctx);
      logger.info({ ip: ctx.ip, account_id: who.account.id }, 'second factor enrolled');
      showCodes(ctx, result.recoveryCodes);
    },

    async 'two-factor/remove'(ctx, who, fields) {
      if (deps.totp.required) {
        return showAccount(ctx, who, 403, {
          form: 'two-factor/remove',
          message: 'Two-factor authentication is required on this service.',
        });
      }
      if (!(await allowed(ctx, who))) return;
      if (!(await isCurrentPassword(db, who.account.id, single(fields, 'password') ?? ''))) {
        return refused(ctx, who, 'two-factor/remove', 'The password is not correct.');
      }
      await removeSecondFactor(db, who.account.id);
      logger.info({ ip: ctx.ip, account_id: who.account.id }, 'second factor removed');
      backTo(ctx, 'two-factor-off');
    },

    async 'recovery-codes'(ctx, who, fields) {
      if (!who.account.secondFactor) return backTo(ctx);
      if (!(await allowed(ctx, who))) return;
      const credential = single(fields, 'credential') ?? '';
      // Passwords are at least 12 characters: 6 digits can only be a code.
      const proved =
        normaliseTotpCode(credential) !== undefined
          ? (await checkSecondFactor(db, who.account.id, credential)).verified
          : await isCurrentPassword(db, who.account.id, credential);
      if (!proved) return refused(ctx, who, 'recovery-codes', 'The password or code is not correct.');
      const codes = await regenerateRecoveryCodes(db, who.account.id);
      if (!codes) return backTo(ctx);
      logger.info({ ip: ctx.ip, account_id: who.account.id }, 'recovery codes regenerated');
      showCodes(ctx, codes);
    },

    async sessions(ctx, who) {
      const authorizations = (who.session.authorizations ?? {}) as Record<string, { grantId?: string }>;
      const keep = Object.values(authorizations).flatMap((a) => (a.grantId ? [a.grantId] : []));
      const ended = await endOtherSessions(db, who.account.id, who.session.jti, keep);
      logger.info(
        { ip: ctx.ip, account_id: who.account.id, sessions: ended },
        'account console: other sessions ended',
      );
      backTo(ctx, 'sessions');
    },
  };

  const notSignedIn = (ctx: Context) =>
    page(
      ctx,
      403,
      messagePage('Not signed in', 'Your sign-in has ended. Open your account page again to sign in.'),
    );
  const refusedForm = (ctx: Context) =>
    page(
      ctx,
      403,
      messagePage(
        'Request refused',
        'This form has expired or was not sent from its page. Go back and try again.',
      ),
    );

  async function post(ctx: Context, form: AccountForm | 'two-factor/confirm') {
    if (!fromOwnPage(ctx, issuerOrigin)) return refusedForm(ctx);
    const fields = await readForm(ctx);
    const who = await signedIn(ctx);
    if (!who) return notSignedIn(ctx);
    if (!formTokenValid(deps.cookieKeys, CSRF_PURPOSE, who.session.jti, single(fields, 'csrf'))) {
      return refusedForm(ctx);
    }
    await forms[form](ctx, who, fields);
  }

  async function getAccount(ctx: Context) {
    const who = await signedIn(ctx);
    if (!who) return startAccountSignIn(ctx, signInOptions);
    showAccount(ctx, who);
  }

  async function callback(ctx: Context) {
    if (await finishAccountSignIn(ctx, signInOptions)) return backTo(ctx);
    page(
      ctx,
      400,
      messagePage(
        'Sign-in not completed',
        'This sign-in to your account could not be completed.',
        'Open your account page again to sign in.',
      ),
    );
  }

  function handlerFor(ctx: Context): (() => Promise<void> | void) | undefined {
    const { path, method } = ctx;
    const read = method === 'GET' || method === 'HEAD';
    if (path === '/account' && read) return () => getAccount(ctx);
    if (path === '/account/callback' && read) return () => callback(ctx);
    const form = FORMS.get(path);
    if (form && method === 'POST') return () => post(ctx, form);
    if (path !== '/account' && path !== '/account/callback' && !form) return undefined;
    return () => notAllowed(ctx, form ? 'POST' : 'GET, HEAD');
  }

  return async (ctx, next) => {
    const handle = handlerFor(ctx);
    if (!handle) {
      await next();
      return;
    }
    (ctx.state as { route?: string }).route =
      ctx.path === '/account'
        ? 'account'
        : ctx.path.startsWith('/account/callback')
          ? 'account_callback'
          : 'account_form';
    try {
      await handle();
    } catch (err) {
      if (err instanceof FormError) {
        return page(ctx, err.status, messagePage('Request refused', err.message));
      }
      if (
        err instanceof LoginThrottleUnavailable ||
        err instanceof DependencyUnavailable ||
        isConnectionError(err)
      ) {
        if (!(err instanceof LoginThrottleUnavailable)) {
          logger.warn({ err: (err as Error).message }, 'account console unavailable: database');
        }
        ctx.set('Retry-After', '30');
        return page(
          ctx,
          503,
          messagePage('Your account page is unavailable right now', 'Please try again in a few minutes.'),
        );
      }
      logger.error({ err }, 'account console failed');
      page(
        ctx,
        500,
        messagePage('Something went wrong', 'Your account page failed on our side. Please try again later.'),
      );
    }
  };
}
