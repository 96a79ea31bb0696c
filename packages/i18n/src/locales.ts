import { join } from 'node:path';

/**
 * The languages the services can speak: BCP 47 tags, as Password Pusher's `notify_emails_to_locale`
 * spells them (`pt-BR`), each with its own name (what the language selector shows). `en-XA` is the
 * pseudo-locale: English with accented, lengthened text, offered only when the operator turns it on
 * (I18N_PSEUDO_LOCALE), so that tests and translators can see text that bypasses the catalogue.
 */
export const LANGUAGE_NAMES = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
  'pt-BR': 'Português (Brasil)',
  pl: 'Polski',
} as const;

export type Language = keyof typeof LANGUAGE_NAMES;

export const LANGUAGES = Object.keys(LANGUAGE_NAMES) as Language[];

/** The source language: every key is written in English first; other catalogues fall back to it. */
export const SOURCE_LANGUAGE: Language = 'en';

export const PSEUDO_LOCALE = 'en-XA';
export const PSEUDO_NAME = 'Ƥšéûðô (en-XA)';

export const isLanguage = (value: string): value is Language => Object.hasOwn(LANGUAGE_NAMES, value);

/** The writing direction of a language, from CLDR through `Intl.Locale` (all of ours are `ltr`). */
export function directionOf(locale: string): 'ltr' | 'rtl' {
  try {
    const info = (
      new Intl.Locale(locale) as Intl.Locale & { getTextInfo?: () => { direction?: string } }
    ).getTextInfo?.();
    return info?.direction === 'rtl' ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
}

/** The catalogues of the page frame both services share (the selector, skip link, theme, footer). */
export const FRAME_CATALOGUES: string = join(__dirname, '..', 'locales');
