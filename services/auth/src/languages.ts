import { join } from 'node:path';
import type { Middleware } from 'koa';
import {
  FRAME_CATALOGUES,
  I18n,
  LANGUAGE_COOKIE,
  languageCookieOptions,
  safeReturnPath,
} from '@secret-push/i18n';
import { FormError, readForm } from './interactions/form-body';
import { isApiPath } from './interactions/page-not-found';

/** The auth service's catalogues (`locales/<language>/<area>.json`, beside `src/` and `dist/`). */
export const AUTH_CATALOGUES = join(__dirname, '..', 'locales');

export interface LanguageSettings {
  readonly languages: readonly string[];
  readonly defaultLanguage: string;
  readonly pseudo?: boolean;
}

/** The auth service's languages: the shared frame's catalogues and its own (pages and emails). */
export const authI18n = (settings: LanguageSettings): I18n =>
  new I18n({ dirs: [FRAME_CATALOGUES, AUTH_CATALOGUES], ...settings });

/**
 * The provider's routes a browser visits (authorization and its resume, RP-initiated logout): their
 * error and logout pages (provider/pages.ts) are drawn in the person's language too; their JSON
 * answers have no catalogue text, and stay English.
 */
const PROVIDER_PAGES = /^\/connect\/(?:authorize|endsession)(?:\/|$)/;

/**
 * First in the chain: every page request (not the provider's endpoints, the accounts API, health)
 * is served in its language — the selector's cookie, else `Accept-Language` — through to the 404
 * page `pagesNotFound` draws after the rest. `POST /language` is the selector's form.
 */
export function languages(i18n: I18n, options: { secureCookies: boolean }): Middleware {
  return async (ctx, next) => {
    if (isApiPath(ctx.path) && !PROVIDER_PAGES.test(ctx.path)) {
      await next();
      return;
    }
    if (ctx.path === '/language' && ctx.method === 'POST') return chooseLanguage(ctx, i18n, options);
    ctx.vary('Accept-Language');
    ctx.vary('Cookie');
    const language = i18n.negotiateHeaders({
      cookie: ctx.get('cookie'),
      acceptLanguage: ctx.get('accept-language'),
    });
    await i18n.run(language, ctx.path, () => next());
  };
}

async function chooseLanguage(
  ctx: Parameters<Middleware>[0],
  i18n: I18n,
  options: { secureCookies: boolean },
): Promise<void> {
  const site = ctx.get('sec-fetch-site');
  if (site && site !== 'same-origin') {
    ctx.status = 403;
    ctx.body = { error: 'forbidden', error_description: 'This form can only be sent from its own page.' };
    return;
  }
  let form: URLSearchParams;
  try {
    form = await readForm(ctx, 2048);
  } catch (err) {
    if (!(err instanceof FormError)) throw err;
    ctx.status = err.status;
    ctx.body = { error: 'invalid_request', error_description: err.message };
    return;
  }
  const lang = form.get('lang') ?? '';
  if (!i18n.offers(lang)) {
    ctx.status = 400;
    ctx.body = { error: 'invalid_request', error_description: 'That language is not offered here.' };
    return;
  }
  ctx.cookies.set(LANGUAGE_COOKIE, lang, { ...languageCookieOptions(options.secureCookies), signed: false });
  ctx.status = 303;
  ctx.redirect(safeReturnPath(form.get('back') ?? '/'));
}
