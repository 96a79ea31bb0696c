import { t, translator } from '@secret-push/i18n';
import type { FieldErrors } from './form-parts.views';

/*
 * The problems the request pages show next to a field, in the page's language. The API's and the
 * domain's messages stay English (clients parse them); a page maps each one it can meet, by its
 * field and its wording, to a catalogue message (the numbers and addresses it names kept). A
 * message this table does not know says only that the field is not right.
 */

const BINARY: Record<string, number> = { bytes: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

/** A size as the API words it (`5 MiB`, fmtBytes) in the page's language; else as it is. */
function sizeOf(words: string): string {
  const m = /^(\d+) (bytes|KiB|MiB|GiB)$/.exec(words);
  return m ? binarySize(Number(m[1]) * BINARY[m[2]!]!) : words;
}

/** A limit (usually a power of 1024: 1 MiB) as the page's language writes sizes (`1 MB`, `1,5 MB`). */
export function binarySize(n: number): string {
  const units: [number, string][] = [
    [1024 ** 3, 'gigabyte'],
    [1024 ** 2, 'megabyte'],
    [1024, 'kilobyte'],
  ];
  for (const [size, unit] of units) {
    if (n >= size) {
      return translator().number(n / size, {
        style: 'unit',
        unit,
        unitDisplay: 'short',
        maximumFractionDigits: 1,
      });
    }
  }
  return translator().number(n, { style: 'unit', unit: 'byte', unitDisplay: 'long' });
}

type Rule = [RegExp, (m: RegExpExecArray) => string];

const RULES: readonly Rule[] = [
  [/^can't be blank$/, () => t('requests.problem.blank')],
  [/at most (\d+) characters$/, (m) => t('requests.problem.tooLong', { max: Number(m[1]) })],
  [
    /^must be an integer from (\d+) to (\d+)$/,
    (m) => t('requests.problem.range', { min: Number(m[1]), max: Number(m[2]) }),
  ],
  [/must not contain NUL characters$/, () => t('requests.problem.nul')],
  [
    /^can name at most (\d+) email addresses$/,
    (m) => t('requests.problem.tooManyAddresses', { max: Number(m[1]) }),
  ],
  [/^must not have an empty address/, () => t('requests.problem.emptyAddress')],
  [/^contains invalid email addresses: (.*)$/, (m) => t('requests.problem.invalidAddresses', { list: m[1] })],
  [
    /^contains duplicate email addresses: (.*)$/,
    (m) => t('requests.problem.duplicateAddresses', { list: m[1] }),
  ],
  [/^must be a comma-separated string/, () => t('requests.problem.addresses')],
  [/^is not available$/, () => t('requests.problem.notAvailable')],
  [/^emails (needs email|is not available)/, () => t('requests.problem.emailsUnavailable')],
  [/^email is not sent by this instance$/, () => t('requests.problem.noEmail')],
  [/^only with answerable_by emails$/, () => t('requests.problem.onlyWithEmails')],
  [/^must be one of /, () => t('requests.problem.choose')],
  [
    /^A file exceeds the limit of (.+)\.$/,
    (m) => t('requests.problem.fileTooLarge', { size: sizeOf(m[1]!) }),
  ],
  [/^The files together exceed (.+)\.$/, (m) => t('requests.problem.filesTooLarge', { size: sizeOf(m[1]!) })],
  [
    /^You can only attach up to (\d+) files/,
    (m) => t('requests.problem.tooManyFiles', { max: Number(m[1]) }),
  ],
  [/^The form/, () => t('requests.problem.formTooLarge')],
  [/^must be sent as file parts/, () => t('requests.problem.filesAsParts')],
];

/** One problem of the API's, as the page says it (`own`: the page's own, already in its language). */
export function pageProblem(message: string, own: readonly string[] = []): string {
  if (own.includes(message)) return message;
  for (const [pattern, say] of RULES) {
    const m = pattern.exec(message);
    if (m) return say(m);
  }
  return t('requests.problem.invalid');
}

/** Every field's problems, as the page says them. */
export const pageProblems = (fields: FieldErrors, own: readonly string[] = []): FieldErrors =>
  Object.fromEntries(
    Object.entries(fields).map(([field, messages]) => [field, messages.map((m) => pageProblem(m, own))]),
  );
