import { type Html, html } from '@secret-push/html';
import { t, translator } from '@secret-push/i18n';

/*
 * Small pieces shared by the request pages' forms (the requester's create form and the
 * responder's answer form): a field's error, its `aria-describedby`/`aria-invalid`, the problem
 * summary above a form, and a yes/no box.
 */

export type FieldErrors = Record<string, string[]>;

/** The field's problem, under its label (id `<name>-error`), or nothing. */
export function fieldError(errors: FieldErrors, name: string): Html {
  const messages = errors[name];
  return messages?.length ? html`<p class="error" id="${name}-error">${messages.join(' ')}</p>` : html``;
}

/** `aria-describedby` (its hint, and its error when it has one) and `aria-invalid`. */
export function described(errors: FieldErrors, name: string, hint = true): Html {
  const bad = !!errors[name]?.length;
  const ids = [hint ? `${name}-hint` : '', bad ? `${name}-error` : ''].filter(Boolean);
  return html`${ids.length ? html` aria-describedby="${ids.join(' ')}"` : ''}${bad ? html` aria-invalid="true"` : ''}`;
}

/** The problems of a refused form, above it, each linked to its field (`labels` names them). */
export function problemSummary(
  errors: FieldErrors,
  labels: Record<string, string>,
  anchors: Record<string, string> = {},
): Html {
  const problems = Object.entries(errors);
  if (problems.length === 0) return html``;
  return html`<div class="error-summary" role="alert" tabindex="-1" id="problems">
    <h2>${t('create.parts.correct', { count: problems.length })}</h2>
    <ul>
      ${problems.map(
        ([name, messages]) =>
          html`<li>
            <a href="#${anchors[name] ?? name}">${labels[name] ?? name}</a>${t('create.parts.colon')}
            ${messages.join(' ')}
          </li>`,
      )}
    </ul>
  </div>`;
}

/** A yes/no box: the hidden "false" is sent when it is unchecked. */
export function checkbox(
  name: string,
  label: string,
  hint: string,
  checked: boolean,
  errors: FieldErrors = {},
): Html {
  return html`<div class="choice">
    <input type="hidden" name="${name}" value="false" />
    <input
      type="checkbox"
      id="${name}"
      name="${name}"
      value="true"
      ${checked ? html` checked` : ''}
      ${described(errors, name)}
    />
    <label for="${name}">${label}</label>
    <p class="muted" id="${name}-hint">${hint}</p>
    ${fieldError(errors, name)}
  </div>`;
}

/** A date as the pages show it: minutes, UTC, in a `<time>`, in the page's language. */
export const when = (d: Date): Html =>
  html`<time datetime="${d.toISOString()}"
    >${t('create.parts.utc', {
      time: translator().date(d, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
    })}</time
  >`;

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

/**
 * A size as the forms state limits, in the page's language: in the largest unit that gives it
 * with at most one decimal (`5 MiB`, `1,5 GiB`), else in bytes.
 */
export function sizeText(bytes: number): string {
  const n = (value: number) => translator().number(value, { maximumFractionDigits: 1 });
  const exact = (unit: number) => bytes >= unit && (bytes * 10) % unit === 0;
  if (exact(GIB)) return t('create.size.gib', { n: n(bytes / GIB) });
  if (exact(MIB)) return t('create.size.mib', { n: n(bytes / MIB) });
  if (exact(KIB)) return t('create.size.kib', { n: n(bytes / KIB) });
  return t('create.size.bytes', { count: bytes });
}

/** The file limits a files field states and its upload script checks before sending. */
export interface FilesFieldLimits {
  maxCount: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

/**
 * A file input (several files at once) with its limits, and the upload's progress bar, which only
 * the upload script shows (the form works without it: a plain multipart POST). One for the create
 * form and the responder's answer: `label` and `lead` (a sentence before the limits) differ.
 */
export function filesField(
  text: { label: string; lead?: string },
  limits: FilesFieldLimits,
  errors: FieldErrors,
): Html {
  const limitsText = t('create.parts.filesLimits', {
    count: limits.maxCount,
    file: sizeText(limits.maxFileBytes),
    total: sizeText(limits.maxTotalBytes),
  });
  return html`<div class="files-field" id="files-field">
    <label for="files">${text.label}</label>
    <p class="muted" id="files-hint">${text.lead ? `${text.lead} ` : ''}${limitsText}</p>
    ${fieldError(errors, 'files')}
    <input
      id="files"
      name="files"
      type="file"
      multiple
      data-max-count="${limits.maxCount}"
      data-max-file-bytes="${limits.maxFileBytes}"
      data-max-total-bytes="${limits.maxTotalBytes}"
      ${described(errors, 'files')}
    />
    <div class="upload" id="upload" hidden>
      <label for="upload-progress">${t('create.parts.upload')}</label>
      <progress id="upload-progress" max="100" value="0"></progress>
      <span id="upload-percent" aria-hidden="true">0 %</span>
    </div>
    <p id="upload-status" role="status" aria-live="polite"></p>
  </div>`;
}

/**
 * The passphrase of a form (create, request). A form that comes back with problems after one was
 * typed never echoes it: it says to type it again (an error of the field) and carries
 * `passphrase_required`, so that nothing is created without the passphrase the person asked for.
 */
export function passphraseInput(hint: string, required: boolean, errors: FieldErrors): Html {
  return html`<label for="passphrase">${t('create.parts.passphrase')}</label>
    <p class="muted" id="passphrase-hint">${hint}</p>
    ${fieldError(errors, 'passphrase')}
    ${required ? html`<input type="hidden" name="passphrase_required" value="true" />` : ''}
    <input
      id="passphrase"
      name="passphrase"
      type="password"
      autocomplete="new-password"
      ${required ? html` required` : ''}
      ${described(errors, 'passphrase')}
    />`;
}
