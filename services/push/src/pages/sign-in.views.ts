import { type Html, html } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import { layout } from './layout';
import { webHeader } from './web-header';

/**
 * The answer to "Sign out" where the provider has an end-session endpoint: the session here has
 * ended, and the browser goes on at once to the provider (a meta refresh, and a link for a browser
 * that does not follow it) to end the sign-in there; it comes back to {@link signedOutPage}.
 */
export function signingOutPage(endSessionUrl: string): Html {
  return layout(
    t('pages.signOut.signingOut.title'),
    html`<h1>${t('pages.signOut.signingOut.title')}</h1>
      <p>${t('pages.signOut.signingOut.text')}</p>
      <p><a href="${endSessionUrl}">${t('pages.signOut.signingOut.continue')}</a></p>`,
    { refreshTo: endSessionUrl },
  );
}

/** Where a sign-out ends: the provider's post-logout redirect (`/signed-out`). */
export function signedOutPage(signInEnabled: boolean): Html {
  return layout(
    t('pages.signOut.done.title'),
    html`${webHeader({ signInEnabled, user: null })}
      <h1>${t('pages.signOut.done.title')}</h1>
      <p>${t('pages.signOut.done.text')}</p>
      <p><a href="/sign-in">${t('pages.signOut.done.again')}</a></p>`,
  );
}

/**
 * Where a sign-in the person cancelled at the provider ends (the callback with `access_denied`):
 * nothing happened, said calmly, with the way on. `again`: a sign-in again before a destructive
 * change (the person is still signed in here): back to the account page.
 */
export function signInCancelledPage(options: { again: boolean }): Html {
  return layout(
    t('pages.signIn.cancelled.title'),
    options.again
      ? html`<h1>${t('pages.signIn.cancelled.title')}</h1>
          <p>${t('pages.signIn.cancelled.againText')}</p>
          <p><a href="/account">${t('pages.signIn.cancelled.account')}</a></p>`
      : html`${webHeader({ signInEnabled: true, user: null })}
          <h1>${t('pages.signIn.cancelled.title')}</h1>
          <p>${t('pages.signIn.cancelled.text')}</p>
          <p>
            <a href="/">${t('pages.signIn.cancelled.home')}</a> · <a href="/sign-in">${t('nav.signIn')}</a>
          </p>`,
  );
}
