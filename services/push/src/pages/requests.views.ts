import { type Html, html, rich } from '@secret-push/html';
import { t, translator } from '@secret-push/i18n';
import { flashMessage } from './flash';
import { layout } from './layout';
import { type Cell, cardTable, eventsTable, pager, stateTabs } from './list.views';
import { TIMES_SCRIPT, timeAt } from './time.views';
import { type WebHeader, webHeader } from './web-header';

/*
 * The requester's pages (issue 28): the link shown once after a create, `/requests` (lists by
 * state) and `/requests/:token` (a request's detail: its audit log, Close, and once answered the
 * answer's link).
 */

export type RequestState = 'open' | 'answered' | 'closed';

/** A request of the signed-in person as the pages show it (the API's RequestView). */
export interface OwnedRequest {
  urlToken: string;
  /** The responder's link (`/respond/<token>`). */
  link: string;
  state: RequestState;
  name: string | null;
  note: string | null;
  message: string;
  passphrase: boolean;
  answerableBy: 'anyone' | 'users' | 'emails';
  answerableEmails: readonly string[];
  responseFileAttachments: boolean;
  includeRequestor: boolean;
  expireAfterViews: number;
  createdAt: Date;
  closeAfterAt: Date;
  answeredAt: Date | null;
  closedAt: Date | null;
  closedReason: 'owner' | 'time' | null;
  /** The answer push, once answered: its own link (opening it there spends its views). */
  answer: { link: string; answeredAt: Date; files: number } | null;
}

/** One entry of a request's audit log. */
export interface RequestAuditRow {
  kind: string;
  createdAt: Date;
  ip: string | null;
  userAgent: string;
}

const STATES: readonly RequestState[] = ['open', 'answered', 'closed'];

/** A state's name, in the page's language. */
const stateLabel = (state: RequestState): string =>
  ({
    open: t('requests.state.open'),
    answered: t('requests.state.answered'),
    closed: t('requests.state.closed'),
  })[state];

/** An audit log entry's kind as the page says it (an unknown kind: as stored). */
function eventLabel(kind: string): string {
  const labels: Record<string, string> = {
    creation: t('requests.event.creation'),
    link_opened: t('requests.event.linkOpened'),
    failed_passphrase: t('requests.event.failedPassphrase'),
    answer: t('requests.event.answer'),
    answer_refused: t('requests.event.answerRefused'),
    close: t('requests.event.close'),
    close_by_time: t('requests.event.closeByTime'),
    attachment_download: t('requests.event.attachmentDownload'),
    code_sent: t('requests.event.codeSent'),
  };
  return labels[kind] ?? kind;
}

/** Close asks first: the link leads to its confirmation page (`back`: where to return after). */
function closeLink(r: OwnedRequest, back: string): Html {
  const what = r.name ?? t('requests.close.thisRequest');
  return html`<a
    class="button secondary small"
    href="/requests/${r.urlToken}/close?back=${encodeURIComponent(back)}"
    >${rich('requests.close.link', {
      what,
      hidden: (c) => html`<span class="visually-hidden">${c}</span>`,
    })}</a
  >`;
}

/** What Close's confirmation says will happen to this request. */
export const closeConsequence = (r: OwnedRequest): string =>
  t('requests.close.consequence', { answered: r.state === 'answered' ? 'yes' : 'no' });

/** The created page: the responder's link once, copy, QR, and what happens next. */
export function requestCreatedPage(options: { header: WebHeader; request: OwnedRequest; qr: Html }): Html {
  const { request: r } = options;
  return layout(
    t('requests.created.title'),
    html`${webHeader(options.header)}
      <h1>${t('requests.created.title')}</h1>
      <p>${t('requests.created.lead')}</p>
      <label for="link">${t('requests.created.linkLabel')}</label>
      <div class="link-field">
        <input id="link" type="text" readonly value="${r.link}" autocomplete="off" spellcheck="false" />
        <button type="button" data-copy="link" hidden>${t('requests.created.copy')}</button>
      </div>
      <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
      <div class="qr" role="img" aria-label="${t('requests.created.qr')}">${options.qr}</div>
      <p>
        ${rich('requests.created.takes', { who: r.answerableBy, time: timeAt(r.closeAfterAt, new Date()) })}${
          r.passphrase ? html` ${t('requests.created.passphrase')}` : ''
        }
      </p>
      <p>
        <a href="/requests/${r.urlToken}">${t('requests.created.see')}</a> ·
        <a href="/requests/new">${t('requests.created.another')}</a>
      </p>`,
    { scripts: [TIMES_SCRIPT] },
  );
}

/** The created page once the link is no longer shown: nothing was created again. */
export function requestCreatedGonePage(header: WebHeader): Html {
  return layout(
    t('requests.createdGone.title'),
    html`${webHeader(header)}
      <h1>${t('requests.createdGone.title')}</h1>
      <p>${t('requests.createdGone.text')}</p>
      <p>${rich('requests.createdGone.find', { link: (c) => html`<a href="/requests">${c}</a>` })}</p>`,
  );
}

