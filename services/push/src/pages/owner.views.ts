import type { AuditEntry, AuditKind, Push } from '../domain/push';
import { isEffectivelyExpired, viewsRemaining } from '../domain/view-policy';
import { type Html, html } from '@secret-push/html';
import { type EmailSendRow, emailSendsTable, notifyForm } from './email.views';
import { flashMessage } from './flash';
import { layout } from './layout';
import { type Cell, cardTable, eventsTable, pager, stateTabs } from './list.views';
import { TIMES_SCRIPT, timeAt } from './time.views';
import { type WebHeader, webHeader } from './web-header';

/** One row of the list: a push of the signed-in person and how to refer to it. */
export interface ListedPush {
  push: Push;
  urlToken: string;
  now: Date;
}

const KIND: Record<Push['kind'], string> = { text: 'Text', url: 'Link', qr: 'QR code', file: 'Files' };

/** How the pages name a push: its name, or "this push". */
export const pushLabel = (push: Pick<Push, 'name'>): string => push.name ?? 'this push';

/** A push's row: name, kind, views left, when it expires (or expired), created, its actions. */
function pushRow({ push, urlToken, now }: ListedPush): Cell[] {
  const live = !isEffectivelyExpired(push, now);
  const label = pushLabel(push);
  return [
    { content: push.name ?? html`<span class="muted">(no name)</span>`, title: true },
    { content: KIND[push.kind] },
    { content: live ? viewsRemaining(push) : 0 },
    { content: live ? timeAt(push.expiresAt, now) : timeAt(push.expiredOn ?? push.updatedAt, now) },
    { content: timeAt(push.createdAt, now) },
    {
      actions: true,
      content: html`<a href="/pushes/${urlToken}/audit"
          >Audit log<span class="visually-hidden"> of ${label}</span></a
        >
        ${
          live
            ? html`<a class="button secondary small" href="/pushes/${urlToken}/expire"
                >Expire<span class="visually-hidden"> ${label}</span></a
              >`
            : ''
        }`,
    },
  ];
}

/**
 * `/pushes`: the person's active or expired pushes, newest first, a page of up to 50 at a time,
 * each with its audit log and (active ones) Expire, which asks first (its confirmation page).
 */
export function pushesPage(options: {
  header: WebHeader;
  state: 'active' | 'expired';
  page: number;
  hasNext: boolean;
  items: readonly ListedPush[];
  flash?: string;
}): Html {
  const { state, page, items } = options;
  const caption = `${state === 'active' ? 'Active pushes' : 'Expired pushes'}, page ${page}`;
  const columns = [
    'Name',
    'Kind',
    'Views left',
    state === 'active' ? 'Expires' : 'Expired',
    'Created',
    'Actions',
  ];
  return layout(
    'Your pushes',
    html`${webHeader(options.header)}
      <h1>Your pushes</h1>
      ${flashMessage(options.flash)}
      ${stateTabs('/pushes', state, [
        ['active', 'Active'],
        ['expired', 'Expired'],
      ])}
      ${
        items.length === 0
          ? html`<p>No ${state} pushes${page > 1 ? ' on this page' : ''}.</p>`
          : cardTable(caption, columns, items.map(pushRow))
      }
      ${pager('/pushes', state, page, options.hasNext)}`,
    { scripts: [TIMES_SCRIPT] },
  );
}

const EVENT: Record<AuditKind, string> = {
  creation: 'Created',
  view: 'Viewed',
  failed_view: 'View refused (expired)',
  failed_passphrase: 'Wrong passphrase',
  expire: 'Expired by hand',
  expire_by_views: 'Expired: last view',
  expire_by_time: 'Expired: time ran out',
  link_opened: 'Link opened (no view used)',
  file_download: 'File downloaded',
  view_refunded: 'View given back (not delivered)',
  creation_email_send: 'Link emailed to recipients',
  expire_by_receipt: 'Expired by the sender (status link)',
};

/** The owner's email part of a push's page, where the instance sends email. */
export interface PushEmailPart {
  sends: readonly EmailSendRow[];
  /** "Send the link by email", for an active push: its form (with what was typed, and problems). */
  form?: {
    urlToken: string;
    csrf: string;
    locales: readonly string[];
    values?: { to?: string; locale?: string };
    errors?: Record<string, string[]>;
  };
  /** After a send (Post/Redirect/Get): its confirmation. */
  sent?: boolean;
}

function emailPart(email: PushEmailPart): Html {
  const { form } = email;
  return html`<h2>Emails</h2>
    ${email.sent ? html`<p role="status" class="notice">The link will be emailed; its status shows below.</p>` : ''}
    ${emailSendsTable(email.sends)}
    ${
      form
        ? notifyForm({
            action: `/pushes/${form.urlToken}/notify`,
            csrf: form.csrf,
            locales: form.locales,
            defaultLocale: form.locales[0] ?? 'en',
            ...(form.values ? { values: form.values } : {}),
            ...(form.errors ? { errors: form.errors } : {}),
          })
        : html`<p class="muted">This push has expired: its link can no longer be emailed.</p>`
    }`;
}

/** `/pushes/:url_token/audit`: who did what with one push, newest first, and its emails. */
export function auditPage(options: {
  header: WebHeader;
  push: Push;
  entries: readonly AuditEntry[];
  dropped: number;
  now: Date;
  email?: PushEmailPart;
}): Html {
  const { push, entries, now } = options;
  return layout(
    'Audit log',
    html`${webHeader(options.header)}
      <h1>Audit log${push.name ? html`: ${push.name}` : ''}</h1>
      <p><a href="/pushes">Back to your pushes</a></p>
      ${options.email ? emailPart(options.email) : ''}
      <h2>Events</h2>
      ${eventsTable(
        entries.map((e) => ({
          when: timeAt(e.createdAt, now),
          what: EVENT[e.kind],
          ip: e.ip,
          userAgent: e.userAgent,
        })),
        'Nothing has happened to this push yet.',
      )}
      ${options.dropped > 0 ? html`<p class="muted">${options.dropped} older entries were not kept.</p>` : ''}`,
    { scripts: [TIMES_SCRIPT] },
  );
}
