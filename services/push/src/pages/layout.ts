import { type Html, html } from '@secret-push/html';

/**
 * The frame of every page. Title and Open Graph tags are generic on purpose: link unfurlers show
 * "A secret was shared with you" and learn nothing else about the push. Every page loads
 * `/static/pages.js`; `scripts` adds a page's own (served files under `/static/`, never inline).
 * `refreshTo` sends the browser on to that URL at once (a meta refresh: a navigation, which no CSP
 * directive of ours restricts, where a form's redirect would be checked against `form-action`).
 */
export function layout(
  title: string,
  body: Html,
  options: { scripts?: readonly string[]; refreshTo?: string } = {},
): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        ${options.refreshTo ? html`<meta http-equiv="refresh" content="0; url=${options.refreshTo}" />` : ''}
        <meta property="og:title" content="A secret was shared with you" />
        <meta
          property="og:description"
          content="Open the link to see it. It expires after a set number of views or days."
        />
        <title>${title} · secret-push</title>
        <link rel="stylesheet" href="/static/pages.css" />
      </head>
      <body>
        <a class="skip" href="#main">Skip to the content</a>
        <main id="main">
          ${body}
          <footer class="muted">
            Shared with secret-push: links expire after a set number of views or days.
          </footer>
        </main>
        <script src="/static/pages.js" defer></script>
        ${(options.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
      </body>
    </html> `;
}
