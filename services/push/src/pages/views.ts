import type { FileLink } from '../domain/file-link';
import type { Push, PushKind } from '../domain/push';
import { viewsRemaining } from '../domain/view-policy';
import { type Html, html } from '@secret-push/html';
import { layout } from './layout';
import { fileList } from './recipient-files.views';
import { TIMES_SCRIPT, timeAt } from './time.views';

export type PassphraseProblem = { kind: 'wrong' } | { kind: 'too_many'; retryAfterSeconds: number };

const NOUN: Record<PushKind, string> = { text: 'a secret', url: 'a link', qr: 'a QR code', file: 'files' };
const ACTION: Record<PushKind, string> = {
  text: 'Reveal the secret',
  url: 'Open the link',
  qr: 'Show the QR code',
  file: 'Show the files',
};

/** How many more views, and when it expires: "in 6 days" and the exact time (the viewer's zone: TIMES_SCRIPT). */
function limits(push: Push, now: Date): Html {
  const views = viewsRemaining(push);
  return html`<p class="muted">
    It can be opened ${views} more ${views === 1 ? 'time' : 'times'}, and it expires
    ${timeAt(push.expiresAt, now)}.
  </p>`;
}

function problemText(problem: PassphraseProblem): string {
  if (problem.kind === 'wrong') return 'That passphrase is incorrect. Please try again.';
  const s = problem.retryAfterSeconds;
  return `Too many passphrase attempts. Please wait ${s} ${s === 1 ? 'second' : 'seconds'} and try again.`;
}

/**
 * The page a recipient lands on: nothing is revealed and no view is counted. The reveal is a POST
 * of this form; without a retrieval step (and without a passphrase to type) the page script
 * submits it on load.
 */
export function openPage(options: {
  token: string;
  push: Push;
  now: Date;
  autoSubmit: boolean;
  problem?: PassphraseProblem;
  /** The reveal's id: a resubmission of this form (a reload, a retry) spends no other view. */
  revealId: string;
}): Html {
  const { token, push, problem } = options;
  const needsPassphrase = push.passphraseProtected;
  const auto = options.autoSubmit && !needsPassphrase;
  const errorId = 'passphrase-error';
  const passphraseField = needsPassphrase
    ? html`<label for="passphrase">Passphrase</label>
        <p class="muted" id="passphrase-hint">
          The sender protected it with a passphrase; they will have told you it separately.
        </p>
        ${problem ? html`<p class="error" id="${errorId}" role="alert">${problemText(problem)}</p>` : ''}
        <input
          id="passphrase"
          name="passphrase"
          type="password"
          required
          autocomplete="off"
          autocapitalize="off"
          spellcheck="false"
          autofocus
          aria-describedby="passphrase-hint${problem ? ` ${errorId}` : ''}"
          ${problem ? html` aria-invalid="true"` : ''}
        />`
    : '';
  return layout(
    'A secret was shared with you',
    html`<h1>Someone shared ${NOUN[push.kind]} with you</h1>
      ${limits(push, options.now)}
      <p>Nothing is shown until you ask for it, so that link previews cannot use it up.</p>
      <form method="post" action="/p/${token}" ${auto ? html` data-autosubmit` : ''}>
        <input type="hidden" name="reveal_id" value="${options.revealId}" />
        ${passphraseField}
        <button type="submit" ${needsPassphrase ? '' : html` autofocus`}>${ACTION[push.kind]}</button>
      </form>
      ${auto ? html`<p id="autosubmit-note" class="muted" role="status"></p>` : ''}`,
    { recipient: true, scripts: [TIMES_SCRIPT] },
  );
}

/** After the reveal: the secret (or QR image, or files), a copy button, and the viewer's delete button. */
export function revealedPage(options: {
  token: string;
  push: Push;
  now: Date;
  payload: string | null;
  qr?: Html;
  files: readonly FileLink[];
  /** "Download all": one link to a zip of every file (absent with a single file). */
  archiveUrl?: string;
}): Html {
  const { token, push, payload, qr, files, archiveUrl } = options;
  const last = push.expired;
  const copyable =
    payload !== null && payload !== ''
      ? html`<pre class="secret" id="secret" tabindex="0" aria-label="The secret">${payload}</pre>
          <button type="button" class="secondary" data-copy="secret" hidden>Copy to clipboard</button>
          <p id="copy-status" class="muted" role="status" aria-live="polite"></p>`
      : '';
  const content = qr
    ? html`<div class="qr" role="img" aria-label="QR code">${qr}</div>
        <details>
          <summary>Show the text in the QR code</summary>
          ${copyable}
        </details>`
    : copyable;
  const remaining = last
    ? html`<p>
        <strong>That was the last view:</strong> the secret is now deleted from the server. Save it somewhere
        safe if you need it.
      </p>`
    : limits(push, options.now);
  const deletion =
    !last && push.deletableByViewer === true
      ? html`<form method="post" action="/p/${token}/delete">
          <p>Done with it? Delete it now so that nobody else can open the link.</p>
          <button type="submit" class="danger">Delete this secret now</button>
        </form>`
      : '';
  return layout(
    'The shared secret',
    html`<h1>
        ${push.kind === 'qr' ? 'The shared QR code' : push.kind === 'file' ? 'The shared files' : 'The shared secret'}
      </h1>
      ${content} ${files.length > 0 ? fileList(files, archiveUrl) : ''} ${remaining} ${deletion}`,
    { recipient: true, scripts: [TIMES_SCRIPT] },
  );
}

/** One page for unknown and expired links alike: it must not tell which. */
export function gonePage(): Html {
  return layout(
    'This link has expired',
    html`<h1>This secret link has expired or does not exist</h1>
      <p>Secret links work for a limited number of views or days, and the sender may delete them earlier.</p>
      <p>If you still need the secret, ask the person who sent you the link to share it again.</p>`,
    { recipient: true },
  );
}

export function deletedPage(): Html {
  return layout(
    'Secret deleted',
    html`<h1>The secret has been deleted</h1>
      <p>Nobody can open this link any more, you included.</p>`,
    { recipient: true },
  );
}

export function errorPage(title: string, message: string): Html {
  return layout(
    title,
    html`<h1>${title}</h1>
      <p>${message}</p>`,
  );
}

/** Any path that is no page (and no API): people get a page, never JSON. */
export function notFoundPage(): Html {
  return layout(
    'Page not found',
    html`<h1>Page not found</h1>
      <p>There is no page at this address. If you followed a link, check that it was copied whole.</p>
      <p><a href="/">Go to the start page</a></p>`,
  );
}

/** A download link that is not good now (forged, used up, expired): it does not say which. */
export function downloadGonePage(): Html {
  return layout(
    'Download not available',
    html`<h1>This download link is invalid, used up or expired</h1>
      <p>
        Download links work for a short time after the files are shown, and each file can be downloaded a
        limited number of times.
      </p>
      <p>If you still need the files, ask the person who sent them to share them again.</p>`,
  );
}
