import { t, translator } from '@secret-push/i18n';
import type { UploadLimits } from '../uploads/form';
import { sizeText } from './form-parts.views';

/*
 * The texts the create form's scripts show (password-generator.js, file-drop.js, create-form.js),
 * formatted here in the page's language and handed to them in the page's `#sp-messages` data
 * block (layout's `clientMessages`). A value only the browser knows stays a `{name}` placeholder
 * the script fills in. A plural is sent as one template per plural category of the language
 * (`files.one`, `files.few`, …): the script picks one with `Intl.PluralRules` of the page's `lang`.
 */

/** The catalogue key of "Enter the passphrase again" (the form's script recognises it). */
export const PASSPHRASE_AGAIN = 'create.problem.passphraseAgain';

/** Numbers that together fall in every CLDR cardinal category of our languages (`many` of fr: 1 000 000). */
const SAMPLES = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 21, 22, 25, 100, 101, 102, 1_000_000];

/**
 * A plural message as one template per plural category of the page's language, `{arg}` left for
 * the script: the message formatted with a number of that category, the number replaced.
 */
export function pluralTemplates(
  name: string,
  id: string,
  arg: string,
  values: Record<string, string> = {},
): Record<string, string> {
  const tr = translator();
  const rules = new Intl.PluralRules(tr.locale === 'en-XA' ? 'en' : tr.locale);
  const out: Record<string, string> = {};
  for (const category of rules.resolvedOptions().pluralCategories) {
    const sample = SAMPLES.find((n) => rules.select(n) === category);
    if (sample === undefined) continue;
    out[`${name}.${category}`] = tr
      .t(id, { ...values, [arg]: sample })
      .split(tr.number(sample))
      .join(`{${arg}}`);
  }
  return out;
}

/** The create form's script texts; the upload's only when the form offers files. */
export function createFormMessages(files: UploadLimits | undefined): Record<string, string> {
  const generator = {
    genNoSet: t('create.client.genNoSet'),
    genUsed: t('create.client.genUsed'),
  };
  if (!files) return generator;
  return {
    ...generator,
    dropNote: t('create.client.dropNote'),
    remove: t('create.client.remove'),
    removeLabel: t('create.client.removeLabel', { name: '{name}' }),
    removed: t('create.client.removed', { name: '{name}' }),
    ...pluralTemplates('chosen', 'create.client.chosen', 'count'),
    ...pluralTemplates('bytes', 'create.client.bytes', 'n'),
    kb: t('create.client.kb', { n: '{n}' }),
    mb: t('create.client.mb', { n: '{n}' }),
    gb: t('create.client.gb', { n: '{n}' }),
    tooManyFiles: t('create.problem.tooManyFiles', { max: files.maxCount }),
    fileTooLarge: t('create.client.fileTooLarge', { name: '{name}', size: sizeText(files.maxFileBytes) }),
    filesTooLarge: t('create.problem.filesTooLarge', { size: sizeText(files.maxTotalBytes) }),
    uploading: t('create.client.uploading'),
    uploaded: t('create.client.uploaded'),
    notCreated: t('create.client.notCreated', { status: '{status}' }),
    stillHere: t('create.client.stillHere'),
    connectionFailed: t('create.client.connectionFailed'),
    passphraseAgain: t(PASSPHRASE_AGAIN),
  };
}
