import { type Html, html, pageFrame, trusted } from '@secret-push/html';
import { t } from '@secret-push/i18n';

/** The web app's footer links: the about page, the API's documentation, the command-line client. */
export const footerLinks = () => [
  { href: '/about', label: t('pages.footer.about') },
  { href: '/api/v2/docs', label: t('pages.footer.api') },
  { href: '/about#cli', label: t('pages.footer.cli') },
];

/** The site navigation a page's body starts with (`webHeader`), lifted into the page's `<header>`. */
const SITE_NAV = /<nav class="site-nav"[\s\S]*?<\/nav>/;

/**
 * The texts of the scripts every page may load (pages.js: copy buttons and the automatic reveal;
 * times.js: times in the viewer's zone), in the page's language. A `{name}` stays for the script
 * to fill in.
 */
const baseClientMessages = (): Record<string, string> => ({
  pagesCopied: t('pages.client.copied'),
  pagesCopiedStatus: t('pages.client.copiedStatus'),
  pagesCopyFailed: t('pages.client.copyFailed'),
  pagesOpening: t('pages.client.opening'),
  pagesTimeTitle: t('pages.client.timeTitle', { exact: '{exact}', zone: '{zone}' }),
  pagesYourZone: t('pages.client.yourZone'),
});

export interface LayoutOptions {
  /** The page's own scripts (served files under `/static/`), after `/static/pages.js`. */
  scripts?: readonly string[];
  /** Sends the browser on to this URL at once (a meta refresh). */
  refreshTo?: string;
  /** A page the recipient of a link sees (unbranded when the operator says so). */
  recipient?: boolean;
  /**
   * Texts the page's scripts show, in the page's language (`t(…)`), added to the ones pages.js and
   * times.js use; the scripts read them from `#sp-messages` (`JSON.parse(….textContent)`).
   */
  clientMessages?: Record<string, string>;
}

/**
 * The frame of every page (`pageFrame` of @secret-push/html: header, main, footer, the brand).
 * Title and Open Graph tags are generic on purpose: link unfurlers show "A secret was shared with
 * you" and learn nothing else about the push. Every page loads `/static/pages.js`; `scripts` adds a
 * page's own (served files under `/static/`, never inline). `refreshTo` sends the browser on to
 * that URL at once (a meta refresh: a navigation, which no CSP directive of ours restricts, where a
 * form's redirect would be checked against `form-action`). `recipient`: a page the recipient of a
 * link sees (unbranded when the operator says so). The body's site navigation (`webHeader`) goes
 * into the header, outside `<main>`; user text in the body is escaped, so it cannot forge one.
 * `clientMessages`: the page's scripts' texts ({@link LayoutOptions}).
 */
export function layout(title: string, body: Html, options: LayoutOptions = {}): Html {
  const nav = SITE_NAV.exec(body.value);
  const content = nav ? trusted(body.value.replace(SITE_NAV, '')) : body;
  return pageFrame({
    title,
    body: content,
    nav: nav ? trusted(nav[0]) : undefined,
    homeHref: '/',
    recipient: options.recipient,
    stylesheet: '/static/pages.css',
    themeScript: true,
    links: footerLinks(),
    head: html`${options.refreshTo ? html`<meta http-equiv="refresh" content="0; url=${options.refreshTo}" />` : ''}
      <meta property="og:title" content="${t('pages.og.title')}" />
      <meta property="og:description" content="${t('pages.og.description')}" />`,
    scripts: ['/static/pages.js', ...(options.scripts ?? [])],
    clientMessages: { ...baseClientMessages(), ...options.clientMessages },
  });
}
