import { t } from '@secret-push/i18n';
import { html, rich } from '@secret-push/html';
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
    t('reset.forgot.title'),
    html`<p class="lead">${t('reset.forgot.lead')}</p>
      ${input.error ? html`<p class="error" role="alert" id="forgot-error">${input.error}</p>` : ''}
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        <label for="email">${t('reset.forgot.email')}</label>
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
        <button type="submit">${t('reset.forgot.submit')}</button>
      </form>
      <p class="alternative"><a href="${input.loginUrl}">${t('reset.backToSignIn')}</a></p>`,
  );
}

/**
 * What every reset request gets, whether or not the address has an account (nothing on it says
 * which): where to look, for how long the link works, and the way back to sign-in.
 */
export function resetSentPage(input: { email: string; ttlMinutes: number; loginUrl: string }): string {
  return layout(
    t('reset.sent.title'),
    html`<p>${rich('reset.sent.text', { email: input.email, minutes: input.ttlMinutes })}</p>
      <p class="lead">${t('reset.sent.lead')}</p>
      <p class="alternative"><a href="${input.loginUrl}">${t('reset.backToSignIn')}</a></p>`,
  );
}
