import { html } from '@secret-push/html';
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
    'Sign out',
    html`<p class="lead">
        ${input.clientName ? html`<strong>${input.clientName}</strong> asks you to sign out.` : 'Do you want to sign out?'}
      </p>
      <form method="post" action="${input.action}">
        <input type="hidden" name="xsrf" value="${input.xsrf}" />
        <button type="submit" name="logout" value="yes" autofocus>Sign out</button>
        <button type="submit" class="secondary">Stay signed in</button>
      </form>`,
  );
}

/** Where a logout without a post_logout_redirect_uri ends. */
export function signedOutPage(): string {
  return layout('Signed out', html`<p>You are signed out. You can close this window.</p>`);
}
