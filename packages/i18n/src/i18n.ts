import { match } from '@formatjs/intl-localematcher';
import { parse as parseCookies } from 'cookie';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import type { Request, RequestHandler, Response } from 'express';
import { HttpError } from '@secret-push/http-kit';
import { loadCatalogues } from './catalogue';
import { useDefaultTranslator, withTranslator } from './context';
import { LANGUAGE_NAMES, PSEUDO_LOCALE, PSEUDO_NAME, SOURCE_LANGUAGE, isLanguage } from './locales';
import { pseudoMessage } from './pseudo';
import { Translator } from './translator';

/** The cookie that remembers the language chosen with the selector (a year; not a secret). */
export const LANGUAGE_COOKIE = 'sp_lang';

/** The longest `Accept-Language` whose negotiated language is remembered (a browser's is far shorter). */
const MAX_CACHED_HEADER = 256;

/** The cookie's attributes, one definition for both services (Express here, Koa in the auth service). */
export const languageCookieOptions = (secure: boolean) =>
  ({ path: '/', sameSite: 'lax', secure, httpOnly: true, maxAge: 365 * 24 * 3600 * 1000 }) as const;

export interface I18nOptions {
  /** Catalogue directories (catalogue.ts): the shared frame's and the service's own. */
  readonly dirs: readonly string[];
  /** The languages offered (I18N_LANGUAGES); the default first if absent. */
  readonly languages: readonly string[];
  /** The language when nothing the person sends matches (I18N_DEFAULT_LANGUAGE). */
  readonly defaultLanguage: string;
  /** Also offer the pseudo-locale `en-XA` (I18N_PSEUDO_LOCALE): tests and translators. */
  readonly pseudo?: boolean;
}

export interface OfferedLanguage {
  readonly tag: string;
  /** The language's own name ("Deutsch"), shown in the selector. */
  readonly name: string;
}

/**
 * The languages of one process: its catalogues, read once at start, one translator per offered
 * language (immutable, shared by the requests in that language), and how a request picks one.
 */
export class I18n {
  readonly offered: readonly OfferedLanguage[];
  readonly defaultLanguage: string;
  /** Formatting problems seen (a key missing even in English, an argument not given): tests read it. */
  readonly problems = new Set<string>();
  private readonly translators = new Map<string, Translator>();
  /**
   * The offered tags, one array for the life of the process: the locale matcher keeps what it
   * works out about the offered languages (canonical forms, likely subtags) per array, so a new
   * array on each call would make it start over every time.
   */
  private readonly tags: readonly string[];
  /**
   * The language each recently seen `Accept-Language` header negotiated to. Browsers send few
   * different headers, so nearly every request is answered from here; bounded in entries and in
   * the total length of its keys (hostile, ever-new headers only evict), and headers over
   * {@link MAX_CACHED_HEADER} characters are never stored.
   */
  private readonly negotiated = new LRUCache<string, string>({
    max: 1000,
    maxSize: 64 * 1024,
    maxEntrySize: MAX_CACHED_HEADER,
    sizeCalculation: (_language, header) => header.length,
  });

  constructor(options: I18nOptions) {
    const catalogues = loadCatalogues(options.dirs);
    const source = catalogues.get(SOURCE_LANGUAGE) ?? {};
    const tags = [...new Set([options.defaultLanguage, ...options.languages])];
    for (const tag of tags) {
      if (!isLanguage(tag)) throw new Error(`the language ${tag} has no catalogue`);
    }
    const note = (p: string) => this.problems.add(p);
    for (const tag of tags) {
      // A key not yet translated falls back to English (the catalogue check reports it in CI).
      this.translators.set(tag, new Translator(tag, { ...source, ...catalogues.get(tag) }, note));
    }
    if (options.pseudo) {
      const pseudo = Object.fromEntries(Object.entries(source).map(([k, v]) => [k, pseudoMessage(v)]));
      this.translators.set(PSEUDO_LOCALE, new Translator(PSEUDO_LOCALE, pseudo, note));
    }
    this.defaultLanguage = options.defaultLanguage;
    this.tags = Object.freeze([...this.translators.keys()]);
    this.offered = [...this.translators.keys()].map((tag) => ({
      tag,
      name: tag === PSEUDO_LOCALE ? PSEUDO_NAME : LANGUAGE_NAMES[tag as keyof typeof LANGUAGE_NAMES],
    }));
    useDefaultTranslator(this.translator(this.defaultLanguage));
  }

