import { translator, offeredLanguages, returnPath } from '@secret-push/i18n';
import { Html, type HtmlValue, escapeHtml, html } from './html';

type Chunks = Html;
/** A rich message's values: text and numbers (escaped), `Html`, or a tag's renderer. */
export type RichValues = Record<string, HtmlValue | Date | ((chunks: Chunks) => Html)>;

function renderPart(part: unknown): string {
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(renderPart).join('');
  if (part === null || part === undefined || part === false) return '';
  return escapeHtml(typeof part === 'string' ? part : JSON.stringify(part));
}

/** The tags every rich message may use without the caller passing them. */
const DEFAULT_TAGS: Record<string, (chunks: Chunks) => Html> = {
  strong: (c) => html`<strong>${c}</strong>`,
  em: (c) => html`<em>${c}</em>`,
  code: (c) => html`<code>${c}</code>`,
  kbd: (c) => html`<kbd>${c}</kbd>`,
};

/** The default tags as formatjs calls them (made once: they are the same for every call). */
const WRAPPED_DEFAULT_TAGS: Record<string, unknown> = Object.fromEntries(
  Object.entries(DEFAULT_TAGS).map(([name, fn]) => [
    name,
    (chunks: unknown[]) => fn(new Html(chunks.map(renderPart).join(''))),
  ]),
);

/**
 * A message with markup, as escaped HTML: the catalogue's text and every value are escaped; markup
 * comes only from tags the message names (`Read <link>how it works</link>`) and the caller renders
 * (`{ link: (c) => html\`<a href="/about">${c}</a>\` }`; `<strong>`, `<em>`, `<code>`, `<kbd>` need
 * nothing), or from values that are already `Html`. Never a raw string from a catalogue.
 */
export function rich(id: string, values: RichValues = {}): Html {
  const wrapped: Record<string, unknown> = { ...WRAPPED_DEFAULT_TAGS };
  for (const [name, value] of Object.entries(values)) {
    wrapped[name] =
      typeof value === 'function'
        ? (chunks: unknown[]) => value(new Html(chunks.map(renderPart).join('')))
        : value instanceof Html
          ? value
          : value;
  }
  return new Html(translator().parts(id, wrapped).map(renderPart).join(''));
}

/**
 * Texts a page's script shows (status messages, validation), formatted on the server in the page's
 * language, as a JSON data block the script reads (`JSON.parse` of `#sp-messages`): a data block
 * is not executed, so the pages' CSP (`script-src 'self'`) stays as it is. A text with a value only
 * the browser knows keeps a `{name}` placeholder for the script to replace.
 */
export function clientMessages(messages: Record<string, string>): Html {
  const json = JSON.stringify(messages)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
  return new Html(`<script type="application/json" id="sp-messages">${json}</script>`);
}

/**
 * The language selector (a form that posts to `/language`, which remembers the choice in a cookie
 * and returns to this page). Without JavaScript: a select and a button; with it, choosing submits
 * (theme.js) and the button hides. `where` tells the header's and the footer's apart (ids).
 */
export function languageSelector(where: 'header' | 'footer'): Html {
  const offered = offeredLanguages();
  if (offered.length < 2) return html``;
  const current = translator().locale;
  const id = `lang-${where}`;
  return html`<form method="post" action="/language" class="lang-form lang-${where}">
    <input type="hidden" name="back" value="${returnPath()}" />
    <label for="${id}" class="${where === 'header' ? 'visually-hidden' : ''}"
      >${translator().t('frame.language')}</label
    >
    <select id="${id}" name="lang" data-lang-select>
      ${offered.map(
        (l) =>
          html`<option value="${l.tag}" lang="${l.tag}" ${l.tag === current ? html`selected` : ''}>
            ${l.name}
          </option>`,
      )}
    </select>
    <button type="submit" class="quiet" data-lang-submit>${translator().t('frame.languageChange')}</button>
  </form>`;
}
