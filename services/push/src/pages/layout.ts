import { type Html, html, pageFrame, trusted } from '@secret-push/html';

/** The web app's footer links: the about page, the API's documentation, the command-line client. */
export const FOOTER_LINKS = [
  { href: '/about', label: 'How it works' },
  { href: '/api/v2/docs', label: 'API docs' },
  { href: '/about#cli', label: 'Command-line client' },
];

/** The site navigation a page's body starts with (`webHeader`), lifted into the page's `<header>`. */
const SITE_NAV = /<nav class="site-nav"[\s\S]*?<\/nav>/;

/**
 * The frame of every page (`pageFrame` of @secret-push/html: header, main, footer, the brand).
 * Title and Open Graph tags are generic on purpose: link unfurlers show "A secret was shared with
 * you" and learn nothing else about the push. Every page loads `/static/pages.js`; `scripts` adds a
 * page's own (served files under `/static/`, never inline). `refreshTo` sends the browser on to
 * that URL at once (a meta refresh: a navigation, which no CSP directive of ours restricts, where a
 * form's redirect would be checked against `form-action`). `recipient`: a page the recipient of a
 * link sees (unbranded when the operator says so). The body's site navigation (`webHeader`) goes
 * into the header, outside `<main>`; user text in the body is escaped, so it cannot forge one.
 */
export function layout(
  title: string,
  body: Html,
  options: {
    scripts?: readonly string[];
    refreshTo?: string;
    recipient?: boolean;
    /** Texts the page's scripts show, in its language (the frame's `#sp-messages`). */
    clientMessages?: Record<string, string>;
  } = {},
): Html {
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
    links: FOOTER_LINKS,
    head: html`${options.refreshTo ? html`<meta http-equiv="refresh" content="0; url=${options.refreshTo}" />` : ''}
      <meta property="og:title" content="A secret was shared with you" />
      <meta
        property="og:description"
        content="Open the link to see it. It expires after a set number of views or days."
      />`,
    scripts: ['/static/pages.js', ...(options.scripts ?? [])],
    clientMessages: options.clientMessages,
  });
}
