import { type Html, html } from '@secret-push/html';
import { type NoticeOffer, noticeDefaultsSection } from './email.views';
import { layout } from './layout';
import { type WebHeader, webHeader } from './web-header';

/** A provider's address as people read it: its host (the whole issuer if it is not a URL). */
const hostOf = (issuer: string): string => URL.parse(issuer)?.host || issuer;

/**
 * How the person signed in, in words: our own sign-in service (it has an account page), or
 * another OpenID provider, named by its host.
 */
function signedInThrough(issuer: string, providerPage: string | undefined): Html {
  return providerPage
    ? html`the secret-push sign-in service`
    : html`your sign-in provider at ${hostOf(issuer)}`;
}

/**
 * `/account`: who is signed in and with which provider, a link to the provider's own account page
 * (password, second factor, recovery codes) when it has one, signing out the person's other
 * sessions of this web app, and deleting the account (typing the email, or "delete", to confirm).
 */
export function accountPage(options: {
  header: WebHeader;
  csrf: string;
  email: string | null;
  issuer: string;
  /** The provider's account page (our auth service has one), if any. */
  providerPage?: string;
  /** A message after an action (e.g. "2 other sessions were signed out."). */
  notice?: string;
  /** The confirmation typed did not match. */
  confirmError?: string;
  /** The default owner notices (or why there are none). */
  notices?: NoticeOffer;
  /** The notices were just saved. */
  noticesSaved?: boolean;
}): Html {
  const { csrf } = options;
  const confirmWord = options.email ?? 'delete';
  return layout(
    'Your account',
    html`${webHeader(options.header)}
      <h1>Your account</h1>
      ${options.notice ? html`<p role="status" class="notice">${options.notice}</p>` : ''}
      <dl class="summary">
        <dt>Email</dt>
        <dd>${options.email ?? 'not given by your sign-in provider'}</dd>
        <dt>Signed in through</dt>
        <dd>${signedInThrough(options.issuer, options.providerPage)}</dd>
      </dl>

      <h2>Password and two-factor authentication</h2>
      ${
        options.providerPage
          ? html`<p>
              Your password, your two-factor authentication and its recovery codes are kept by the secret-push
              sign-in service: <a href="${options.providerPage}">manage them there</a>. Its page also signs
              you out of every application on your other devices.
            </p>`
          : html`<p>
              Your password and second factor are managed by your sign-in provider
              (${hostOf(options.issuer)}).
            </p>`
      }
      ${
        options.notices
          ? noticeDefaultsSection({
              csrf,
              offer: options.notices,
              ...(options.noticesSaved ? { saved: true } : {}),
            })
          : ''
      }

      <h2>Sessions</h2>
      <p>Sign out of this web app on your other browsers and devices, keeping this browser signed in.</p>
      <form method="post" action="/account/sign-out-others">
        <input type="hidden" name="csrf" value="${csrf}" />
        <button type="submit" class="secondary">Sign out other sessions</button>
      </form>

      <h2>Delete your account</h2>
      <p>
        Every secret you created expires at once and can no longer be opened, your API tokens stop working,
        and you are signed
        out.${options.providerPage ? ' Your account at the sign-in service is deleted too.' : ''} This cannot
        be undone.
      </p>
      <form method="post" action="/account/delete">
        <input type="hidden" name="csrf" value="${csrf}" />
        <label for="confirm">Type <strong>${confirmWord}</strong> to confirm</label>
        ${options.confirmError ? html`<p class="error" id="confirm-error">${options.confirmError}</p>` : ''}
        <input
          id="confirm"
          name="confirm"
          type="text"
          autocomplete="off"
          spellcheck="false"
          required
          ${options.confirmError ? html`aria-invalid="true" aria-describedby="confirm-error"` : ''}
        />
        <button type="submit" class="danger">Delete my account</button>
      </form>`,
  );
}

/** After a deletion: what was done, and what could not be (the provider's part). */
export function accountDeletedPage(options: { expired: number; providerNotDeleted?: string }): Html {
  const secrets = options.expired === 1 ? '1 active secret' : `${options.expired} active secrets`;
  return layout(
    'Account deleted',
    html`<h1>Your account was deleted</h1>
      <p>${secrets} expired, your API tokens were revoked and you were signed out.</p>
      ${
        options.providerNotDeleted
          ? html`<p class="error">
              Your sign-in account at ${options.providerNotDeleted} could not be deleted right now. Sign in
              again later and delete your account once more to remove it.
            </p>`
          : ''
      }
      <p><a href="/">Back to the start page</a></p>`,
  );
}
