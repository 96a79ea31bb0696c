import { type Html, html } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import { layout } from './layout';
import { type WebHeader, webHeader } from './web-header';

/** What a confirmation page asks, and the form that does it. */
export interface Confirmation {
  header?: WebHeader;
  /** The page's title and heading: the question ("Expire “Vendor key”?"). */
  question: string;
  /** What happens, in a sentence or two. */
  consequence: string;
  /** Where the form POSTs. */
  action: string;
  csrf?: string;
  /** More hidden fields of the form (e.g. where to return). */
  fields?: Readonly<Record<string, string>>;
  /** The button ("Expire this push"). */
  confirm: string;
  /** Where "Cancel" leads (nothing changes). */
  cancel: string;
}

/**
 * "Confirm and tell": a destructive action's button leads here (GET, nothing changes); this page
 * names the thing, says what happens, and its form does it (works without JavaScript).
 */
export function confirmPage(c: Confirmation): Html {
  return layout(
    c.question,
    html`${webHeader(c.header)}
      <h1 class="question">${c.question}</h1>
      <p>${c.consequence}</p>
      <form method="post" action="${c.action}" class="confirm">
        ${c.csrf ? html`<input type="hidden" name="csrf" value="${c.csrf}" />` : ''}
        ${Object.entries(c.fields ?? {}).map(([n, v]) => html`<input type="hidden" name="${n}" value="${v}" />`)}
        <button type="submit" class="danger">${c.confirm}</button>
        <a class="button secondary" href="${c.cancel}">${t('pages.confirm.cancel')}</a>
      </form>`,
  );
}
