import { z } from 'zod';
import { LANGUAGES, isLanguage } from '@secret-push/i18n';
import { envSection } from './env-config';
import { envBoolean, envCsv } from './env-types';

/**
 * The languages of the pages and emails, one definition read by both services (the push service's
 * web app and emails, the auth service's sign-in pages and emails): which are offered, which is
 * the default. `i18n` of the config object is what each service's `I18n` takes.
 */
export const i18nSection = envSection(
  'Languages',
  {
    I18N_LANGUAGES: envCsv()
      .default([...LANGUAGES])
      .refine((v) => v.length > 0, 'must name at least one language')
      .refine(
        (v) => v.every(isLanguage),
        `must be languages with a catalogue, comma-separated, from: ${LANGUAGES.join(', ')}`,
      )
      .describe(
        `The languages offered (the selector, \`Accept-Language\`, \`notify_emails_to_locale\`), comma-separated, from ${LANGUAGES.map((l) => `\`${l}\``).join(', ')}`,
      ),
    I18N_DEFAULT_LANGUAGE: z
      .string()
      .default('en')
      .refine(isLanguage, `must be one of ${LANGUAGES.join(', ')}`)
      .describe(
        "The language when a browser's `Accept-Language` names none of the offered ones; one of I18N_LANGUAGES",
      ),
    I18N_PSEUDO_LOCALE: envBoolean()
      .default(false)
      .describe(
        'Also offer the pseudo-locale `en-XA` (English accented and lengthened, in ⟦ ⟧): for tests and translators, to see text that bypasses the catalogues',
      ),
  },
  (v) => ({
    i18n: {
      languages: v.I18N_LANGUAGES,
      defaultLanguage: v.I18N_DEFAULT_LANGUAGE,
      pseudo: v.I18N_PSEUDO_LOCALE,
    },
  }),
  {
    check: (v) =>
      v.I18N_LANGUAGES.includes(v.I18N_DEFAULT_LANGUAGE)
        ? []
        : ['I18N_DEFAULT_LANGUAGE: must be one of I18N_LANGUAGES'],
  },
);
