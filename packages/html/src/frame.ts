import { branding, NEUTRAL_NAME } from './branding';
import { t, translator } from '@secret-push/i18n';
import { type Html, html } from './html';
import { clientMessages, languageSelector } from './i18n';
import { BRAND_CSS_PATH, FAVICON_PATH, LOGO_PATH, THEME_JS_PATH } from './logo';

export interface FooterLink {
  readonly href: string;
  readonly label: string;
}

/** One page of either service; see {@link pageFrame}. */
export interface FrameOptions {
  /** The page's title; the tab shows "title · name". */
  readonly title: string;
  /** The content of `<main>`. */
  readonly body: Html;
  /** The header's navigation (a `<nav>`), beside the name. */
  readonly nav?: Html | undefined;
  /** Where the name and logo lead (the service's home); absent: not a link. */
  readonly homeHref?: string | undefined;
  /** A recipient page: unbranded when the operator says so (`BRAND_UNBRANDED_RECIPIENT_PAGES`). */
  readonly recipient?: boolean | undefined;
  /** The service's own stylesheet (the base stylesheet and its additions); `/static/brand.css` follows. */
  readonly stylesheet: string;
  /** Extra `<head>` tags (meta). */
  readonly head?: Html | undefined;
  /** Scripts loaded at the end of `<body>` (served files, deferred). */
  readonly scripts?: readonly string[] | undefined;
  /** Loads `/static/theme.js` in `<head>`, which shows the theme button; without it the system's theme. */
  readonly themeScript?: boolean | undefined;
  /** The service's own footer links (before the operator's privacy, terms and contact). */
  readonly links?: readonly FooterLink[] | undefined;
  /** Content on a narrow card (the sign-in pages). */
  readonly narrow?: boolean | undefined;
  /** Texts the page's scripts show, in the page's language ({@link clientMessages}). */
  readonly clientMessages?: Record<string, string> | undefined;
}

/**
 * The frame of every page of both services: the skip link, then the landmarks — `<header>` (logo,
 * name, navigation), `<main id="main">`, `<footer>` (tagline, links, theme button) — outside one
 * another, so that the skip link skips the header and screen readers can jump between them.
 */
export function pageFrame(o: FrameOptions): Html {
  const b = branding();
  const plain = o.recipient === true && b.unbrandedRecipientPages;
  const name = plain ? NEUTRAL_NAME : b.name;
  const mark = plain
    ? html`<span class="brand-name">${name}</span>`
    : html`<img class="brand-logo" src="${b.logoUrl ?? LOGO_PATH}" alt="" width="32" height="32" /><span
          class="brand-name"
          >${name}</span
        >`;
  const brand =
    o.homeHref && !plain
      ? html`<a class="brand" href="${o.homeHref}">${mark}</a>`
      : html`<span class="brand">${mark}</span>`;
  const operatorLinks: FooterLink[] = [
    ...(b.privacyUrl ? [{ href: b.privacyUrl, label: t('frame.privacy') }] : []),
    ...(b.termsUrl ? [{ href: b.termsUrl, label: t('frame.terms') }] : []),
    ...(b.contactUrl ? [{ href: b.contactUrl, label: t('frame.contact') }] : []),
  ];
  const links = plain ? [] : [...(o.links ?? []), ...operatorLinks];
  const tr = translator();
  return html`<!doctype html>
    <html lang="${tr.locale}" dir="${tr.dir}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        ${o.head ?? ''}
        <title>${o.title} · ${name}</title>
        <link rel="icon" href="${FAVICON_PATH}" />
        <link rel="stylesheet" href="${o.stylesheet}" />
        <link rel="stylesheet" href="${BRAND_CSS_PATH}" />
        ${o.themeScript ? html`<script src="${THEME_JS_PATH}"></script>` : ''}
      </head>
      <body>
        <a class="skip" href="#main">${t('frame.skip')}</a>
        <header class="site">
          <div class="bar">${brand} ${o.nav ?? ''} ${languageSelector('header')}</div>
          ${b.notice && !plain ? html`<p class="site-notice">${b.notice}</p>` : ''}
        </header>
        <main id="main" tabindex="-1" class="${o.narrow ? 'narrow' : ''}">${o.body}</main>
        <footer class="site">
          <div class="bar">
            <p><strong>${name}</strong>${plain || !b.tagline ? '' : html` — ${b.tagline}`}</p>
            ${
              links.length > 0
                ? html`<ul class="footer-links">
                    ${links.map((l) => html`<li><a href="${l.href}">${l.label}</a></li>`)}
                  </ul>`
                : ''
            }
            ${languageSelector('footer')}
            <button
              type="button"
              class="quiet theme-toggle"
              data-theme-toggle
              data-label-system="${t('frame.theme', { choice: 'system' })}"
              data-label-light="${t('frame.theme', { choice: 'light' })}"
              data-label-dark="${t('frame.theme', { choice: 'dark' })}"
              hidden
            >
              ${t('frame.theme', { choice: 'system' })}
            </button>
          </div>
        </footer>
        ${o.clientMessages ? clientMessages(o.clientMessages) : ''}
        ${(o.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
      </body>
    </html> `;
}
