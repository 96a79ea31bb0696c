import { t } from '@secret-push/i18n';
import { html, rich } from '@secret-push/html';
import { layout } from './layout';

export interface SignupPageInput {
  /** Where the form posts (`/interaction/:uid/signup`). */
  action: string;
  csrfToken: string;
  /** The login page of the same sign-in (`/interaction/:uid`). */
  loginUrl: string;
  /** The application the person signs in to. */
  clientName: string;
  /** The password rule stated on the page (users/password.ts PASSWORD_MIN_CHARACTERS). */
  passwordMinCharacters: number;
  /** What was typed last time (never a password). */
  email?: string;
  /** Shown above the form, announced to screen readers. */
  error?: string;
  /** The field the error is about: that field is described by it, and focused. */
  errorField?: 'email' | 'password';
}

/**
 * The self sign-up form: email, password, password again. Every field is labelled; the passwords
 * are never put back. The rules are stated next to the password, as the page checks them.
 */
export function signupPage(input: SignupPageInput): string {
  const about = (field: 'email' | 'password') => input.error !== undefined && input.errorField === field;
  const min = input.passwordMinCharacters;
  return layout(
    t('signup.title'),
    html`<p class="lead">${rich('signin.lead', { client: input.clientName })}</p>
      ${input.error ? html`<p class="error" role="alert" id="signup-error">${input.error}</p>` : ''}
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        <label for="email">${t('signup.email')}</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="email"
          required
          maxlength="254"
          spellcheck="false"
          value="${input.email ?? ''}"
          ${about('password') ? '' : html` autofocus`}${about('email') ? html` aria-describedby="signup-error"` : ''}
        />
        <label for="password">${t('signup.password')}</label>
        <p class="hint" id="password-hint">${t('signup.passwordHint', { min })}</p>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minlength="${min}"
          aria-describedby="password-hint${about('password') ? ' signup-error' : ''}"
          ${about('password') ? html` autofocus` : ''}
        />
        <label for="password-again">${t('signup.passwordAgain')}</label>
        <input
          id="password-again"
          name="password_again"
          type="password"
          autocomplete="new-password"
          required
          minlength="${min}"
        />
        <button type="submit">${t('signup.submit')}</button>
      </form>
      <p class="alternative">
        ${rich('signup.haveAccount', {
          link: (c) => html`<a href="${input.loginUrl}">${c}</a>`,
        })}
      </p>`,
  );
}
