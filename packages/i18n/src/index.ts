export {
  FRAME_CATALOGUES,
  type Language,
  LANGUAGES,
  LANGUAGE_NAMES,
  PSEUDO_LOCALE,
  SOURCE_LANGUAGE,
  isLanguage,
  directionOf,
} from './locales';
export { type Messages, loadCatalogues } from './catalogue';
export { type MessageValues, Translator } from './translator';
export {
  type RequestLanguage,
  offeredLanguages,
  returnPath,
  t,
  translator,
  useDefaultTranslator,
  withTranslator,
} from './context';
export {
  I18n,
  type I18nOptions,
  LANGUAGE_COOKIE,
  languageCookieOptions,
  type OfferedLanguage,
  safeReturnPath,
  setLanguageCookie,
} from './i18n';
export { PSEUDO_LETTERS, accent, pseudoMessage } from './pseudo';
export { type CatalogueProblem, checkCatalogues } from './check';
