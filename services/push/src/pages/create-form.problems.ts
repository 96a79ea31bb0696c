import { HttpError } from '@secret-push/http-kit';
import { t } from '@secret-push/i18n';
import { sizeText } from './form-parts.views';

/*
 * The create form's problems in the page's language. A refused create's problems come from the
 * API's schema and the upload step, in English (API clients parse them, and they stay so there);
 * the form shows each as the catalogue's message for it, recognised by its English wording, with
 * the numbers, sizes and addresses it names. A problem this list does not know is said in general
 * terms (the page's language), never in English.
 */

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

/** `5 MiB` (fmtBytes of uploads/form.ts) back to bytes, to be said in the page's language. */
function bytesOf(text: string): number | undefined {
  const m = /^(\d+) (GiB|MiB|KiB|bytes)$/.exec(text.trim());
  if (!m) return undefined;
  const unit = { GiB: GIB, MiB: MIB, KiB: KIB, bytes: 1 }[m[2] as 'GiB' | 'MiB' | 'KiB' | 'bytes'];
  return Number(m[1]) * unit;
}

const size = (text: string) => {
  const bytes = bytesOf(text);
  return bytes === undefined ? text : sizeText(bytes);
};

type Rule = readonly [RegExp, (m: RegExpExecArray) => string];

/** The API's and the upload step's English messages, and the page's message for each. */
const RULES: readonly Rule[] = [
  [
    /^must be an integer from (\d+) to (\d+)$/,
    (m) => t('create.problem.range', { min: +m[1]!, max: +m[2]! }),
  ],
  [/^Payload is required\.$/, () => t('create.problem.payloadRequired')],
  [
    /^The QR code payload is too large\. You can only push up to (\d+) characters\.$/,
    (m) => t('create.problem.qrTooLong', { max: +m[1]! }),
  ],
  [
    /^The payload is too large\. You can only push up to (\d+) characters\.$/,
    (m) => t('create.problem.payloadTooLong', { max: +m[1]! }),
  ],
  [/^must be a valid HTTP or HTTPS URL\.$/, () => t('create.problem.url')],
  [/ pushes are disabled\.$/, () => t('create.problem.kindDisabled')],
  [/^must be one of /, () => t('create.problem.kindDisabled')],
  [/must be at most (\d+) characters$/, (m) => t('create.problem.tooLong', { max: +m[1]! })],
  [/must not contain NUL characters$/, () => t('create.problem.nul')],
  [/^must be a string$/, () => t('create.problem.invalid')],
  [/^must be a boolean /, () => t('create.problem.invalid')],
  [/^send either expire_after_duration or expire_after_days/, () => t('create.problem.durationOrDays')],
  [/^can name at most (\d+) email addresses$/, (m) => t('create.problem.tooManyAddresses', { max: +m[1]! })],
  [/^can't be blank$/, () => t('create.problem.blank')],
  [/^must not have an empty address/, () => t('create.problem.emptyAddress')],
  [/^contains invalid email addresses: (.*)$/, (m) => t('create.problem.badAddresses', { list: m[1]! })],
  [
    /^contains duplicate email addresses: (.*)$/,
    (m) => t('create.problem.duplicateAddresses', { list: m[1]! }),
  ],
  [/^is not available$/, () => t('create.problem.localeUnavailable')],
  [/^must be a list of /, () => t('create.problem.notices')],
  [/^You can only attach up to (\d+) files per /, (m) => t('create.problem.tooManyFiles', { max: +m[1]! })],
  [/^A file exceeds the limit of (.+)\.$/, (m) => t('create.problem.fileTooLarge', { size: size(m[1]!) })],
  [/^The files together exceed (.+)\.$/, (m) => t('create.problem.filesTooLarge', { size: size(m[1]!) })],
  [/^Send (each file as a file part|files in the field)/, () => t('create.problem.fileParts')],
  [/^The form field .* exceeds (.+)\.$/, (m) => t('create.problem.fieldTooLarge', { size: size(m[1]!) })],
  [
    /^The form fields together exceed (.+)\.$/,
    (m) => t('create.problem.fieldsTooLarge', { size: size(m[1]!) }),
  ],
  [/^The form has (more than \d+ fields|too many parts)\.$/, () => t('create.problem.tooManyFields')],
];

/** One English problem of the API or the upload step, in the page's language. */
export function pageProblem(message: string): string {
  for (const [pattern, say] of RULES) {
    const m = pattern.exec(message);
    if (m) return say(m);
  }
  return t('create.problem.invalid');
}

/** The refusals the forms' own checks made, already worded in the page's language. */
const ownRefusals = new WeakSet<HttpError>();

/** A 422 of a form's own checks (not the API's), its messages in the page's language already. */
export function formRefusal(fields: Record<string, string[]>): HttpError {
  const err = HttpError.validation(fields);
  ownRefusals.add(err);
  return err;
}

/** A refused create's problems by field, each in the page's language (see pageProblem). */
export function pageProblems(err: HttpError): Record<string, string[]> {
  const fields = err.options.fields ?? { push: [err.message] };
  if (ownRefusals.has(err)) return { ...fields };
  return Object.fromEntries(Object.entries(fields).map(([name, list]) => [name, list.map(pageProblem)]));
}
