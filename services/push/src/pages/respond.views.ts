import { type Html, html, rich } from '@secret-push/html';
import { t, translator } from '@secret-push/i18n';
import { type FieldErrors, described, fieldError, filesField, problemSummary } from './form-parts.views';
import { layout } from './layout';
import { binarySize } from './request-problems';
import { RESPOND_FORM_SCRIPT } from './respond-form.script';
import { TIMES_SCRIPT, timeAt } from './time.views';
import { type WebHeader, webHeader } from './web-header';

/*
 * The responder's pages (`/respond/:token`, issue 28): the request as its owner wrote it (escaped),
 * the form that answers it (text, and files where the request allows them), the confirmation, and
 * the pages for a request already answered (409) or closed/unknown (404, one page for both).
 */

/** The request as the responder sees it (the API's ResponderView). */
export interface ResponderRequest {
  message: string;
  /** The requester's email: only when they chose to show it. */
  requestor: string | null;
  passphraseRequired: boolean;
  fileAnswers: boolean;
  answerableBy: 'anyone' | 'users' | 'emails';
  closeAfterAt: Date;
  files: readonly {
    id: string;
    filename: string;
    contentType: string;
    size: number;
    downloadsLeft: number;
  }[];
  limits?: { maxFiles: number; maxFileBytes: number; maxTotalBytes: number };
}

/** What was typed, shown again when the answer comes back with problems (never the passphrase). */
export interface AnswerValues {
  payload?: string;
  email?: string;
  code?: string;
}

/** The answer form's fields as the problem summary links them, in the page's language. */
export function answerFieldLabels(): Record<string, string> {
  return {
    payload: t('respond.field.payload'),
    passphrase: t('respond.field.passphrase'),
    email: t('respond.field.email'),
    code: t('respond.field.code'),
    'code-email': t('respond.field.codeEmail'),
    files: t('respond.field.files'),
    response: t('respond.field.form'),
  };
}

/**
 * A size for people, in the page's language: `512 bytes`, `1.5 kB`, `2.4 MB`, `1.1 GB` (powers of
 * 1000, as file managers; Intl's units).
 */
export function readableSize(n: number): string {
  const number = translator().number.bind(translator());
  if (n < 1000) return number(n, { style: 'unit', unit: 'byte', unitDisplay: 'long' });
  const units = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'];
  let value = n / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return number(Math.round(value * 10) / 10, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  });
}

/**
 * The requester's message in its box; a request made of files alone (a blank message: a create
 * with attachments, e.g. `pwpush request --attach-file` without text) says so instead of an empty box.
 */
function requestMessage(request: ResponderRequest): Html {
  if (/\S/.test(request.message)) {
    return html`<div class="secret" id="request-message">${request.message}</div>`;
  }
  return html`<p id="request-message">
    ${request.files.length > 0 ? t('respond.noMessageFiles') : t('respond.noMessage')}
  </p>`;
}

/** The requester's files, each with its size and how often it may still be downloaded. */
function requesterFiles(token: string, files: ResponderRequest['files'], downloads: boolean): Html {
  if (files.length === 0) return html``;
  return html`<h2>${t('respond.files.heading')}</h2>
    <ul class="files" id="requester-files">
      ${files.map(
        (f) =>
          html`<li>
            ${
              downloads && f.downloadsLeft > 0
                ? html`<a href="/respond/${token}/files/${f.id}" download="${f.filename}">${f.filename}</a>`
                : html`<span>${f.filename}</span>`
            }
            <span class="muted"
              >${t('respond.files.details', { size: readableSize(f.size), left: f.downloadsLeft })}</span
            >
          </li>`,
      )}
    </ul>`;
}

function passphraseField(errors: FieldErrors): Html {
  return html`<label for="passphrase">${t('respond.field.passphrase')}</label>
    <p class="muted" id="passphrase-hint">${t('respond.passphraseHint')}</p>
    ${fieldError(errors, 'passphrase')}
    <input
      id="passphrase"
      name="passphrase"
      type="password"
      required
      autocomplete="off"
      autocapitalize="off"
      spellcheck="false"
      ${described(errors, 'passphrase')}
    />`;
}

