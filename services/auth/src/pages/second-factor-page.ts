import { t } from '@secret-push/i18n';
import { type Html, html, rich } from '@secret-push/html';
import { cancelForm } from './cancel-form';
import { layout } from './layout';

/** 6 digits from an authenticator app, spaces allowed (as normaliseTotpCode takes them). */
export const APP_CODE_PATTERN = String.raw`\s*(?:[0-9]\s*){6}`;
/** That, or a recovery code: 10 base32 characters, spaces and dashes allowed (normaliseRecoveryCode). */
export const ANY_CODE_PATTERN = String.raw`[\s\-]*(?:(?:[0-9]\s*){6}|(?:[A-Za-z2-7][\s\-]*){10})`;

/** One field for "the code": a form's label, hint and error wiring, shared by the 2FA pages. */
export function codeField(input: {
  id: string;
  label: string;
  hint: string;
  error?: string;
  autofocus?: boolean;
  /**
   * Only the 6 digits of an authenticator app (enrolment): the numeric keyboard and a `pattern`.
   * Otherwise a recovery code (`xxxxx-xxxxx`, letters) is also taken: letters stay typeable.
   */
  digitsOnly?: boolean;
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
      inputmode="${input.digitsOnly ? 'numeric' : 'text'}"
      pattern="${input.digitsOnly ? APP_CODE_PATTERN : ANY_CODE_PATTERN}"
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
  /** The "Cancel" form (`/interaction/:uid/cancel`): back to the application, not signed in. */
  cancel?: { action: string; csrfToken: string };
}

/** Sign-in's second step: a TOTP code or a recovery code, after the password passed. */
export function secondFactorPage(input: SecondFactorPageInput): string {
  return layout(
    t('factor.title'),
    html`<p class="lead">${rich('signin.lead', { client: input.clientName })}</p>
      ${input.error ? html`<p class="error" role="alert" id="code-error">${input.error}</p>` : ''}
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        ${codeField({
          id: 'code',
          label: t('factor.codeLabel'),
          hint: t('factor.codeHint'),
          error: input.error,
        })}
        <button type="submit">${t('factor.verify')}</button>
      </form>
      ${input.cancel ? cancelForm({ ...input.cancel, clientName: input.clientName }) : ''}`,
  );
}
