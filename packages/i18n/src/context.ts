import { AsyncLocalStorage } from 'node:async_hooks';
import type { MessageValues, Translator } from './translator';

/*
 * The translator of the request being served, without passing it through every view: the i18n
 * middleware runs the rest of the request inside `withTranslator` (AsyncLocalStorage), so each
 * request sees its own language — never a process-wide switch. Outside a request (a unit test, a
 * worker that forgot to pick one) the process's default language applies; the pseudo-locale test
 * would show such text as untranslated.
 */
/** What a request's pages need to know about its language: the translator, and the page to return to. */
export interface RequestLanguage {
  readonly translator: Translator;
  /** The path of the page being served (no query: `?passphrase=` may travel there), for the selector. */
  readonly returnPath: string;
  /** The languages the selector offers. */
  readonly offered: readonly { readonly tag: string; readonly name: string }[];
}

const storage = new AsyncLocalStorage<RequestLanguage>();
let fallback: Translator | undefined;

/** The translator used outside any request (the default language), set when the catalogues load. */
export function useDefaultTranslator(translator: Translator): void {
  fallback = translator;
}

/** Runs `fn` (and everything it starts) in `translator`'s language. */
export function withTranslator<T>(
  translator: Translator,
  fn: () => T,
  page: Omit<RequestLanguage, 'translator'> = { returnPath: '/', offered: [] },
): T {
  return storage.run({ translator, ...page }, fn);
}

/** The languages the selector offers (none outside a request). */
export const offeredLanguages = (): RequestLanguage['offered'] => storage.getStore()?.offered ?? [];

/** Where the language selector sends the person back to (the current page's path). */
export const returnPath = (): string => storage.getStore()?.returnPath ?? '/';

/** The current request's translator. */
export function translator(): Translator {
  const current = storage.getStore()?.translator ?? fallback;
  if (!current) throw new Error('no catalogue is loaded (createI18n was not called)');
  return current;
}

/** A message of the current language, as plain text. */
export const t = (id: string, values?: MessageValues): string => translator().t(id, values);