/** Who proves their address: the address (kept after the code was sent) and the code. */
function codeFields(values: AnswerValues, errors: FieldErrors): Html {
  return html`<label for="email">${t('respond.field.email')}</label>
    <p class="muted" id="email-hint">${t('respond.emailHint')}</p>
    ${fieldError(errors, 'email')}
    <input
      id="email"
      name="email"
      type="text"
      inputmode="email"
      autocapitalize="off"
      spellcheck="false"
      required
      autocomplete="email"
      value="${values.email ?? ''}"
      ${described(errors, 'email')}
    />
    <label for="code">${t('respond.field.code')}</label>
    <p class="muted" id="code-hint">${t('respond.codeHint')}</p>
    ${fieldError(errors, 'code')}
    <input
      id="code"
      name="code"
      type="text"
      inputmode="numeric"
      pattern="[0-9]{6}"
      required
      autocomplete="one-time-code"
      value="${values.code ?? ''}"
      ${described(errors, 'code')}
    />`;
}

/** The file input and the progress bar the upload script shows (the form works without it). */
function fileField(limits: NonNullable<ResponderRequest['limits']>, errors: FieldErrors): Html {
  return filesField({ label: t('respond.filesLabel') }, { ...limits, maxCount: limits.maxFiles }, errors);
}

/**
 * `GET /respond/:token`: the request and the form that answers it. Nothing is spent by showing it.
 * `files` is whether this form takes files (the request allows them and the instance stores them):
 * then it is multipart and the upload script shows a progress bar.
 */
export function respondPage(options: {
  token: string;
  request: ResponderRequest;
  header?: WebHeader;
  csrf?: string;
  files: boolean;
  /** The requester's files can be downloaded here (the instance has an object store). */
  downloads?: boolean;
  values?: AnswerValues;
  errors?: FieldErrors;
  /** A one-time code was sent (answerable by listed emails): say so above the form. */
  codeSent?: boolean;
  /** The time the close is counted from ("closes in 3 days"); now by default. */
  now?: Date;
}): Html {
  const { token, request } = options;
  const values = options.values ?? {};
  const errors = options.errors ?? {};
  const files = options.files && request.limits ? request.limits : undefined;
  const upload = files ? html` enctype="multipart/form-data" data-upload data-done="/done"` : '';
  return layout(
    t('respond.title'),
    html`${webHeader(options.header)}
      <h1>${t('respond.heading')}</h1>
      ${
        request.requestor
          ? html`<p>${rich('respond.from', { email: request.requestor })}</p>`
          : html`<p class="muted">${t('respond.anonymousRequestor')}</p>`
      }
      <h2>${t('respond.theirRequest')}</h2>
      ${requestMessage(request)}
      <p class="muted">
        ${rich('respond.closes', { time: timeAt(request.closeAfterAt, options.now ?? new Date()) })}
      </p>
      ${requesterFiles(token, request.files, options.downloads ?? false)}
      ${
        options.codeSent
          ? html`<p role="status" class="notice">${t('respond.code.sent')}</p>
              <p class="muted">
                ${rich('respond.code.noEmail', { link: (c) => html`<a href="/respond/${token}">${c}</a>` })}
              </p>`
          : ''
      }
      ${
        request.answerableBy === 'emails' && !options.codeSent
          ? codeRequestForm(token, values, errors, options.csrf)
          : ''
      }
      <h2>${t('respond.field.payload')}</h2>
      ${problemSummary(errors, answerFieldLabels(), { response: 'payload' })}
      <form method="post" action="/respond/${token}" class="respond" ${upload}>
        ${options.csrf ? html`<input type="hidden" name="csrf" value="${options.csrf}" />` : ''}
        ${request.passphraseRequired ? passphraseField(errors) : ''}
        ${request.answerableBy === 'emails' ? codeFields(values, errors) : ''}
        <label for="payload">${t('respond.field.payload')}</label>
        <p class="muted" id="payload-hint">${t('respond.payloadHint', { files: files ? 'yes' : 'no' })}</p>
        ${fieldError(errors, 'payload')}
        <textarea
          id="payload"
          name="payload"
          rows="6"
          ${files ? '' : html` required`}
          autocomplete="off"
          spellcheck="false"
          ${described(errors, 'payload')}
        >
${values.payload ?? ''}</textarea>
        ${files ? fileField(files, errors) : ''}
        <button type="submit">${t('respond.submit')}</button>
      </form>`,
    {
      scripts: files ? [TIMES_SCRIPT, RESPOND_FORM_SCRIPT] : [TIMES_SCRIPT],
      recipient: true,
      ...(files ? { clientMessages: respondFormMessages(files) } : {}),
    },
  );
}

