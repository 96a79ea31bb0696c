import type { FileLink } from '../domain/file-link';
import type { Push } from '../domain/push';
import { viewsRemaining } from '../domain/view-policy';
import { type Html, html, rich } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import { layout } from './layout';
import { fileList } from './recipient-files.views';
import { TIMES_SCRIPT, timeAt } from './time.views';

export type PassphraseProblem = { kind: 'wrong' } | { kind: 'too_many'; retryAfterSeconds: number };

/** How many more views, and when it expires: "in 6 days" and the exact time (the viewer's zone: TIMES_SCRIPT). */
function limits(push: Push, now: Date): Html {
  return html`<p class="muted">
    ${rich('recipient.limits', { views: viewsRemaining(push), when: timeAt(push.expiresAt, now) })}
  </p>`;
}

function problemText(problem: PassphraseProblem): string {
  if (problem.kind === 'wrong') return t('recipient.passphrase.wrong');
  return t('recipient.passphrase.tooMany', { seconds: problem.retryAfterSeconds });
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
    ? html`<label for="passphrase">${t('recipient.passphrase.label')}</label>
        <p class="muted" id="passphrase-hint">${t('recipient.passphrase.hint')}</p>
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
    t('recipient.open.title'),
    html`<h1>${t('recipient.open.heading', { kind: push.kind })}</h1>
      ${limits(push, options.now)}
      <p>${t('recipient.open.noPreview')}</p>
      <form method="post" action="/p/${token}" ${auto ? html` data-autosubmit` : ''}>
        <input type="hidden" name="reveal_id" value="${options.revealId}" />
        ${passphraseField}
        <button type="submit" ${needsPassphrase ? '' : html` autofocus`}>
          ${t('recipient.open.action', { kind: push.kind })}
        </button>
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
      ? html`<pre class="secret" id="secret" tabindex="0" aria-label="${t('recipient.revealed.secretLabel')}">
${payload}</pre>
          <button type="button" class="secondary" data-copy="secret" hidden>
            ${t('recipient.revealed.copy')}
          </button>
          <p id="copy-status" class="muted" role="status" aria-live="polite"></p>`
      : '';
  const content = qr
    ? html`<div class="qr" role="img" aria-label="${t('recipient.revealed.qrLabel')}">${qr}</div>
        <details>
          <summary>${t('recipient.revealed.qrText')}</summary>
          ${copyable}
        </details>`
    : copyable;
  const remaining = last ? html`<p>${rich('recipient.revealed.lastView')}</p>` : limits(push, options.now);
  const deletion =
    !last && push.deletableByViewer === true
      ? html`<form method="post" action="/p/${token}/delete">
          <p>${t('recipient.revealed.deletePrompt')}</p>
          <button type="submit" class="danger">${t('recipient.revealed.delete')}</button>
        </form>`
      : '';
  return layout(
    t('recipient.revealed.title'),
    html`<h1>${t('recipient.revealed.heading', { kind: push.kind })}</h1>
      ${content} ${files.length > 0 ? fileList(files, archiveUrl) : ''} ${remaining} ${deletion}`,
    { recipient: true, scripts: [TIMES_SCRIPT] },
  );
}

/** One page for unknown and expired links alike: it must not tell which. */
export function gonePage(): Html {
  return layout(
    t('recipient.gone.title'),
    html`<h1>${t('recipient.gone.heading')}</h1>
      <p>${t('recipient.gone.why')}</p>
      <p>${t('recipient.gone.again')}</p>`,
    { recipient: true },
  );
}

export function deletedPage(): Html {
  return layout(
    t('recipient.deleted.title'),
    html`<h1>${t('recipient.deleted.heading')}</h1>
      <p>${t('recipient.deleted.text')}</p>`,
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
    t('errors.notFound.title'),
    html`<h1>${t('errors.notFound.title')}</h1>
      <p>${t('errors.notFound.text')}</p>
      <p><a href="/">${t('errors.notFound.home')}</a></p>`,
  );
}

/** A download link that is not good now (forged, used up, expired): it does not say which. */
export function downloadGonePage(): Html {
  return layout(
    t('errors.downloadGone.title'),
    html`<h1>${t('errors.downloadGone.heading')}</h1>
      <p>${t('errors.downloadGone.why')}</p>
      <p>${t('errors.downloadGone.again')}</p>`,
  );
}
