import { type Html, html, rich } from '@secret-push/html';
import { LANGUAGE_NAMES, t, translator } from '@secret-push/i18n';
import { NOTICE_KINDS, type NoticeKind } from '../domain/email-rules';

/*
 * The web app's parts about email (issue 26): the create form's "Email the link to", its language,
 * "Show my email address" and "Email me when…"; the account's default notices; and, on the
 * owner's page of a push, its email sends with each recipient's status and the form that sends
 * the link again.
 */

/** What an owner may be emailed about (`notify_owner_on`), in the order the forms show them. */
export const OWNER_NOTICES = NOTICE_KINDS;
export type OwnerNoticeKind = NoticeKind;

/** The notices' labels (catalogue keys), after "Email me when…". */
const NOTICE_LABEL: Record<OwnerNoticeKind, string> = {
  view: 'create.email.notice.view',
  failed_passphrase: 'create.email.notice.failedPassphrase',
  expired_unseen: 'create.email.notice.expiredUnseen',
};

/** The notices among `values` (a form's checked boxes), in order, each once. */
export const noticesOf = (values: readonly string[]): OwnerNoticeKind[] =>
  OWNER_NOTICES.filter((n) => values.includes(n));

/** Whether owner notices are offered to this person, with their defaults; or why not. */
export type NoticeOffer =
  { offered: true; to: string; defaults: readonly OwnerNoticeKind[] } | { offered: false; why: string };

/** The create form's email part for a visitor: absent parts are not offered. */
export interface EmailFormRules {
  /** "Email the link to" and its language: a signed-in person where the instance sends email. */
  recipients?: { locales: readonly string[]; defaultLocale: string };
  /** "Show my email address to the recipients": only with a verified address to show. */
  senderAddress?: string;
  notices?: NoticeOffer;
}

/** What was typed in the email part, shown again when the form comes back with problems. */
export interface EmailFormValues {
  notify_emails_to?: string;
  notify_emails_to_locale?: string;
  notify_emails_include_sender?: boolean;
  /** The boxes checked; undefined on a new form (then the account's defaults are checked). */
  notify_owner_on?: readonly string[];
}

/** Why a person is not offered owner notices, in their words. */
export function noNoticesReason(email: string | null, emailOn: boolean): string {
  if (!emailOn) return t('notices.why.emailOff');
  if (email === null) return t('notices.why.noAddress');
  return t('notices.why.unverified', { email });
}

type Errors = Record<string, string[]>;

const errorOf = (errors: Errors, name: string): Html =>
  errors[name]?.length ? html`<p class="error" id="${name}-error">${errors[name].join(' ')}</p>` : html``;

/** `aria-describedby` (hint, and error when there is one) and `aria-invalid`. */
function describedBy(errors: Errors, name: string): Html {
  const bad = !!errors[name]?.length;
  return html` aria-describedby="${name}-hint${bad ? ` ${name}-error` : ''}"${bad ? html` aria-invalid="true"` : ''}`;
}

/** The "Email me when…" boxes (`name` repeated, one per notice), `checked` checked. */
export function noticeChoices(
  name: string,
  legend: string,
  checked: readonly string[],
  errors: Errors = {},
): Html {
  return html`<fieldset id="${name}">
    <legend>${legend}</legend>
    ${errorOf(errors, name)}
    ${OWNER_NOTICES.map(
      (n) =>
        html`<div class="choice">
          <input
            type="checkbox"
            id="${name}-${n}"
            name="${name}"
            value="${n}"
            ${checked.includes(n) ? html` checked` : ''}
          />
          <label for="${name}-${n}">${t(NOTICE_LABEL[n])}</label>
        </div>`,
    )}
  </fieldset>`;
}

/** The language of an email, as a select of the instance's locales, each by its own name. */
function localeSelect(name: string, locales: readonly string[], value: string, errors: Errors): Html {
  return html`<label for="${name}">${t('create.email.locale.label')}</label>
    <p class="muted" id="${name}-hint">${t('create.email.locale.hint')}</p>
    ${errorOf(errors, name)}
    <select id="${name}" name="${name}" ${describedBy(errors, name)}>
      ${locales.map(
        (l) =>
          html`<option value="${l}" lang="${l}" ${l === value ? html` selected` : ''}>
            ${localeName(l)}
          </option>`,
      )}
    </select>`;
}