/** The first step where only listed addresses may answer: the address, to send it a code. */
function codeRequestForm(token: string, values: AnswerValues, errors: FieldErrors, csrf?: string): Html {
  return html`<h2>${t('respond.code.heading')}</h2>
    <p>${t('respond.code.lead')}</p>
    <form method="post" action="/respond/${token}/code">
      ${csrf ? html`<input type="hidden" name="csrf" value="${csrf}" />` : ''}
      <label for="code-email">${t('respond.field.codeEmail')}</label>
      <p class="muted" id="code-email-hint">${t('respond.code.emailHint')}</p>
      ${fieldError(errors, 'code-email')}
      <input
        id="code-email"
        name="email"
        type="text"
        inputmode="email"
        autocapitalize="off"
        spellcheck="false"
        required
        autocomplete="email"
        value="${values.email ?? ''}"
        ${described(errors, 'code-email')}
      />
      <button type="submit" class="secondary">${t('respond.code.send')}</button>
    </form>`;
}

/** After answering (Post/Redirect/Get): what happens now. */
export function answeredPage(header?: WebHeader): Html {
  return layout(
    t('respond.done.title'),
    html`${webHeader(header)}
      <h1>${t('respond.done.heading')}</h1>
      <p>${t('respond.done.text')}</p>`,
    { recipient: true },
  );
}

/** 409: somebody answered already (nothing was stored from this visit). */
export function alreadyAnsweredPage(header?: WebHeader): Html {
  return layout(
    t('respond.answered.title'),
    html`${webHeader(header)}
      <h1>${t('respond.answered.heading')}</h1>
      <p>${t('respond.answered.text')}</p>`,
    { recipient: true },
  );
}

/** 404: closed and unknown requests look the same. */
export function requestGonePage(header?: WebHeader): Html {
  return layout(
    t('respond.gone.title'),
    html`${webHeader(header)}
      <h1>${t('respond.gone.heading')}</h1>
      <p>${t('respond.gone.text')}</p>`,
    { recipient: true },
  );
}

/** Who may answer, when this visitor may not (users only: sign in; a client's token: never). */
export function signInToAnswerPage(signInEnabled: boolean, header?: WebHeader): Html {
  return layout(
    t('respond.signIn.title'),
    html`${webHeader(header)}
      <h1>${t('respond.signIn.heading')}</h1>
      <p>${t('respond.signIn.text')}</p>
      ${
        signInEnabled
          ? html`<p>${rich('respond.signIn.link', { link: (c) => html`<a href="/sign-in">${c}</a>` })}</p>`
          : ''
      }`,
    { recipient: true },
  );
}

/** A requester's file that cannot be downloaded: spent (410) or unknown (404). */
export function attachmentGonePage(spent: boolean, header?: WebHeader): Html {
  return layout(
    spent ? t('respond.fileGone.spentTitle') : t('respond.fileGone.unknownTitle'),
    html`${webHeader(header)}
      <h1>${spent ? t('respond.fileGone.spentHeading') : t('respond.fileGone.unknownHeading')}</h1>
      <p>${t('respond.fileGone.text')}</p>`,
    { recipient: true },
  );
}

/**
 * The upload script's texts (respond-form.script.ts), in the page's language: the limits' problems
 * are worded here with this form's limits; `{name}` (a chosen file) and `{status}` (an HTTP status)
 * are left for the script to fill in.
 */
function respondFormMessages(limits: NonNullable<ResponderRequest['limits']>): Record<string, string> {
  return {
    respondTooMany: t('respond.client.tooMany', { max: limits.maxFiles }),
    respondFileTooLarge: t('respond.client.fileTooLarge', {
      name: '{name}',
      size: binarySize(limits.maxFileBytes),
    }),
    respondTotalTooLarge: t('respond.client.totalTooLarge', { size: binarySize(limits.maxTotalBytes) }),
    respondUploading: t('respond.client.uploading'),
    respondUploaded: t('respond.client.uploaded'),
    respondNotSent: t('respond.client.notSent', { status: '{status}' }),
    respondFailed: t('respond.client.failed'),
  };
}
