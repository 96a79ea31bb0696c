import { t } from '@secret-push/i18n';
import { type Html, html } from '@secret-push/html';
import { layout } from './layout';
import { codeField } from './second-factor-page';

export interface EnrolPageInput {
  /** Where the form posts the confirming code. */
  action: string;
  csrfToken: string;
  /** Why this page is shown (a required enrolment at sign-in, or a choice in the account console). */
  lead: string;
  /** The otpauth:// URI as an inline SVG QR code (pages/qr.ts). */
  qr: Html;
  /** The secret, base32, for typing in by hand. */
  secret: string;
  error?: string;
  /** Where "Cancel" leads, when the person may leave without enrolling. */
  cancelHref?: string;
}

/** The secret in groups of four, as authenticator apps show what one types in. */
const grouped = (secret: string): string => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** Enrolment of a TOTP authenticator: QR code, the secret as text, and a code to confirm. */
export function enrolPage(input: EnrolPageInput): string {
  return layout(
    t('factor.enrol.title'),
    html`<p class="lead">${input.lead}</p>
      <p>${t('factor.enrol.scan')}</p>
      <div class="qr">${input.qr}</div>
      <p>
        ${t('factor.enrol.typeKey')}
        <code class="secret" id="totp-secret">${grouped(input.secret)}</code>
      </p>
      ${input.error ? html`<p class="error" role="alert" id="enrol-code-error">${input.error}</p>` : ''}
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        ${codeField({
          id: 'enrol-code',
          label: t('factor.enrol.codeLabel'),
          hint: t('factor.enrol.codeHint'),
          error: input.error,
          digitsOnly: true,
        })}
        <button type="submit">${t('factor.enrol.submit')}</button>
      </form>
      ${input.cancelHref ? html`<p class="after"><a href="${input.cancelHref}">${t('factor.enrol.cancel')}</a></p>` : ''}`,
  );
}
