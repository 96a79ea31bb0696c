import { type Html, html, rich } from '@secret-push/html';
import { t } from '@secret-push/i18n';
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
    ? html`${t('account.through.ours')}`
    : html`${t('account.through.provider', { host: hostOf(issuer) })}`;
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
  const confirmWord = options.email ?? t('account.delete.word');
  return layout(
    t('account.title'),
    html`${webHeader(options.header)}
      <h1>${t('account.title')}</h1>
      ${options.notice ? html`<p role="status" class="notice">${options.notice}</p>` : ''}
      <dl class="summary">
        <dt>${t('account.email')}</dt>
        <dd>${options.email ?? t('account.noEmail')}</dd>
        <dt>${t('account.signedInThrough')}</dt>
        <dd>${signedInThrough(options.issuer, options.providerPage)}</dd>
      </dl>

      <h2>${t('account.security.heading')}</h2>
      ${
        options.providerPage
          ? html`<p>
              ${rich('account.security.ours', {
                link: (c) => html`<a href="${options.providerPage}">${c}</a>`,
              })}
            </p>`
          : html`<p>${t('account.security.provider', { host: hostOf(options.issuer) })}</p>`
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

      <h2>${t('account.sessions.heading')}</h2>
      <p>${t('account.sessions.text')}</p>
      <form method="post" action="/account/sign-out-others">
        <input type="hidden" name="csrf" value="${csrf}" />
        <button type="submit" class="secondary">${t('account.sessions.submit')}</button>
      </form>

      <h2>${t('account.delete.heading')}</h2>
      <p>${options.providerPage ? t('account.delete.textWithProvider') : t('account.delete.text')}</p>
      <form method="post" action="/account/delete">
        <input type="hidden" name="csrf" value="${csrf}" />
        <label for="confirm">${rich('account.delete.confirm', { word: confirmWord })}</label>
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
        <button type="submit" class="danger">${t('account.delete.submit')}</button>
      </form>`,
  );
}

/** After a deletion: what was done, and what could not be (the provider's part). */
export function accountDeletedPage(options: { expired: number; providerNotDeleted?: string }): Html {
  return layout(
    t('account.deleted.title'),
    html`<h1>${t('account.deleted.heading')}</h1>
      <p>${t('account.deleted.text', { count: options.expired })}</p>
      ${
        options.providerNotDeleted
          ? html`<p class="error">
              ${t('account.deleted.providerNotDeleted', { provider: options.providerNotDeleted })}
            </p>`
          : ''
      }
      <p><a href="/">${t('account.deleted.back')}</a></p>`,
  );
}
