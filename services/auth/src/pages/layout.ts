import { type Html, html, pageFrame } from '@secret-push/html';
import { STYLESHEET_PATH } from './stylesheet';

/**
 * The shell of every sign-in page: the frame both services share (`pageFrame` of
 * @secret-push/html: the brand's header, `main` on a narrow card with the page's heading, the
 * footer with the operator's links and the theme button). `/static/theme.js` (served by this service, see
 * `brandAssets`) is the pages' one common script: it shows the theme button; without JavaScript the
 * pages follow the system's theme. The title and every text come from the catalogue of the request's
 * language (the languages middleware); `clientMessages` are the texts a page's script shows.
 */
export function layout(
  title: string,
  body: Html,
  options: { clientMessages?: Record<string, string> } = {},
): string {
  return pageFrame({
    title,
    body: html`<h1>${title}</h1>
      ${body}`,
    stylesheet: STYLESHEET_PATH,
    narrow: true,
    themeScript: true,
    clientMessages: options.clientMessages,
  }).value;
}
