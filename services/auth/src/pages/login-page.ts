import { t } from '@secret-push/i18n';
import { html, rich } from '@secret-push/html';
import { cancelForm } from './cancel-form';
import { layout } from './layout';

export interface LoginPageInput {
  /** Where the form posts (`/interaction/:uid/login`). */
  action: string;
  csrfToken: string;
  /** The application the person signs in to. */
  clientName: string;
  /** What was typed last time (never the password), or a `login_hint`. */
  email?: string;
  /** Shown above the form, announced to screen readers. */
  error?: string;
  /** The sign-up page of the same sign-in, when self sign-up is on (AUTH_SELF_SIGNUP). */
  signupUrl?: string;
  /** The "Forgot password?" page of the same sign-in, when email is on (AUTH_SMTP_URL). */
  forgotUrl?: string;
  /** The "Cancel" form (`/interaction/:uid/cancel`): back to the application, not signed in. */
  cancel?: { action: string; csrfToken: string };
}

/** The email + password form. Every field is labelled; the password is never put back. */
export function loginPage(input: LoginPageInput): string {
  const email = input.email ?? '';
  const focusPassword = email !== '';
  return layout(
    t('signin.title'),
    html`<p class="lead">${rich('signin.lead', { client: input.clientName })}</p>
      ${input.error ? html`<p class="error" role="alert" id="login-error">${input.error}</p>` : ''}
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        <label for="email">${t('signin.email')}</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          maxlength="254"
          autocapitalize="off"
          spellcheck="false"
          value="${email}"
          ${focusPassword ? '' : html` autofocus`}${input.error ? html` aria-describedby="login-error"` : ''}
        />
        <label for="password">${t('signin.password')}</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required${focusPassword ? html` autofocus` : ''}
        />
        <button type="submit">${t('signin.submit')}</button>
      </form>
      ${input.cancel ? cancelForm({ ...input.cancel, clientName: input.clientName }) : ''}
      ${input.forgotUrl ? html`<p class="alternative"><a href="${input.forgotUrl}">${t('signin.forgot')}</a></p>` : ''}
      ${
        input.signupUrl
          ? html`<p class="alternative">
              ${rich('signin.noAccount', {
                link: (c) => html`<a href="${input.signupUrl}">${c}</a>`,
              })}
            </p>`
          : ''
      }`,
  );
}
