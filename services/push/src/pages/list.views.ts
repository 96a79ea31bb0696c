import { type Html, html } from '@secret-push/html';
import { t } from '@secret-push/i18n';

/*
 * The owner's lists (pushes, requests, API tokens): one table rendering whose rows become cards on
 * narrow screens (owner.css.ts: each cell then shows its column's name from `data-label`), the
 * state tabs above it and the pager below.
 */

/** One cell: its content; `title` marks the cell that names the row (a card's heading line). */
export interface Cell {
  content: Html | string | number;
  title?: boolean;
  /** The actions cell: no label on a card. */
  actions?: boolean;
}

/** A table of `columns` whose rows read as cards below 40rem. */
export function cardTable(
  caption: string,
  columns: readonly string[],
  rows: readonly (readonly Cell[])[],
): Html {
  return html`<table class="list cards">
    <caption>
      ${caption}
    </caption>
    <thead>
      <tr>
        ${columns.map((c) => html`<th scope="col">${c}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (cells) =>
          html`<tr>
            ${cells.map((cell, i) => {
              const cls = cell.title ? 'card-title' : cell.actions ? 'card-actions' : '';
              const label = columns[i] ?? '';
              const attrs = cls ? html`data-label="${label}" class="${cls}"` : html`data-label="${label}"`;
              return html`<td ${attrs}>${cell.content}</td>`;
            })}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** The state tabs of a list ("Active · Expired"): the current one marked, the others links. */
export function stateTabs<S extends string>(
  base: string,
  current: S,
  states: readonly (readonly [S, string])[],
): Html {
  return html`<nav aria-label="${t('lists.tabs')}" class="tabs">
    <ul>
      ${states.map(([s, label]) =>
        s === current
          ? html`<li><a href="${base}?state=${s}" aria-current="page">${label}</a></li>`
          : html`<li><a href="${base}?state=${s}">${label}</a></li>`,
      )}
    </ul>
  </nav>`;
}

/** Previous and next page links of a list in one state. */
export function pager(base: string, state: string, page: number, hasNext: boolean): Html {
  return html`<nav aria-label="${t('lists.pages')}" class="pager">
    ${page > 1 ? html`<a href="${base}?state=${state}&amp;page=${page - 1}">${t('lists.previous')}</a>` : ''}
    ${hasNext ? html`<a href="${base}?state=${state}&amp;page=${page + 1}">${t('lists.next')}</a>` : ''}
  </nav>`;
}

/** One row of an audit log as a page shows it. */
export interface EventRow {
  when: Html | string;
  what: string;
  ip: string | null;
  userAgent: string | null;
}

/** The "Events" table of an audit log (a push's or a request's); `empty` when nothing happened. */
export function eventsTable(rows: readonly EventRow[], empty: string): Html {
  if (rows.length === 0) return html`<p>${empty}</p>`;
  return html`<table class="list">
    <caption>
      ${t('lists.events.caption')}
    </caption>
    <thead>
      <tr>
        <th scope="col">${t('lists.events.when')}</th>
        <th scope="col">${t('lists.events.what')}</th>
        <th scope="col">${t('lists.events.ip')}</th>
        <th scope="col">${t('lists.events.client')}</th>
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (e) =>
          html`<tr>
            <td>${e.when}</td>
            <td>${e.what}</td>
            <td>${e.ip ?? ''}</td>
            <td>${e.userAgent}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
