import type { Push } from '../domain/push';
import { isEffectivelyExpired, viewsRemaining } from '../domain/view-policy';
import { type Html, html, rich } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import { flashMessage } from './flash';
import { layout } from './layout';
import { TIMES_SCRIPT, timeAt } from './time.views';
import { type WebHeader, webHeader } from './web-header';

/** The kinds' names (catalogue keys). */
const KIND: Record<Push['kind'], string> = {
  text: 'receipt.kind.text',
  url: 'receipt.kind.url',
  qr: 'receipt.kind.qr',
  file: 'receipt.kind.file',
};

/**
 * `/receipt/:receipt`: an anonymous sender's status page of their push: its state, views left and
 * expiry, never its secret, and (while it is active) Expire now, which asks first.
 */
export function receiptPage(options: {
  receipt: string;
  push: Push;
  now: Date;
  header?: WebHeader;
  flash?: string;
}): Html {
  const { push, now, receipt } = options;
  const live = !isEffectivelyExpired(push, now);
  const views = viewsRemaining(push);
  return layout(
    t('receipt.title'),
    html`${webHeader(options.header)}
      <h1>${t('receipt.title')}</h1>
      ${flashMessage(options.flash)}
      <p class="muted">${t('receipt.intro')}</p>
      <dl class="facts">
        ${
          push.name
            ? html`<dt>${t('receipt.name')}</dt>
                <dd>${push.name}</dd>`
            : ''
        }
        <dt>${t('receipt.kind.label')}</dt>
        <dd>${t(KIND[push.kind])}</dd>
        <dt>${t('receipt.state')}</dt>
        <dd id="receipt-state">${live ? rich('receipt.active') : rich('receipt.expired')}</dd>
        <dt>${t('receipt.views')}</dt>
        <dd>
          ${
            live
              ? t('receipt.viewsUsedLeft', { used: push.views, total: push.expireAfterViews, left: views })
              : t('receipt.viewsUsed', { used: push.views, total: push.expireAfterViews })
          }
        </dd>
        <dt>${live ? t('receipt.expires') : t('receipt.expiredOn')}</dt>
        <dd>${live ? timeAt(push.expiresAt, now) : timeAt(push.expiredOn ?? push.updatedAt, now)}</dd>
        <dt>${t('receipt.created')}</dt>
        <dd>${timeAt(push.createdAt, now)}</dd>
      </dl>
      ${
        live
          ? html`<p>${t('receipt.expireHint')}</p>
              <p><a class="button secondary" href="/receipt/${receipt}/expire">${t('receipt.expire')}</a></p>`
          : html`<p>${t('receipt.gone')}</p>`
      }
      <p><a href="/">${t('receipt.another')}</a></p>`,
    { scripts: [TIMES_SCRIPT] },
  );
}

/** The receipt part of the created page: the private status link beside the secret link. */
export function receiptPart(receiptUrl: string): Html {
  return html`<section class="receipt" aria-labelledby="receipt-title">
    <h2 id="receipt-title">${t('receipt.part.title')}</h2>
    <p class="muted" id="receipt-hint">${t('receipt.part.hint')}</p>
    <label for="receipt">${t('receipt.part.label')}</label>
    <div class="link-field">
      <input
        id="receipt"
        type="text"
        readonly
        value="${receiptUrl}"
        aria-describedby="receipt-hint"
        autocomplete="off"
        spellcheck="false"
      />
      <button type="button" class="secondary" data-copy="receipt" hidden>
        ${rich('receipt.part.copy', { hidden: (c) => html`<span class="visually-hidden">${c}</span>` })}
      </button>
    </div>
  </section>`;
}
