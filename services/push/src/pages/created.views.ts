import type { Push } from '../domain/push';
import { viewsRemaining } from '../domain/view-policy';
import { type Html, html, rich } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import { layout } from './layout';
import { receiptPart } from './receipt.views';
import { TIMES_SCRIPT, timeAt } from './time.views';
import { type WebHeader, webHeader as header } from './web-header';

/**
 * After a create (`GET /created`, where the form's POST redirects): the link in a labelled read-only
 * field with "Copy the link" (the main action), when it expires, an anonymous sender's private
 * status link (the receipt), the QR code of the link (labelled: not the secret) and Expire now,
 * which asks first. The page is `no-store`, like every page; a reload within CREATED_PAGE_SECONDS of
 * the create shows the same page again (nothing is created).
 */
export function createdPage(options: {
  link: string;
  qr: Html;
  push: Push;
  now: Date;
  header?: WebHeader;
  /** Where "Expire now" asks first: the owner's confirmation, or the receipt's. */
  expireHref?: string;
  /** An anonymous create's receipt URL (its private status link). */
  receipt?: string;
}): Html {
  const { link, qr, push, now } = options;
  const views = viewsRemaining(push);
  return layout(
    t('created.title'),
    html`${header(options.header)}
      <h1>${t('created.title')}</h1>
      <p id="link-hint">${t('created.hint')}</p>
      <label for="link">${t('created.linkLabel')}</label>
      <div class="link-field">
        <input
          id="link"
          type="text"
          readonly
          value="${link}"
          aria-describedby="link-hint link-limits"
          autocomplete="off"
          spellcheck="false"
        />
        <button type="button" data-copy="link" hidden>${t('created.copy')}</button>
      </div>
      <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
      <p id="link-limits">
        ${rich('created.limits', { count: views, until: timeAt(push.expiresAt, now) })}
        ${push.passphraseProtected ? t('created.needsPassphrase') : ''}
      </p>
      ${options.receipt ? receiptPart(options.receipt) : ''}
      <h2 id="qr-title">${t('created.qrTitle')}</h2>
      <p class="muted">${t('created.qrHint')} ${push.kind === 'qr' ? t('created.qrOwn') : ''}</p>
      <div class="qr" role="img" aria-labelledby="qr-title">${qr}</div>
      ${
        options.expireHref
          ? html`<p><a class="button secondary" href="${options.expireHref}">${t('created.expire')}</a></p>`
          : ''
      }
      <p><a href="/">${t('created.another')}</a></p>`,
    { scripts: [TIMES_SCRIPT] },
  );
}

/**
 * `GET /created` once the link is no longer shown (after CREATED_PAGE_SECONDS, in another browser,
 * or from another address): nothing was created again; where to find or expire the secret.
 */
export function createdGonePage(options: { header?: WebHeader; signedIn: boolean }): Html {
  return layout(
    t('created.gone.title'),
    html`${header(options.header)}
      <h1>${t('created.gone.title')}</h1>
      <p>${t('created.gone.text')}</p>
      ${
        options.signedIn
          ? html`<p>${rich('created.gone.signedIn', { link: (c) => html`<a href="/pushes">${c}</a>` })}</p>`
          : html`<p>${t('created.gone.anonymous')}</p>`
      }
      <p><a href="/">${t('created.another')}</a></p>`,
  );
}
