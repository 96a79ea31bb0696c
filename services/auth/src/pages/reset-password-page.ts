import { t } from '@secret-push/i18n';
import { html, rich } from '@secret-push/html';
import { layout } from './layout';
import { codeField } from './second-factor-page';
import { messagePage } from './message-page';

export interface ResetPasswordPageInput {
  /** Where the form posts (`/reset/:token`). */
  action: string;
  csrfToken: string;
  /** The rule stated next to the password (users/password.ts PASSWORD_MIN_CHARACTERS). */
  passwordMinCharacters: number;
  /** The account has a second factor: a code is asked too (a reset never bypasses it). */
  secondFactor: boolean;
  error?: string;
  /** The field the error is about: described by it, and focused. */
  errorField?: 'password' | 'code';
}

/** The reset link's page: the new password twice, and the second factor's code when the account has one. */
export function resetPasswordPage(input: ResetPasswordPageInput): string {
  const min = input.passwordMinCharacters;
  const about = (field: 'password' | 'code') => input.error !== undefined && input.errorField === field;
  return layout(
    t('reset.form.title'),
    html`${input.error ? html`<p class="error" role="alert" id="reset-error">${input.error}</p>` : ''}
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        <label for="new-password">${t('reset.form.newPassword')}</label>
        <p class="hint" id="new-password-hint">${t('signup.passwordHint', { min })}</p>
        <input
          id="new-password"
          name="new_password"
          type="password"
          autocomplete="new-password"
          required
          minlength="${min}"
          aria-describedby="new-password-hint${about('password') ? ' reset-error' : ''}"
          ${about('code') ? '' : html` autofocus`}
        />
        <label for="repeat-password">${t('reset.form.repeat')}</label>
        <input
          id="repeat-password"
          name="repeat_password"
          type="password"
          autocomplete="new-password"
          required
          minlength="${min}"
        />
        ${
          input.secondFactor
            ? codeField({
                id: 'code',
                label: t('factor.codeLabel'),
                hint: t('reset.form.codeHint'),
                error: about('code') ? input.error : undefined,
                autofocus: about('code'),
              })
            : ''
        }
        <button type="submit">${t('reset.form.submit')}</button>
      </form>`,
  );
}

/** What the password reset pages answer when the operator has not set up email (AUTH_SMTP_URL). */
export const noEmailPage = (): string =>
  messagePage(t('reset.noEmail.title'), t('reset.noEmail.text'), t('reset.noEmail.detail'));

/** The end of a reset: the password is set, every earlier sign-in ended; where to sign in. */
export function resetDonePage(input: { signInUrl: string }): string {
  return layout(
    t('reset.done.title'),
    html`<p>${t('reset.done.text')}</p>
      <p>${rich('reset.done.next', { link: (c) => html`<a href="${input.signInUrl}">${c}</a>` })}</p>`,
  );
}

/** One page for a link that cannot be used: unknown, used, voided by a newer one, or expired. */
export function resetLinkInvalidPage(input: { signInUrl: string }): string {
  return layout(
    t('reset.invalid.title'),
    html`<p>${t('reset.invalid.text')}</p>
      <p>${rich('reset.invalid.next', { link: (c) => html`<a href="${input.signInUrl}">${c}</a>` })}</p>`,
  );
}
