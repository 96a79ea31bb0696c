import type { Push } from '../domain/push';
import { daysRemaining, viewsRemaining } from '../domain/view-policy';
import { type Html, html } from '@secret-push/html';
import { layout } from './layout';
import { type WebHeader, webHeader as header } from './web-header';

/**
 * After a create (`GET /created`, where the form's POST redirects): the link, a copy button, its
 * QR code and when it expires. The page is `no-store`, like every page; a reload within
 * CREATED_PAGE_SECONDS of the create shows the same link again (nothing is created).
 */
export function createdPage(options: {
  link: string;
  qr: Html;
  push: Push;
  now: Date;
  header?: WebHeader;
  /** For a signed-in creator: the Expire now button (the push is theirs). */
  expire?: { urlToken: string; csrf: string };
}): Html {
  const { link, qr, push, now } = options;
  const views = viewsRemaining(push);
  const days = daysRemaining(push, now);
  return layout(
    'Your secret link',
    html`${header(options.header)}
      <h1>Your secret link</h1>
      <p>
        Send this link to the recipient. It is shown only for a few minutes: reloading this page shows the
        same link, and then no more.
      </p>
      <label for="link">Secret link</label>
      <pre class="secret" id="link" tabindex="0">${link}</pre>
      <button type="button" class="secondary" data-copy="link" hidden>Copy the link</button>
      <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
      <div class="qr" role="img" aria-label="QR code of the secret link">${qr}</div>
      <p>
        It can be opened ${views} ${views === 1 ? 'time' : 'times'} within ${days}
        ${days === 1 ? 'day' : 'days'}, until
        <time datetime="${push.expiresAt.toISOString()}"
          >${push.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</time
        >, whichever comes
        first.${push.passphraseProtected ? ' The recipient also needs the passphrase.' : ''}
      </p>
      ${
        options.expire
          ? html`<form method="post" action="/pushes/${options.expire.urlToken}/expire">
              <input type="hidden" name="csrf" value="${options.expire.csrf}" />
              <button type="submit" class="danger">Expire now</button>
            </form>`
          : ''
      }
      <p><a href="/">Share another secret</a></p>`,
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
