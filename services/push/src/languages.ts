import { join } from 'node:path';
import { FRAME_CATALOGUES, I18n, LANGUAGES } from '@secret-push/i18n';

/** The push service's catalogues (`locales/<language>/<area>.json`, beside `src/` and `dist/`). */
export const PUSH_CATALOGUES = join(__dirname, '..', 'locales');

export interface LanguageSettings {
  readonly languages: readonly string[];
  readonly defaultLanguage: string;
  readonly pseudo?: boolean;
}

/**
 * The push service's languages: the shared frame's catalogues and its own (pages and emails),
 * read once; every language by default (the configuration's I18N_* narrow it).
 */
export function pushI18n(settings: LanguageSettings = { languages: LANGUAGES, defaultLanguage: 'en' }): I18n {
  return new I18n({ dirs: [FRAME_CATALOGUES, PUSH_CATALOGUES], ...settings });
}
