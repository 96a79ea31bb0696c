import { type Html, html } from '@secret-push/html';
import { layout } from './layout';
import { webHeader } from './web-header';

/**
 * The answer to "Sign out" where the provider has an end-session endpoint: the session here has
 * ended, and the browser goes on at once to the provider (a meta refresh, and a link for a browser
 * that does not follow it) to end the sign-in there; it comes back to {@link signedOutPage}.
 */
export function signingOutPage(endSessionUrl: string): Html {
  return layout(
    'Signing out',
    html`<h1>Signing out</h1>
      <p>You are signed out of this web app. Your sign-in provider now ends your sign-in there too.</p>
      <p><a href="${endSessionUrl}">Continue to sign out at your sign-in provider</a></p>`,
    { refreshTo: endSessionUrl },
  );
}

/** Where a sign-out ends: the provider's post-logout redirect (`/signed-out`). */
export function signedOutPage(signInEnabled: boolean): Html {
  return layout(
    'You are signed out',
    html`${webHeader({ signInEnabled, user: null })}
      <h1>You are signed out</h1>
      <p>
        You are signed out of this web app and of your sign-in provider. Signing in again starts at its login
        page.
      </p>
      <p><a href="/sign-in">Sign in again</a></p>`,
  );
}

/**
 * Where a sign-in the person cancelled at the provider ends (the callback with `access_denied`):
 * nothing happened, said calmly, with the way on. `again`: a sign-in again before a destructive
 * change (the person is still signed in here): back to the account page.
 */
export function signInCancelledPage(options: { again: boolean }): Html {
  return layout(
    'Sign-in cancelled',
    options.again
      ? html`<h1>Sign-in cancelled</h1>
          <p>You cancelled signing in again. Nothing was changed, and you are still signed in.</p>
          <p><a href="/account">Back to your account</a></p>`
      : html`${webHeader({ signInEnabled: true, user: null })}
          <h1>Sign-in cancelled</h1>
          <p>You cancelled signing in. Nothing was changed.</p>
          <p><a href="/">Back to the start page</a> · <a href="/sign-in">Sign in</a></p>`,
  );
}
