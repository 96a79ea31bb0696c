import { type Html, html } from '@secret-push/html';
import { STYLESHEET_PATH } from './stylesheet';

/** The shell of every sign-in page: English, our stylesheet, one `main` with a heading. */
export function layout(title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${title} · secret-push</title>
        <link rel="stylesheet" href="${STYLESHEET_PATH}" />
      </head>
      <body>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html> `.value;
}