/** A language's own name ("Deutsch"), as the language selector shows it; the tag if it has none. */
const localeName = (locale: string): string =>
  Object.hasOwn(LANGUAGE_NAMES, locale) ? LANGUAGE_NAMES[locale as keyof typeof LANGUAGE_NAMES] : locale;

/** The addresses field of the create form and of the owner's "Send the link by email". */
function recipientsField(name: string, label: string, value: string | undefined, errors: Errors): Html {
  return html`<label for="${name}">${label}</label>
    <p class="muted" id="${name}-hint">${t('create.email.to.hint', { max: 5 })}</p>
    ${errorOf(errors, name)}
    <input
      id="${name}"
      name="${name}"
      type="text"
      inputmode="email"
      autocomplete="off"
      spellcheck="false"
      value="${value ?? ''}"
      ${describedBy(errors, name)}
    />`;
}

/** The create form's email part: what is offered to this visitor (nothing, for an anonymous one). */
export function createEmailFields(rules: EmailFormRules, values: EmailFormValues, errors: Errors): Html {
  const { recipients, notices } = rules;
  if (!recipients && !notices) return html``;
  const sender = rules.senderAddress
    ? html`<div class="choice">
        <input
          type="checkbox"
          id="notify_emails_include_sender"
          name="notify_emails_include_sender"
          value="true"
          aria-describedby="notify_emails_include_sender-hint"
          ${values.notify_emails_include_sender ? html` checked` : ''}
        />
        <label for="notify_emails_include_sender">${t('create.email.sender.label')}</label>
        <p class="muted" id="notify_emails_include_sender-hint">
          ${t('create.email.sender.hint', { email: rules.senderAddress })}
        </p>
      </div>`
    : '';
  const to = recipients
    ? html`${recipientsField('notify_emails_to', t('create.email.to.label'), values.notify_emails_to, errors)}
      ${localeSelect(
        'notify_emails_to_locale',
        recipients.locales,
        values.notify_emails_to_locale ?? recipients.defaultLocale,
        errors,
      )}
      ${sender}`
    : '';
  const notify = !notices
    ? ''
    : notices.offered
      ? html`${noticeChoices(
            'notify_owner_on',
            t('create.email.notices.legend'),
            values.notify_owner_on ?? notices.defaults,
            errors,
          )}
          <p class="muted">${t('create.email.notices.to', { email: notices.to })}</p>`
      : html`<p class="muted" id="notify_owner_on">${notices.why}</p>`;
  return html`<h2>${t('create.email.title')}</h2>
    ${to} ${notify}`;
}

/*
 * The owner's and the account's parts (below) have their own texts (areas `notices` and `owner`),
 * apart from the create form's helpers above.
 */

/** What an owner may be emailed about, as the account's defaults name them (catalogue keys). */
const DEFAULT_NOTICE_LABEL: Record<OwnerNoticeKind, string> = {
  view: 'notices.kind.view',
  failed_passphrase: 'notices.kind.failedPassphrase',
  expired_unseen: 'notices.kind.expiredUnseen',
};

/** The account's default notice boxes (`notices`, one per kind), `checked` checked. */
function noticeDefaultChoices(checked: readonly string[]): Html {
  return html`<fieldset id="notices">
    <legend>${t('notices.legend')}</legend>
    ${OWNER_NOTICES.map(
      (n) =>
        html`<div class="choice">
          <input
            type="checkbox"
            id="notices-${n}"
            name="notices"
            value="${n}"
            ${checked.includes(n) ? html` checked` : ''}
          />
          <label for="notices-${n}">${t(DEFAULT_NOTICE_LABEL[n])}</label>
        </div>`,
    )}
  </fieldset>`;
}

/** The account page's "Email notices": the default boxes of new secrets, or why there are none. */
export function noticeDefaultsSection(options: { csrf: string; offer: NoticeOffer; saved?: boolean }): Html {
  const { offer } = options;
  return html`<h2>${t('notices.heading')}</h2>
    ${options.saved ? html`<p role="status" class="notice">${t('notices.saved')}</p>` : ''}
    ${
      offer.offered
        ? html`<p>${t('notices.intro', { email: offer.to })}</p>
            <form method="post" action="/account/notices">
              <input type="hidden" name="csrf" value="${options.csrf}" />
              ${noticeDefaultChoices(offer.defaults)}
              <button type="submit" class="secondary">${t('notices.save')}</button>
            </form>`
        : html`<p>${offer.why}</p>`
    }`;
}

