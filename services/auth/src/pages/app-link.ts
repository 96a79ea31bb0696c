import { t } from '@secret-push/i18n';
import { type Html, html } from '@secret-push/html';
import { layout } from './layout';

/** The web app the sign-in service's pages lead back to (AUTH_APP_URL, AUTH_APP_NAME). */
export interface AppLink {
  /** Unset: the pages have no way back to it. */
  url?: string | undefined;
  name: string;
}

/** "Back to secret-push", where the operator set the web app's URL; nothing otherwise. */
export function backToApp(app: AppLink | undefined): Html | '' {
  return app?.url
    ? html`<p class="after back-to-app">
        <a href="${app.url}">${t('signin.backToApp', { app: app.name })}</a>
      </p>`
    : '';
}

/** A sign-in to the account page that the person cancelled: nothing happened, and the way back. */
export function signInCancelledPage(app: AppLink | undefined): string {
  return layout(
    t('signin.cancelled.title'),
    html`<p>${t('signin.cancelled.text')}</p>
      ${backToApp(app)}
      <p class="after"><a href="/account">${t('signin.cancelled.account')}</a></p>`,
  );
}