/** A request's row: name (its details), state, created, answered/open/closed, Close. */
function requestRow(r: OwnedRequest, back: string, now: Date): Cell[] {
  const at = (d: Date) => timeAt(d, now);
  return [
    {
      title: true,
      content: html`<a href="/requests/${r.urlToken}"
        >${r.name ?? html`<span class="muted">${t('requests.list.noName')}</span>`}<span
          class="visually-hidden"
          >${t('requests.list.details')}</span
        ></a
      >`,
    },
    { content: stateLabel(r.state) },
    { content: at(r.createdAt) },
    {
      content:
        r.state === 'closed'
          ? r.closedAt
            ? at(r.closedAt)
            : ''
          : r.answeredAt
            ? rich('requests.list.answeredAt', { time: at(r.answeredAt) })
            : rich('requests.list.openUntil', { time: at(r.closeAfterAt) }),
    },
    { actions: true, content: r.state === 'closed' ? '' : closeLink(r, back) },
  ];
}

/** `/requests`: the person's requests in one state, newest first, 50 a page. */
export function requestsPage(options: {
  header: WebHeader;
  state: RequestState;
  page: number;
  hasNext: boolean;
  items: readonly OwnedRequest[];
  flash?: string;
}): Html {
  const { state, page, items } = options;
  const back = `/requests?state=${state}${page > 1 ? `&page=${page}` : ''}`;
  const now = new Date();
  const columns = [
    t('requests.column.name'),
    t('requests.column.state'),
    t('requests.column.created'),
    t('requests.column.when'),
    t('requests.column.actions'),
  ];
  return layout(
    t('requests.list.title'),
    html`${webHeader(options.header)}
      <h1>${t('requests.list.title')}</h1>
      <p><a href="/requests/new">${t('requests.list.new')}</a></p>
      ${flashMessage(options.flash)}
      ${stateTabs(
        '/requests',
        state,
        STATES.map((s) => [s, stateLabel(s)] as const),
      )}
      ${
        items.length === 0
          ? html`<p>${t(page > 1 ? 'requests.list.emptyOnPage' : 'requests.list.empty', { state })}</p>`
          : cardTable(
              t('requests.list.caption', { state, page }),
              columns,
              items.map((r) => requestRow(r, back, now)),
            )
      }
      ${pager('/requests', state, page, options.hasNext)}`,
    { scripts: [TIMES_SCRIPT] },
  );
}

function answerPart(r: OwnedRequest, now: Date): Html {
  if (!r.answer) {
    return r.state === 'open'
      ? html`<p>${rich('requests.detail.notAnswered', { link: r.link })}</p>`
      : html`<p>${t('requests.detail.closedUnanswered')}</p>`;
  }
  const a = r.answer;
  const time = timeAt(a.answeredAt, now);
  return html`<p>
      ${
        a.files > 0
          ? rich('requests.detail.answeredWithFiles', { time, files: a.files })
          : rich('requests.detail.answered', { time })
      }
    </p>
    <p>
      ${rich('requests.detail.openAnswer', {
        views: r.expireAfterViews,
        link: (c) => html`<a href="${a.link}">${c}</a>`,
      })}
    </p>`;
}

/** `/requests/:token`: one request, its answer's link, Close and its audit log. */
export function requestDetailPage(options: {
  header: WebHeader;
  request: OwnedRequest;
  entries: readonly RequestAuditRow[];
  flash?: string;
}): Html {
  const { request: r, entries } = options;
  const now = new Date();
  const when = (d: Date) => timeAt(d, now);
  const state =
    r.state === 'closed'
      ? r.closedAt
        ? rich('requests.detail.stateClosedAt', {
            time: when(r.closedAt),
            reason: r.closedReason === 'time' ? 'time' : 'owner',
          })
        : rich('requests.detail.stateClosed')
      : r.state === 'open'
        ? rich('requests.detail.stateOpen', { time: when(r.closeAfterAt) })
        : rich('requests.detail.stateAnswered');
  return layout(
    t('requests.detail.title'),
    html`${webHeader(options.header)}
      <h1>${r.name ? t('requests.detail.headingNamed', { name: r.name }) : t('requests.detail.heading')}</h1>
      <p><a href="/requests">${t('requests.detail.back')}</a></p>
      ${flashMessage(options.flash)}
      <p>
        ${state}
        ${
          r.answerableBy === 'emails' && r.answerableEmails.length
            ? t('requests.detail.answerableByList', { emails: translator().list(r.answerableEmails) })
            : t('requests.detail.answerableBy', { who: r.answerableBy })
        }
      </p>
      <h2>${t('requests.detail.request')}</h2>
      ${
        /\S/.test(r.message)
          ? html`<div class="secret" id="request-message">${r.message}</div>`
          : html`<p id="request-message">${t('requests.detail.noMessage')}</p>`
      }
      ${r.note ? html`<p class="muted">${t('requests.detail.note', { note: r.note })}</p>` : ''}
      <h2>${t('requests.detail.answer')}</h2>
      ${answerPart(r, now)}
      ${r.state === 'closed' ? '' : html`<p>${closeLink(r, `/requests/${r.urlToken}`)}</p>`}
      <h2>${t('requests.detail.events')}</h2>
      ${eventsTable(
        entries.map((e) => ({
          when: when(e.createdAt),
          what: eventLabel(e.kind),
          ip: e.ip,
          userAgent: e.userAgent,
        })),
        t('requests.detail.noEvents'),
      )}`,
    { scripts: [TIMES_SCRIPT] },
  );
}
