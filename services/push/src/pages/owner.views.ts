import type { AuditEntry, AuditKind, Push } from '../domain/push';
import { isEffectivelyExpired, viewsRemaining } from '../domain/view-policy';
import { type Html, html, rich } from '@secret-push/html';
import { t } from '@secret-push/i18n';
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

const KIND: Record<Push['kind'], string> = {
  text: 'owner.kind.text',
  url: 'owner.kind.url',
  qr: 'owner.kind.qr',
  file: 'owner.kind.file',
};

/** How the pages name a push: its name, or "this push" (in the page's language). */
export const pushLabel = (push: Pick<Push, 'name'>): string => push.name ?? t('owner.thisPush');

/** Text for screen readers only, inside a rich message (`<hidden>…</hidden>`). */
const hidden = (c: Html) => html`<span class="visually-hidden">${c}</span>`;

/** A push's row: name, kind, views left, when it expires (or expired), created, its actions. */
function pushRow({ push, urlToken, now }: ListedPush): Cell[] {
  const live = !isEffectivelyExpired(push, now);
  const label = pushLabel(push);
  return [
    { content: push.name ?? html`<span class="muted">${t('owner.noName')}</span>`, title: true },
    { content: t(KIND[push.kind]) },
    { content: live ? viewsRemaining(push) : 0 },
    { content: live ? timeAt(push.expiresAt, now) : timeAt(push.expiredOn ?? push.updatedAt, now) },
    { content: timeAt(push.createdAt, now) },
    {
      actions: true,
      content: html`<a href="/pushes/${urlToken}/audit"
          >${rich('owner.row.audit', { name: label, hidden })}</a
        >
        ${
          live
            ? html`<a class="button secondary small" href="/pushes/${urlToken}/expire"
                >${rich('owner.row.expire', { name: label, hidden })}</a
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
  const caption = t('owner.list.caption', { state, page });
  const columns = [
    t('owner.column.name'),
    t('owner.column.kind'),
    t('owner.column.viewsLeft'),
    state === 'active' ? t('owner.column.expires') : t('owner.column.expired'),
    t('owner.column.created'),
    t('owner.column.actions'),
  ];
  const empty =
    state === 'active'
      ? page > 1
        ? t('owner.list.noneActiveOnPage')
        : t('owner.list.noneActive')
      : page > 1
        ? t('owner.list.noneExpiredOnPage')
        : t('owner.list.noneExpired');
  return layout(
    t('owner.list.title'),
    html`${webHeader(options.header)}
      <h1>${t('owner.list.title')}</h1>
      ${flashMessage(options.flash)}
      ${stateTabs('/pushes', state, [
        ['active', t('lists.state.active')],
        ['expired', t('lists.state.expired')],
      ])}
      ${items.length === 0 ? html`<p>${empty}</p>` : cardTable(caption, columns, items.map(pushRow))}
      ${pager('/pushes', state, page, options.hasNext)}`,
    { scripts: [TIMES_SCRIPT] },
  );
}

/** The audit log's events as people read them (catalogue keys). */
const EVENT: Record<AuditKind, string> = {
  creation: 'owner.event.creation',
  view: 'owner.event.view',
  failed_view: 'owner.event.failedView',
  failed_passphrase: 'owner.event.failedPassphrase',
  expire: 'owner.event.expire',
  expire_by_views: 'owner.event.expireByViews',
  expire_by_time: 'owner.event.expireByTime',
  link_opened: 'owner.event.linkOpened',
  file_download: 'owner.event.fileDownload',
  view_refunded: 'owner.event.viewRefunded',
  creation_email_send: 'owner.event.creationEmailSend',
  expire_by_receipt: 'owner.event.expireByReceipt',
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
  return html`<h2>${t('owner.email.heading')}</h2>
    ${email.sent ? html`<p role="status" class="notice">${t('owner.email.sent')}</p>` : ''}
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
        : html`<p class="muted">${t('owner.email.expired')}</p>`
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
    t('owner.audit.title'),
    html`${webHeader(options.header)}
      <h1>${push.name ? t('owner.audit.titleNamed', { name: push.name }) : t('owner.audit.title')}</h1>
      <p><a href="/pushes">${t('owner.audit.back')}</a></p>
      ${options.email ? emailPart(options.email) : ''}
      <h2>${t('owner.audit.events')}</h2>
      ${eventsTable(
        entries.map((e) => ({
          when: timeAt(e.createdAt, now),
          what: t(EVENT[e.kind]),
          ip: e.ip,
          userAgent: e.userAgent,
        })),
        t('owner.audit.nothing'),
      )}
      ${options.dropped > 0 ? html`<p class="muted">${t('owner.audit.dropped', { count: options.dropped })}</p>` : ''}`,
    { scripts: [TIMES_SCRIPT] },
  );
}
