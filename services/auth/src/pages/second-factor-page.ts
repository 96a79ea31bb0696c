import { type Html, html } from '@secret-push/html';
import { layout } from './layout';

/** One field for "the code": a form's label, hint and error wiring, shared by the 2FA pages. */
export function codeField(input: {
  id: string;
  label: string;
  hint: string;
  error?: string;
  autofocus?: boolean;
}): Html {
  const described = [input.error ? `${input.id}-error` : undefined, `${input.id}-hint`]
    .filter(Boolean)
    .join(' ');
  return html`<label for="${input.id}">${input.label}</label>
    <p class="hint" id="${input.id}-hint">${input.hint}</p>
    <input
      id="${input.id}"
      name="code"
      type="text"
      autocomplete="one-time-code"
      autocapitalize="off"
      spellcheck="false"
      required
      maxlength="64"
      aria-describedby="${described}"
      ${input.autofocus === false ? '' : html` autofocus`}
    />`;
}

export interface SecondFactorPageInput {
  /** Where the form posts (`/interaction/:uid/second-factor`). */
  action: string;
  csrfToken: string;
  clientName: string;
  error?: string;
}

/** Sign-in's second step: a TOTP code or a recovery code, after the password passed. */
export function secondFactorPage(input: SecondFactorPageInput): string {
  return layout(
    'Two-factor authentication',
    html`<p class="lead">to continue to <strong>${input.clientName}</strong></p>
      ${input.error ? html`<p class="error" role="alert" id="code-error">${input.error}</p>` : ''}
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        ${codeField({
          id: 'code',
          label: 'Authentication code',
          hint: 'The 6-digit code from your authenticator app, or one of your recovery codes (xxxxx-xxxxx).',
          error: input.error,
        })}
        <button type="submit">Verify</button>
      </form>`,
  );
}
