import { type Html, html } from '@secret-push/html';
import { type FieldErrors, described, fieldError, filesField, problemSummary } from './form-parts.views';
import { layout } from './layout';
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

export const ANSWER_FIELD_LABEL: Record<string, string> = {
  payload: 'Your answer',
  passphrase: 'Passphrase',
  email: 'Your email address',
  code: 'Code',
  'code-email': 'Email address for the code',
  files: 'Files',
  response: 'The form',
};

/** A size for people: `512 bytes`, `1.5 KB`, `2.4 MB`, `1.1 GB` (powers of 1000, as file managers). */
export function readableSize(n: number): string {
  if (n < 1000) return `${n} ${n === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1).replace(/\.0$/, '')} ${units[unit]}`;
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
    ${
      request.files.length > 0
        ? 'The requester sent no message, only the files below, and asks for your answer.'
        : 'The requester sent no message and asks for your answer.'
    }
  </p>`;
}

/** The requester's files, each with its size and how often it may still be downloaded. */
function requesterFiles(token: string, files: ResponderRequest['files'], downloads: boolean): Html {
  if (files.length === 0) return html``;
  return html`<h2>Files from the requester</h2>
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
              >(${readableSize(f.size)};
              ${
                f.downloadsLeft > 0
                  ? `${f.downloadsLeft} ${f.downloadsLeft === 1 ? 'download' : 'downloads'} left`
                  : 'no downloads left'
              })</span
            >
          </li>`,
      )}
    </ul>`;
}

function passphraseField(errors: FieldErrors): Html {
  return html`<label for="passphrase">Passphrase</label>
    <p class="muted" id="passphrase-hint">
      The requester protected this request with a passphrase; they will have told you it separately.
    </p>
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
  return html`<label for="email">Your email address</label>
    <p class="muted" id="email-hint">The address the requester listed, where your code was sent.</p>
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
    <label for="code">Code</label>
    <p class="muted" id="code-hint">The 6-digit code from the email (it says how long the code is valid).</p>
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
  return filesField({ label: 'Files (optional)' }, { ...limits, maxCount: limits.maxFiles }, errors);
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
    'A secret was requested',
    html`${webHeader(options.header)}
      <h1>Someone asks you for a secret</h1>
      ${
        request.requestor
          ? html`<p>From <strong>${request.requestor}</strong>.</p>`
          : html`<p class="muted">The requester chose not to show their address.</p>`
      }
      <h2>Their request</h2>
      ${requestMessage(request)}
      <p class="muted">
        You can answer once. The request closes ${timeAt(request.closeAfterAt, options.now ?? new Date())}.
      </p>
      ${requesterFiles(token, request.files, options.downloads ?? false)}
      ${
        options.codeSent
          ? html`<p role="status" class="notice">If that address may answer, a code was sent to it.</p>
              <p class="muted">
                No email after a few minutes? <a href="/respond/${token}">Ask for a new code</a>.
              </p>`
          : ''
      }
      ${
        request.answerableBy === 'emails' && !options.codeSent
          ? codeRequestForm(token, values, errors, options.csrf)
          : ''
      }
      <h2>Your answer</h2>
      ${problemSummary(errors, ANSWER_FIELD_LABEL, { response: 'payload' })}
      <form method="post" action="/respond/${token}" class="respond" ${upload}>
        ${options.csrf ? html`<input type="hidden" name="csrf" value="${options.csrf}" />` : ''}
        ${request.passphraseRequired ? passphraseField(errors) : ''}
        ${request.answerableBy === 'emails' ? codeFields(values, errors) : ''}
        <label for="payload">Your answer</label>
        <p class="muted" id="payload-hint">
          The secret the requester asked for${files ? ' (optional when you attach files)' : ''}. It is
          encrypted on the server, and only the requester can open it.
        </p>
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
        <button type="submit">Send the answer</button>
      </form>`,
    { scripts: files ? [TIMES_SCRIPT, RESPOND_FORM_SCRIPT] : [TIMES_SCRIPT], recipient: true },
  );
}

/** The first step where only listed addresses may answer: the address, to send it a code. */
function codeRequestForm(token: string, values: AnswerValues, errors: FieldErrors, csrf?: string): Html {
  return html`<h2>Prove your address</h2>
    <p>Only the addresses the requester listed may answer. Ask for a code, then type it below.</p>
    <form method="post" action="/respond/${token}/code">
      ${csrf ? html`<input type="hidden" name="csrf" value="${csrf}" />` : ''}
      <label for="code-email">Email address for the code</label>
      <p class="muted" id="code-email-hint">A 6-digit code is sent there if it may answer.</p>
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
      <button type="submit" class="secondary">Send me a code</button>
    </form>`;
}

/** After answering (Post/Redirect/Get): what happens now. */
export function answeredPage(header?: WebHeader): Html {
  return layout(
    'Answer sent',
    html`${webHeader(header)}
      <h1>Your answer was sent</h1>
      <p>
        It is stored encrypted, and only the requester can open it, a limited number of times. You can close
        this page.
      </p>`,
    { recipient: true },
  );
}

/** 409: somebody answered already (nothing was stored from this visit). */
export function alreadyAnsweredPage(header?: WebHeader): Html {
  return layout(
    'Already answered',
    html`${webHeader(header)}
      <h1>This request has already been answered</h1>
      <p>
        A request takes one answer. If the requester still needs something, they can send you a new request.
      </p>`,
    { recipient: true },
  );
}

/** 404: closed and unknown requests look the same. */
export function requestGonePage(header?: WebHeader): Html {
  return layout(
    'Request closed',
    html`${webHeader(header)}
      <h1>This request is closed or does not exist</h1>
      <p>
        Requests stay open for a limited time, and the requester may close them earlier. If you still need to
        send them something, ask them for a new link.
      </p>`,
    { recipient: true },
  );
}

/** Who may answer, when this visitor may not (users only: sign in; a client's token: never). */
export function signInToAnswerPage(signInEnabled: boolean, header?: WebHeader): Html {
  return layout(
    'Sign in to answer',
    html`${webHeader(header)}
      <h1>Sign in to answer this request</h1>
      <p>Only people with an account on this instance may answer it.</p>
      ${signInEnabled ? html`<p><a href="/sign-in">Sign in</a>, then open the link again.</p>` : ''}`,
    { recipient: true },
  );
}

/** A requester's file that cannot be downloaded: spent (410) or unknown (404). */
export function attachmentGonePage(spent: boolean, header?: WebHeader): Html {
  return layout(
    spent ? 'File no longer available' : 'File not found',
    html`${webHeader(header)}
      <h1>${spent ? 'This file was downloaded as many times as allowed' : 'This file does not exist'}</h1>
      <p>If you still need it, ask the requester to send it again.</p>`,
    { recipient: true },
  );
}
