import type { Push } from '../domain/push';
import { isEffectivelyExpired, viewsRemaining } from '../domain/view-policy';
import { type Html, html } from '@secret-push/html';
import { flashMessage } from './flash';
import { layout } from './layout';
import { TIMES_SCRIPT, timeAt } from './time.views';
import { type WebHeader, webHeader } from './web-header';

const KIND: Record<Push['kind'], string> = { text: 'Text', url: 'Link', qr: 'QR code', file: 'Files' };

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
    'Your secret’s status',
    html`${webHeader(options.header)}
      <h1>Your secret’s status</h1>
      ${flashMessage(options.flash)}
      <p class="muted">
        This private page shows what happened to the secret you shared. It never shows the secret; keep its
        link to yourself.
      </p>
      <dl class="facts">
        ${
          push.name
            ? html`<dt>Name</dt>
                <dd>${push.name}</dd>`
            : ''
        }
        <dt>Kind</dt>
        <dd>${KIND[push.kind]}</dd>
        <dt>State</dt>
        <dd id="receipt-state">
          ${live ? html`<strong>Active</strong>: it can still be opened` : html`<strong>Expired</strong>`}
        </dd>
        <dt>Views</dt>
        <dd>
          ${push.views} of ${push.expireAfterViews}
          used${live ? html`, ${views} ${views === 1 ? 'view' : 'views'} left` : ''}
        </dd>
        <dt>${live ? 'Expires' : 'Expired'}</dt>
        <dd>${live ? timeAt(push.expiresAt, now) : timeAt(push.expiredOn ?? push.updatedAt, now)}</dd>
        <dt>Created</dt>
        <dd>${timeAt(push.createdAt, now)}</dd>
      </dl>
      ${
        live
          ? html`<p>
                If you sent the link to the wrong person, or it is no longer needed, expire it: nobody can
                open it after that.
              </p>
              <p><a class="button secondary" href="/receipt/${receipt}/expire">Expire now</a></p>`
          : html`<p>Nobody can open its link any more: its secret has been deleted.</p>`
      }
      <p><a href="/">Share another secret</a></p>`,
    { scripts: [TIMES_SCRIPT] },
  );
}

/** The receipt part of the created page: the private status link beside the secret link. */
export function receiptPart(receiptUrl: string): Html {
  return html`<section class="receipt" aria-labelledby="receipt-title">
    <h2 id="receipt-title">Your private status link</h2>
    <p class="muted" id="receipt-hint">
      For you, not the recipient: it shows whether the secret was opened, and lets you expire it. Keep it: it
      is shown only here.
    </p>
    <label for="receipt">Status link</label>
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
        Copy<span class="visually-hidden"> the status link</span>
      </button>
    </div>
  </section>`;
}
