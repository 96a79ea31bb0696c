import { type Html, html } from '@secret-push/html';
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

const STATE_LABEL: Record<RequestState, string> = { open: 'Open', answered: 'Answered', closed: 'Closed' };
const STATES: readonly RequestState[] = ['open', 'answered', 'closed'];

const EVENT: Record<string, string> = {
  creation: 'Created',
  link_opened: 'Link opened by a responder',
  failed_passphrase: 'Wrong passphrase',
  answer: 'Answered',
  answer_refused: 'Answer refused',
  close: 'Closed by you',
  close_by_time: 'Closed: time ran out',
  attachment_download: 'Your file downloaded',
  code_sent: 'Code sent to a responder',
};

const WHO: Record<OwnedRequest['answerableBy'], string> = {
  anyone: 'anyone with the link',
  users: 'people signed in to this instance',
  emails: 'the listed addresses',
};

/** Close asks first: the link leads to its confirmation page (`back`: where to return after). */
function closeLink(r: OwnedRequest, back: string): Html {
  return html`<a
    class="button secondary small"
    href="/requests/${r.urlToken}/close?back=${encodeURIComponent(back)}"
    >Close<span class="visually-hidden"> ${r.name ?? 'this request'}</span></a
  >`;
}

/** What Close's confirmation says will happen to this request. */
export const closeConsequence = (r: OwnedRequest): string =>
  `Nobody can answer it after that${r.state === 'answered' ? ' (its answer stays until it expires)' : ''}. It cannot be undone.`;

/** The created page: the responder's link once, copy, QR, and what happens next. */
export function requestCreatedPage(options: { header: WebHeader; request: OwnedRequest; qr: Html }): Html {
  const { request: r } = options;
  return layout(
    'Your request link',
    html`${webHeader(options.header)}
      <h1>Your request link</h1>
      <p>
        Send this link to the person who has the secret. It is shown only for a few minutes: reloading this
        page shows the same link, and then no more.
      </p>
      <label for="link">Request link</label>
      <div class="link-field">
        <input id="link" type="text" readonly value="${r.link}" autocomplete="off" spellcheck="false" />
        <button type="button" data-copy="link" hidden>Copy the link</button>
      </div>
      <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
      <div class="qr" role="img" aria-label="QR code of the request link">${options.qr}</div>
      <p>
        It takes one answer from ${WHO[r.answerableBy]} until
        ${timeAt(r.closeAfterAt, new Date())}.${r.passphrase ? ' The responder also needs the passphrase.' : ''}
      </p>
      <p>
        <a href="/requests/${r.urlToken}">See this request</a> ·
        <a href="/requests/new">Request another secret</a>
      </p>`,
    { scripts: [TIMES_SCRIPT] },
  );
}

/** The created page once the link is no longer shown: nothing was created again. */
export function requestCreatedGonePage(header: WebHeader): Html {
  return layout(
    'Link no longer shown',
    html`${webHeader(header)}
      <h1>Link no longer shown</h1>
      <p>
        The request link was shown when the request was created, and for a few minutes after. Reloading this
        page did not create another request.
      </p>
      <p>You find it, and can close it, in <a href="/requests">Your requests</a>.</p>`,
  );
}

/** A request's row: name (its details), state, created, answered/open/closed, Close. */
function requestRow(r: OwnedRequest, back: string, now: Date): Cell[] {
  const at = (d: Date) => timeAt(d, now);
  return [
    {
      title: true,
      content: html`<a href="/requests/${r.urlToken}"
        >${r.name ?? html`<span class="muted">(no name)</span>`}<span class="visually-hidden"
          >: details</span
        ></a
      >`,
    },
    { content: STATE_LABEL[r.state] },
    { content: at(r.createdAt) },
    {
      content:
        r.state === 'closed'
          ? r.closedAt
            ? at(r.closedAt)
            : ''
          : r.answeredAt
            ? html`answered ${at(r.answeredAt)}`
            : html`open until ${at(r.closeAfterAt)}`,
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
  const columns = ['Name', 'State', 'Created', 'Answered, open or closed', 'Actions'];
  return layout(
    'Your requests',
    html`${webHeader(options.header)}
      <h1>Your requests</h1>
      <p><a href="/requests/new">Request a secret</a></p>
      ${flashMessage(options.flash)}
      ${stateTabs(
        '/requests',
        state,
        STATES.map((s) => [s, STATE_LABEL[s]] as const),
      )}
      ${
        items.length === 0
          ? html`<p>No ${state} requests${page > 1 ? ' on this page' : ''}.</p>`
          : cardTable(
              `${STATE_LABEL[state]} requests, page ${page}`,
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
      ? html`<p>Not answered yet. Send the responder this link: <code>${r.link}</code></p>`
      : html`<p>It was closed without an answer.</p>`;
  }
  const a = r.answer;
  return html`<p>
      Answered
      ${timeAt(a.answeredAt, now)}${a.files > 0 ? `, with ${a.files} ${a.files === 1 ? 'file' : 'files'}` : ''}.
    </p>
    <p>
      <a href="${a.link}">Open the answer</a>. Revealing it there uses one of its ${r.expireAfterViews}
      ${r.expireAfterViews === 1 ? 'view' : 'views'}${r.expireAfterViews === 1 ? ': after that it is deleted' : ''}.
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
  return layout(
    'Your request',
    html`${webHeader(options.header)}
      <h1>Request${r.name ? html`: ${r.name}` : ''}</h1>
      <p><a href="/requests">Back to your requests</a></p>
      ${flashMessage(options.flash)}
      <p>
        <strong>${STATE_LABEL[r.state]}</strong>${
          r.state === 'closed' && r.closedAt
            ? html` ${when(r.closedAt)}${r.closedReason === 'time' ? ' (time ran out)' : ' (by you)'}`
            : r.state === 'open'
              ? html`, open until ${when(r.closeAfterAt)}`
              : ''
        }.
        Answerable by
        ${WHO[r.answerableBy]}${
          r.answerableBy === 'emails' && r.answerableEmails.length
            ? html` (${r.answerableEmails.join(', ')})`
            : ''
        }.
      </p>
      <h2>The request</h2>
      ${
        /\S/.test(r.message)
          ? html`<div class="secret" id="request-message">${r.message}</div>`
          : html`<p id="request-message">
              No message: the responder sees the files you attached and the form to answer.
            </p>`
      }
      ${r.note ? html`<p class="muted">Your note: ${r.note}</p>` : ''}
      <h2>The answer</h2>
      ${answerPart(r, now)}
      ${r.state === 'closed' ? '' : html`<p>${closeLink(r, `/requests/${r.urlToken}`)}</p>`}
      <h2>Events</h2>
      ${eventsTable(
        entries.map((e) => ({
          when: when(e.createdAt),
          what: EVENT[e.kind] ?? e.kind,
          ip: e.ip,
          userAgent: e.userAgent,
        })),
        'Nothing has happened to this request yet.',
      )}`,
    { scripts: [TIMES_SCRIPT] },
  );
}
