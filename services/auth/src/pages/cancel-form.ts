import { t } from '@secret-push/i18n';
import { type Html, html } from '@secret-push/html';

/**
 * "Cancel" on a sign-in page: a form of its own (its own CSRF token), so the password typed in the
 * other form is never sent. The sign-in then ends with `access_denied` and the browser goes back to
 * the application, which says the sign-in was cancelled.
 */
export function cancelForm(input: { action: string; csrfToken: string; clientName: string }): Html {
  return html`<form method="post" action="${input.action}" class="cancel">
    <input type="hidden" name="csrf" value="${input.csrfToken}" />
    <button type="submit" class="secondary" aria-describedby="cancel-hint">${t('signin.cancel')}</button>
    <p class="hint" id="cancel-hint">${t('signin.cancelHint', { client: input.clientName })}</p>
  </form>`;
}
