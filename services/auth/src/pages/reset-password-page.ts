import { html } from '@secret-push/html';
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
    'Choose a new password',
    html`${input.error ? html`<p class="error" role="alert" id="reset-error">${input.error}</p>` : ''}
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        <label for="new-password">New password</label>
        <p class="hint" id="new-password-hint">At least ${min} characters.</p>
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
        <label for="repeat-password">New password again</label>
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
                label: 'Authentication code',
                hint: 'Your account has two-factor authentication: the 6-digit code from your authenticator app, or one of your recovery codes (xxxxx-xxxxx).',
                error: about('code') ? input.error : undefined,
                autofocus: about('code'),
              })
            : ''
        }
        <button type="submit">Set the new password</button>
      </form>`,
  );
}

/** What the password reset pages answer when the operator has not set up email (AUTH_SMTP_URL). */
export const noEmailPage = (): string =>
  messagePage(
    'Password reset is not available',
    'The operator of this service has not set up email, so a password cannot be reset by email here.',
    'Ask the operator to set a new password for your account.',
  );

/** The end of a reset: the password is set, every earlier sign-in ended; where to sign in. */
export function resetDonePage(input: { signInUrl: string }): string {
  return layout(
    'Your password has been changed',
    html`<p>Your new password is set. Every sign-in from before has been ended, on every device.</p>
      <p>
        Go back to the application you were using and sign in with the new password, or
        <a href="${input.signInUrl}">sign in to your account page</a>.
      </p>`,
  );
}

/** One page for a link that cannot be used: unknown, used, voided by a newer one, or expired. */
export function resetLinkInvalidPage(input: { signInUrl: string }): string {
  return layout(
    'This link no longer works',
    html`<p>
        This password reset link has expired, was already used, or was replaced by a newer one. Nothing was
        changed.
      </p>
      <p>
        To ask for a new link, choose “Forgot password?” on the sign-in page of the application you use, or on
        <a href="${input.signInUrl}">your account page's sign-in</a>.
      </p>`,
  );
}