/** One recipient's email of a push, as its owner sees it. */
export interface EmailSendRow {
  recipient: string;
  /** What it is: the link sent to a recipient, or a notice to the owner. */
  purpose?: string;
  status: 'queued' | 'sent' | 'deferred' | 'failed';
  /** The server's reply (sent) or the reason (deferred, failed). */
  detail: string | null;
  attempts: number;
  /** When a deferred email is tried again. */
  nextAttemptAt?: Date | null;
  updatedAt: Date;
}

const STATUS: Record<EmailSendRow['status'], string> = {
  queued: 'owner.email.status.queued',
  sent: 'owner.email.status.sent',
  deferred: 'owner.email.status.deferred',
  failed: 'owner.email.status.failed',
};

/** The exact time, UTC, in the page's language ("27.11.2026, 09:15 UTC"). */
const when = (d: Date) =>
  html`<time datetime="${d.toISOString()}"
    >${t('owner.email.utc', {
      time: translator().date(d, {
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: 'UTC',
      }),
    })}</time
  >`;

function statusCell(row: EmailSendRow): Html {
  const tries = t('owner.email.attempts', { count: row.attempts });
  const next =
    row.status === 'deferred' && row.nextAttemptAt
      ? rich('owner.email.nextTry', { time: when(row.nextAttemptAt) })
      : '';
  return html`<strong>${t(STATUS[row.status])}</strong>
    ${row.detail ? html`<br /><span class="muted">${row.detail}</span>` : ''}
    ${row.attempts > 0 ? html`<br /><span class="muted">${tries}${next}</span>` : next}`;
}

/** The email sends of a push: each recipient with its status. */
export function emailSendsTable(rows: readonly EmailSendRow[]): Html {
  if (rows.length === 0) return html`<p>${t('owner.email.none')}</p>`;
  return html`<table class="list" id="email-sends">
    <caption>
      ${t('owner.email.caption')}
    </caption>
    <thead>
      <tr>
        <th scope="col">${t('owner.email.column.to')}</th>
        <th scope="col">${t('owner.email.column.what')}</th>
        <th scope="col">${t('owner.email.column.status')}</th>
        <th scope="col">${t('owner.email.column.updated')}</th>
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (r) =>
          html`<tr>
            <td>${r.recipient}</td>
            <td>${r.purpose ?? t('owner.email.purpose.pushLink')}</td>
            <td>${statusCell(r)}</td>
            <td>${when(r.updatedAt)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** A language by its own name ("Deutsch"), as the language selector names them. */
const ownName = (locale: string): string =>
  (LANGUAGE_NAMES as Record<string, string | undefined>)[locale] ?? locale;

/** "Send the link by email" on the owner's page of an active push. */
export function notifyForm(options: {
  action: string;
  csrf: string;
  locales: readonly string[];
  defaultLocale: string;
  values?: { to?: string; locale?: string };
  errors?: Errors;
}): Html {
  const errors = options.errors ?? {};
  const values = options.values ?? {};
  const to = 'notify_emails_to';
  const lang = 'notify_emails_to_locale';
  const chosen = values.locale ?? options.defaultLocale;
  return html`<form method="post" action="${options.action}" id="notify">
    <h3>${t('owner.notify.heading')}</h3>
    <input type="hidden" name="csrf" value="${options.csrf}" />
    ${errorOf(errors, 'push')}
    <label for="${to}">${t('owner.notify.to')}</label>
    <p class="muted" id="${to}-hint">${t('owner.notify.toHint')}</p>
    ${errorOf(errors, to)}
    <input
      id="${to}"
      name="${to}"
      type="text"
      inputmode="email"
      autocomplete="off"
      spellcheck="false"
      value="${values.to ?? ''}"
      ${describedBy(errors, to)}
    />
    <label for="${lang}">${t('owner.notify.language')}</label>
    <p class="muted" id="${lang}-hint">${t('owner.notify.languageHint')}</p>
    ${errorOf(errors, lang)}
    <select id="${lang}" name="${lang}" ${describedBy(errors, lang)}>
      ${options.locales.map(
        (l) =>
          html`<option value="${l}" lang="${l}" ${l === chosen ? html` selected` : ''}>
            ${ownName(l)}
          </option>`,
      )}
    </select>
    <button type="submit">${t('owner.notify.submit')}</button>
  </form>`;
}
