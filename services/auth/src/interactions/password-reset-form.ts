import type { Context } from 'koa';
import { t } from '@secret-push/i18n';
import { resetDonePage, resetLinkInvalidPage, resetPasswordPage } from '../pages/reset-password-page';
import { messagePage } from '../pages/message-page';
import { accountKey } from '../policy/login-throttle';
import { PASSWORD_MIN_CHARACTERS } from '../users/password';
import {
  type LiveReset,
  abandonPasswordReset,
  findPasswordReset,
  finishPasswordReset,
  newPasswordProblem,
  resetTokenHash,
} from '../users/password-reset';
import { SECOND_FACTOR_LOCK_AFTER, checkSecondFactor } from '../users/second-factor';
import { formToken, formTokenValid } from './csrf';
import { passwordRuleText } from './password-rules';
import { single } from './form-body';
import { page, tooManyAttempts } from './responses';
import { SECOND_FACTOR_CODES_PER_SIGN_IN } from './second-factor-step';
import type { InteractionDeps, PasswordResetDeps } from './sign-in-deps';

/** The form token's purpose; the token is bound to the reset link's token (its hash). */
export const RESET_PURPOSE = 'reset';

/** Where a person signs in after a reset, when they did not come from an application: the account page. */
const SIGN_IN_URL = '/account';

export interface ResetKit {
  deps: InteractionDeps;
  reset: PasswordResetDeps;
}

const boundTo = (token: string): string => resetTokenHash(token).toString('hex');

/** The CSRF token of the reset form of link `token`. */
export const resetFormToken = (keys: readonly string[], token: string): string =>
  formToken(keys, RESET_PURPOSE, boundTo(token));

/** Whether `csrf` is the reset form's token for link `token`. */
export const resetFormTokenValid = (keys: readonly string[], token: string, csrf: unknown): boolean =>
  formTokenValid(keys, RESET_PURPOSE, boundTo(token), csrf);

export function showResetForm(
  { deps }: ResetKit,
  ctx: Context,
  token: string,
  reset: LiveReset,
  status: number,
  problem?: { message: string; field: 'password' | 'code' },
): void {
  page(
    ctx,
    status,
    resetPasswordPage({
      action: `/reset/${token}`,
      csrfToken: resetFormToken(deps.cookieKeys, token),
      passwordMinCharacters: PASSWORD_MIN_CHARACTERS,
      secondFactor: reset.secondFactor,
      error: problem?.message,
      errorField: problem?.field,
    }),
  );
}

export const showInvalidLink = (ctx: Context): void =>
  page(ctx, 410, resetLinkInvalidPage({ signInUrl: SIGN_IN_URL }));

/**
 * The second factor of a reset, as at sign-in: the code is taken from the login throttle's
 * counters for the account and IP before it is checked, and from this reset's own counter
 * (SECOND_FACTOR_CODES_PER_SIGN_IN); wrong codes count in the account (and lock its TOTP at
 * SECOND_FACTOR_LOCK_AFTER, with its notice). True when it passed; otherwise a page has been sent.
 */
async function secondFactorPassed(
  kit: ResetKit,
  ctx: Context,
  token: string,
  reset: LiveReset,
  code: string,
) {
  const { deps } = kit;
  const log = { ip: ctx.ip, account_id: reset.accountId };
  const attempt = await deps.throttle.attempt(
    {
      account: accountKey(reset.email),
      ip: ctx.ip,
      codes: {
        key: `reset:${reset.id}`,
        max: SECOND_FACTOR_CODES_PER_SIGN_IN,
        ttlSeconds: kit.reset.ttlSeconds,
      },
    },
    () => checkSecondFactor(deps.db, deps.totpSecrets, reset.accountId, code, { outbox: kit.reset.outbox }),
    (checked) => !checked.verified,
  );
  const tooMany = async () => {
    await abandonPasswordReset(deps.db, reset);
    page(ctx, 429, messagePage(t('reset.tooManyCodes.title'), t('reset.tooManyCodes.text')));
  };
  if (!attempt.allowed) {
    deps.metrics.passwordResets.inc({ outcome: 'throttled' });
    deps.logger.info({ ...log, reason: attempt.reason }, 'password reset throttled');
    if (attempt.reason === 'second_factor') await tooMany();
    else tooManyAttempts(ctx, attempt);
    return false;
  }
  const result = attempt.result;
  if (result.verified) return true;
  deps.metrics.passwordResets.inc({ outcome: 'refused' });
  deps.logger.info(log, 'password reset refused: wrong second factor');
  if (result.failures === SECOND_FACTOR_LOCK_AFTER) {
    deps.logger.warn(log, 'second factor locked: too many wrong codes in a row');
  }
  if (attempt.codesUsed >= SECOND_FACTOR_CODES_PER_SIGN_IN) {
    await tooMany();
  } else {
    const message = result.locked ? t('factor.locked') : t('reset.form.wrongCode');
    showResetForm(kit, ctx, token, reset, 422, { message, field: 'code' });
  }
  return false;
}

/**
 * `POST /reset/:token` once the form passed its checks: the link must still be good (else the one
 * "link no longer works" page), the new password must follow the rules (422, the link unused), an
 * account with a second factor must give a right code (as at sign-in); then the password is set,
 * the link used, the account's other links voided, its sessions and grants ended, the notice queued.
 */
export async function submitReset(kit: ResetKit, ctx: Context, token: string, fields: URLSearchParams) {
  const { deps } = kit;
  const reset = await findPasswordReset(deps.db, token);
  if (!reset) {
    deps.metrics.passwordResets.inc({ outcome: 'invalid' });
    return showInvalidLink(ctx);
  }
  const next = single(fields, 'new_password') ?? '';
  const repeat = single(fields, 'repeat_password') ?? '';
  if (newPasswordProblem(reset, next, repeat)) {
    deps.metrics.passwordResets.inc({ outcome: 'refused' });
    // The problem in the page's language (newPasswordProblem's words are English).
    const message =
      next !== repeat
        ? t('reset.form.mismatch')
        : (passwordRuleText(next, reset.email) ?? t('reset.form.mismatch'));
    return showResetForm(kit, ctx, token, reset, 422, { message, field: 'password' });
  }
  if (
    reset.secondFactor &&
    !(await secondFactorPassed(kit, ctx, token, reset, single(fields, 'code') ?? ''))
  ) {
    return;
  }
  if (!(await finishPasswordReset(deps.db, kit.reset.outbox, reset, next))) {
    deps.metrics.passwordResets.inc({ outcome: 'invalid' });
    return showInvalidLink(ctx);
  }
  deps.metrics.passwordResets.inc({ outcome: 'completed' });
  deps.logger.info({ ip: ctx.ip, account_id: reset.accountId }, 'password reset: password changed');
  page(ctx, 200, resetDonePage({ signInUrl: SIGN_IN_URL }));
}