  /** Whether `tag` is one of the offered languages (exactly as listed: `pt-BR`, not `pt-br`). */
  offers(tag: string): boolean {
    return this.translators.has(tag);
  }

  /** The translator of an offered language; the default language's for anything else. */
  translator(tag: string | null | undefined): Translator {
    return (tag ? this.translators.get(tag) : undefined) ?? this.translators.get(this.defaultLanguage)!;
  }

  /**
   * The language for a list of preferences (an `Accept-Language`'s, best first): the best offered
   * match (CLDR's best fit: `de-AT` is `de`, `pt` is `pt-BR`), else the default.
   */
  bestMatch(requested: readonly string[]): string {
    const wanted = requested.filter((l) => l !== '*' && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(l));
    if (wanted.length === 0) return this.defaultLanguage;
    try {
      return match(wanted, this.tags, this.defaultLanguage, { algorithm: 'best fit' });
    } catch {
      return this.defaultLanguage;
    }
  }

  /**
   * A request's language from its headers: the selector's cookie, else its `Accept-Language`
   * (parsed by `negotiator`, as Express does), else the default. Any framework: Express below,
   * Koa in the auth service.
   */
  negotiateHeaders(headers: { cookie?: string | undefined; acceptLanguage?: string | undefined }): string {
    // A header without the cookie's name cannot carry it: no need to parse the session's cookies.
    const chosen = headers.cookie?.includes(LANGUAGE_COOKIE)
      ? parseCookies(headers.cookie)[LANGUAGE_COOKIE]
      : undefined;
    if (chosen && this.offers(chosen)) return chosen;
    const header = headers.acceptLanguage;
    if (!header) return this.defaultLanguage;
    if (header.length > MAX_CACHED_HEADER) return this.negotiateAcceptLanguage(header);
    const cached = this.negotiated.get(header);
    if (cached !== undefined) return cached;
    const language = this.negotiateAcceptLanguage(header);
    this.negotiated.set(header, language);
    return language;
  }

  /** An `Accept-Language`'s language, worked out (no cache): {@link negotiateHeaders} remembers it. */
  negotiateAcceptLanguage(header: string): string {
    const ranked = new Negotiator({ headers: { 'accept-language': header.slice(0, 1000) } });
    return this.bestMatch(ranked.languages().slice(0, 20));
  }

  /** An Express request's language ({@link negotiateHeaders}). */
  negotiate(req: Request): string {
    return this.negotiateHeaders({ cookie: req.headers.cookie, acceptLanguage: req.get('accept-language') });
  }

  /** Runs `fn` (a request's rest) in `language`, with the page path the selector returns to. */
  run<T>(language: string, returnPath: string, fn: () => T): T {
    return withTranslator(this.translator(language), fn, { returnPath, offered: this.offered });
  }

  /**
   * Serves the rest of the request in its language (context.ts); `Vary` tells caches that the
   * page depends on both headers. `skip`: paths that are never pages (the API: its errors stay
   * English for the clients that parse them).
   */
  middleware(skip: (req: Request) => boolean = () => false): RequestHandler {
    return (req, res, next) => {
      if (skip(req)) return next();
      res.vary('Accept-Language').vary('Cookie');
      this.run(this.negotiate(req), req.path, next);
    };
  }

  /**
   * `POST /language` (a urlencoded form: `lang`, `back`): remembers the choice in a cookie and
   * returns to the page (`back`: a path on this site; anything else returns home). A language not
   * offered is a 400 and changes nothing.
   */
  languageRoute(options: { secureCookie: boolean }): RequestHandler {
    return (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const lang = typeof body.lang === 'string' ? body.lang : '';
      if (!this.offers(lang)) {
        throw new HttpError(400, 'bad_request', 'That language is not offered here.', {
          fields: { lang: ['is not offered'] },
        });
      }
      const back = typeof body.back === 'string' ? body.back : '/';
      setLanguageCookie(res, lang, options.secureCookie);
      res.redirect(303, safeReturnPath(back));
    };
  }
}

export function setLanguageCookie(res: Response, lang: string, secure: boolean): void {
  res.cookie(LANGUAGE_COOKIE, lang, languageCookieOptions(secure));
}

/** A same-site path to return to: one slash, no scheme, no backslash, no control characters. */
export function safeReturnPath(back: string): string {
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (!back.startsWith('/') || back.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(back)) return '/';
  return back.slice(0, 2000);
}
