import type { AuditEntry, AuditKind, Push } from '../domain/push';
import { daysRemaining, isEffectivelyExpired, viewsRemaining } from '../domain/view-policy';
import { type Html, html } from '@secret-push/html';
import { type EmailSendRow, emailSendsTable, notifyForm } from './email.views';
import { layout } from './layout';
import { type WebHeader, webHeader } from './web-header';

/** One row of the list: a push of the signed-in person and how to refer to it. */
export interface ListedPush {
  push: Push;
  urlToken: string;
  now: Date;
}

const when = (d: Date) =>
  html`<time datetime="${d.toISOString()}">${d.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>`;

const KIND: Record<Push['kind'], string> = { text: 'Text', url: 'Link', qr: 'QR code', file: 'Files' };

/**
 * `/pushes`: the person's active or expired pushes, newest first, a page of up to 50 at a time,
 * each with its audit log and (active ones) an Expire button.
 */
export function pushesPage(options: {
  header: WebHeader;
  csrf: string;
  state: 'active' | 'expired';
  page: number;
  hasNext: boolean;
  items: readonly ListedPush[];
}): Html {
  const { state, page, items, csrf } = options;
  const tab = (s: 'active' | 'expired', label: string) =>
    s === state
      ? html`<strong aria-current="page">${label}</strong>`
      : html`<a href="/pushes?state=${s}">${label}</a>`;
  const rows = items.map(({ push, urlToken, now }) => {
    const live = !isEffectivelyExpired(push, now);
    return html`<tr>
      <td>${push.name ?? html`<span class="muted">(no name)</span>`}</td>
      <td>${KIND[push.kind]}</td>
      <td>${live ? viewsRemaining(push) : 0}</td>
      <td>${live ? daysRemaining(push, now) : 0}</td>
      <td>${when(push.createdAt)}</td>
      <td>
        <a href="/pushes/${urlToken}/audit"
          >Audit log<span class="visually-hidden"> of ${push.name ?? 'this push'}</span></a
        >
        ${
          live
            ? html`<form method="post" action="/pushes/${urlToken}/expire" class="inline">
                <input type="hidden" name="csrf" value="${csrf}" />
                <button type="submit" class="danger">
                  Expire<span class="visually-hidden"> ${push.name ?? 'this push'}</span>
                </button>
              </form>`
            : ''
        }
      </td>
    </tr>`;
  });
  const pager = html`<nav aria-label="Pages" class="pager">
    ${page > 1 ? html`<a href="/pushes?state=${state}&amp;page=${page - 1}">Previous page</a>` : ''}
    ${options.hasNext ? html`<a href="/pushes?state=${state}&amp;page=${page + 1}">Next page</a>` : ''}
  </nav>`;
  return layout(
    'Your pushes',
    html`${webHeader(options.header)}
      <h1>Your pushes</h1>
      <p class="tabs">${tab('active', 'Active')} · ${tab('expired', 'Expired')}</p>
      ${
        items.length === 0
          ? html`<p>No ${state} pushes${page > 1 ? ' on this page' : ''}.</p>`
          : html`<table class="list">
              <caption>
                ${state === 'active' ? 'Active pushes' : 'Expired pushes'}, page ${page}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Views left</th>
                  <th scope="col">Days left</th>
                  <th scope="col">Created</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>`
      }
      ${pager}`,
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
  email?: PushEmailPart;
}): Html {
  const { push, entries } = options;
  return layout(
    'Audit log',
    html`${webHeader(options.header)}
      <h1>Audit log${push.name ? html`: ${push.name}` : ''}</h1>
      <p><a href="/pushes">Back to your pushes</a></p>
      ${options.email ? emailPart(options.email) : ''}
      <h2>Events</h2>
      ${
        entries.length === 0
          ? html`<p>Nothing has happened to this push yet.</p>`
          : html`<table class="list">
              <caption>
                Events
              </caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">What</th>
                  <th scope="col">IP address</th>
                  <th scope="col">Browser or client</th>
                </tr>
              </thead>
              <tbody>
                ${entries.map(
                  (e) =>
                    html`<tr>
                      <td>${when(e.createdAt)}</td>
                      <td>${EVENT[e.kind]}</td>
                      <td>${e.ip ?? ''}</td>
                      <td>${e.userAgent}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
      ${options.dropped > 0 ? html`<p class="muted">${options.dropped} older entries were not kept.</p>` : ''}`,
  );
}
