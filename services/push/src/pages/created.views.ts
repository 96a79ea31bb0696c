import type { Push } from '../domain/push';
import { viewsRemaining } from '../domain/view-policy';
import { type Html, html } from '@secret-push/html';
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
    'Your secret link',
    html`${header(options.header)}
      <h1>Your secret link</h1>
      <p id="link-hint">
        Send this link to the recipient. It is shown only for a few minutes: reloading this page shows the
        same link, and then no more.
      </p>
      <label for="link">Secret link</label>
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
        <button type="button" data-copy="link" hidden>Copy the link</button>
      </div>
      <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
      <p id="link-limits">
        It can be opened ${views} ${views === 1 ? 'time' : 'times'}, until ${timeAt(push.expiresAt, now)},
        whichever comes first.${push.passphraseProtected ? ' The recipient also needs the passphrase.' : ''}
      </p>
      ${options.receipt ? receiptPart(options.receipt) : ''}
      <h2 id="qr-title">QR code of the link — not the secret</h2>
      <p class="muted">
        To open the link on a phone, scan
        this.${push.kind === 'qr' ? ' Your QR code appears only once the link is opened.' : ''}
      </p>
      <div class="qr" role="img" aria-labelledby="qr-title">${qr}</div>
      ${
        options.expireHref
          ? html`<p><a class="button secondary" href="${options.expireHref}">Expire now</a></p>`
          : ''
      }
      <p><a href="/">Share another secret</a></p>`,
    { scripts: [TIMES_SCRIPT] },
  );
}

/**
 * `GET /created` once the link is no longer shown (after CREATED_PAGE_SECONDS, in another browser,
 * or from another address): nothing was created again; where to find or expire the secret.
 */
export function createdGonePage(options: { header?: WebHeader; signedIn: boolean }): Html {
  return layout(
    'Link no longer shown',
    html`${header(options.header)}
      <h1>Link no longer shown</h1>
      <p>
        The secret link was shown when the secret was created, and for a few minutes after. Reloading this
        page did not create another secret.
      </p>
      ${
        options.signedIn
          ? html`<p>You find it, and can expire it, in <a href="/pushes">Your pushes</a>.</p>`
          : html`<p>
              If you lost the link, nobody can open it through this page: the secret expires by itself after
              its days or views. Create a new one for the recipient.
            </p>`
      }
      <p><a href="/">Share another secret</a></p>`,
  );
}
