import { html } from '@secret-push/html';
import { layout } from './layout';

export interface ForgotPasswordPageInput {
  /** Where the form posts (`/interaction/:uid/forgot`). */
  action: string;
  csrfToken: string;
  /** The login page of the same sign-in (`/interaction/:uid`): the way back. */
  loginUrl: string;
  /** What was typed last time. */
  email?: string;
  /** Shown above the form, announced to screen readers. */
  error?: string;
}

/** "Forgot password?": the email address to send a reset link to, and the way back to sign-in. */
export function forgotPasswordPage(input: ForgotPasswordPageInput): string {
  return layout(
    'Reset your password',
    html`<p class="lead">
        Enter the email address of your account. We will email it a link to choose a new password.
      </p>
      ${input.error ? html`<p class="error" role="alert" id="forgot-error">${input.error}</p>` : ''}
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          maxlength="254"
          spellcheck="false"
          value="${input.email ?? ''}"
          autofocus${input.error ? html` aria-describedby="forgot-error"` : ''}
        />
        <button type="submit">Send the reset link</button>
      </form>
      <p class="alternative"><a href="${input.loginUrl}">Back to sign in</a></p>`,
  );
}

/**
 * What every reset request gets, whether or not the address has an account (nothing on it says
 * which): where to look, for how long the link works, and the way back to sign-in.
 */
export function resetSentPage(input: { email: string; ttlMinutes: number; loginUrl: string }): string {
  return layout(
    'Check your email',
    html`<p>
        If <strong>${input.email}</strong> is the address of an account, we have sent it a link to choose a
        new password. The link works once, for ${input.ttlMinutes} minutes.
      </p>
      <p class="lead">No email? Check your spam folder, or ask again in a few minutes.</p>
      <p class="alternative"><a href="${input.loginUrl}">Back to sign in</a></p>`,
  );
}
