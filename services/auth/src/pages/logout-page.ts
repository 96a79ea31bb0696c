import { t } from '@secret-push/i18n';
import { html, rich } from '@secret-push/html';
import { layout } from './layout';

export interface LogoutPageInput {
  /** oidc-provider's confirmation endpoint (`/connect/endsession/confirm`). */
  action: string;
  /** oidc-provider's own CSRF token for this logout, kept in the session. */
  xsrf: string;
  /** The application that asked, when known. */
  clientName?: string;
}

/**
 * RP-initiated logout's confirmation. "Sign out" ends the sign-in for every application; "Stay
 * signed in" only ends the asking application's grant (oidc-provider's two answers).
 */
export function logoutPage(input: LogoutPageInput): string {
  return layout(
    t('signin.logout.title'),
    html`<p class="lead">
        ${input.clientName ? rich('signin.logout.asks', { client: input.clientName }) : t('signin.logout.question')}
      </p>
      <form method="post" action="${input.action}">
        <input type="hidden" name="xsrf" value="${input.xsrf}" />
        <button type="submit" name="logout" value="yes" autofocus>${t('signin.logout.confirm')}</button>
        <button type="submit" class="secondary">${t('signin.logout.stay')}</button>
      </form>`,
  );
}

/** Where a logout without a post_logout_redirect_uri ends. */
export function signedOutPage(): string {
  return layout(t('signin.signedOut.title'), html`<p>${t('signin.signedOut.text')}</p>`);
}
