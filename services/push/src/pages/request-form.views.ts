import { type Html, html, rich } from '@secret-push/html';
import { LANGUAGE_NAMES, t, translator } from '@secret-push/i18n';
import type { WebFormPresets } from '../config/web-form';
import { MAX_LABEL } from '../http/push.schemas';
import { PRESETS_SCRIPT } from './create-form.presets.script';
import { type ExpiryValues, expiryFields } from './create-form.expiry';
import {
  type FieldErrors,
  checkbox,
  described,
  fieldError,
  passphraseInput,
  problemSummary,
} from './form-parts.views';
import { layout } from './layout';
import { type WebHeader, webHeader } from './web-header';

/*
 * `/requests/new` ("Request a secret", issue 28): the form a signed-in person fills to ask someone
 * for a secret. Plain HTML that works without JavaScript; sent urlencoded with the session's CSRF
 * token and the form's Idempotency-Key (a resubmission creates nothing).
 */

/** The instance's settings as the form shows them. */
export interface RequestFormRules {
  days: { default: number; min: number; max: number };
  views: { default: number; min: number; max: number };
  retrievalStepDefault: boolean;
  deletableByViewerDefault: boolean;
  /** The expiry presets of the web forms (PUSH_WEB_*): how long the link is open, the answer's views. */
  presets: WebFormPresets;
  /** The responder may be allowed files: the instance stores files. */
  files: boolean;
  /** The instance sends email: "answerable by these emails", "notify me", "email the link to". */
  email?: { locales: readonly string[] };
  /** The person's address, for "Show my email address" (null: none to show). */
  ownEmail: string | null;
}

/** What was typed, shown again when the form comes back (never the passphrase). */
export interface RequestFormValues extends ExpiryValues {
  request?: string;
  name?: string;
  note?: string;
  answer_expire_after_days?: string;
  retrieval_step?: boolean;
  deletable_by_viewer?: boolean;
  response_file_attachments?: boolean;
  include_requestor?: boolean;
  answerable_by?: string;
  answerable_emails?: string;
  notify_owner_on_answer?: boolean;
  notify_emails_to?: string;
  notify_emails_to_locale?: string;
  passphraseRequired?: boolean;
  idempotencyKey?: string;
}

/** The fields' names as the problem summary links them, in the page's language. */
export function requestFieldLabels(): Record<string, string> {
  return {
    request: t('requests.field.request'),
    name: t('requests.field.name'),
    note: t('requests.field.note'),
    duration: t('requests.field.duration'),
    views: t('requests.field.views'),
    expire_after_duration: t('requests.field.duration'),
    expire_after_days: t('requests.field.days'),
    expire_after_views: t('requests.field.viewsNumber'),
    answer_expire_after_days: t('requests.field.answerDays'),
    passphrase: t('requests.field.passphrase'),
    retrieval_step: t('requests.field.retrievalStep'),
    deletable_by_viewer: t('requests.field.deletable'),
    response_file_attachments: t('requests.field.files'),
    include_requestor: t('requests.field.includeRequestor'),
    answerable_by: t('requests.field.answerableBy'),
    answerable_emails: t('requests.field.answerableEmails'),
    notify_owner_on_answer: t('requests.field.notifyOwner'),
    notify_emails_to: t('requests.field.notifyEmailsTo'),
    notify_emails_to_locale: t('requests.field.notifyLocale'),
    form: t('requests.field.form'),
  };
}

type NumberName = 'answer_expire_after_days';

function numberField(
  name: NumberName,
  label: string,
  hint: string,
  bounds: { min: number; max: number },
  value: string | undefined,
  errors: FieldErrors,
  required = true,
): Html {
  return html`<div>
    <label for="${name}">${label}</label>
    <p class="muted" id="${name}-hint">${hint}</p>
    ${fieldError(errors, name)}
    <input
      id="${name}"
      name="${name}"
      type="number"
      inputmode="numeric"
      min="${bounds.min}"
      max="${bounds.max}"
      value="${value ?? ''}"
      ${required ? html` required` : ''}
      ${described(errors, name)}
    />
  </div>`;
}

function textField(
  name: string,
  label: string,
  hint: string,
  value: string | undefined,
  errors: FieldErrors,
) {
  return html`<label for="${name}">${label}</label>
    <p class="muted" id="${name}-hint">${hint}</p>
    ${fieldError(errors, name)}
    <input
      id="${name}"
      name="${name}"
      type="text"
      autocomplete="off"
      value="${value ?? ''}"
      ${described(errors, name)}
    />`;
}

const WHO: readonly { value: string; label: () => string; email?: true }[] = [
  { value: 'anyone', label: () => t('requests.form.who.anyone') },
  { value: 'users', label: () => t('requests.form.who.users') },
  { value: 'emails', label: () => t('requests.form.who.emails'), email: true },
];

function whoMayAnswer(rules: RequestFormRules, values: RequestFormValues, errors: FieldErrors): Html {
  const chosen = values.answerable_by ?? 'anyone';
  const offered = WHO.filter((w) => !w.email || rules.email);
  return html`<fieldset id="answerable_by">
    <legend>${t('requests.form.who.legend')}</legend>
    ${fieldError(errors, 'answerable_by')}
    ${offered.map(
      (w) =>
        html`<div class="choice">
          <input
            type="radio"
            id="answerable_by-${w.value}"
            name="answerable_by"
            value="${w.value}"
            ${w.value === chosen ? html` checked` : ''}
          />
          <label for="answerable_by-${w.value}">${w.label()}</label>
        </div>`,
    )}
    ${
      rules.email
        ? textField(
            'answerable_emails',
            t('requests.form.emails.label'),
            t('requests.form.emails.hint', { max: 5 }),
            values.answerable_emails,
            errors,
          )
        : ''
    }
  </fieldset>`;
}

function emailPart(rules: RequestFormRules, values: RequestFormValues, errors: FieldErrors): Html {
  const email = rules.email;
  if (!email) return html``;
  const page = translator().locale;
  const locale =
    values.notify_emails_to_locale ?? (email.locales.includes(page) ? page : (email.locales[0] ?? 'en'));
  const names: Record<string, string> = LANGUAGE_NAMES;
  return html`<fieldset id="email-part">
    <legend>${t('requests.form.email.legend')}</legend>
    ${textField(
      'notify_emails_to',
      t('requests.form.email.toLabel'),
      t('requests.form.email.toHint', { max: 5 }),
      values.notify_emails_to,
      errors,
    )}
    <label for="notify_emails_to_locale">${t('requests.form.email.localeLabel')}</label>
    <p class="muted" id="notify_emails_to_locale-hint">${t('requests.form.email.localeHint')}</p>
    ${fieldError(errors, 'notify_emails_to_locale')}
    <select
      id="notify_emails_to_locale"
      name="notify_emails_to_locale"
      ${described(errors, 'notify_emails_to_locale')}
    >
      ${email.locales.map(
        (l) =>
          html`<option value="${l}" lang="${l}" ${l === locale ? html` selected` : ''}>
            ${names[l] ?? l}
          </option>`,
      )}
    </select>
    ${
      rules.ownEmail
        ? checkbox(
            'notify_owner_on_answer',
            t('requests.form.email.notifyOwner'),
            t('requests.form.email.notifyOwnerHint', { email: rules.ownEmail }),
            values.notify_owner_on_answer ?? false,
            errors,
          )
        : ''
    }
  </fieldset>`;
}

function passphraseField(values: RequestFormValues, errors: FieldErrors): Html {
  return passphraseInput(t('requests.form.passphraseHint'), values.passphraseRequired === true, errors);
}

/** The fields under "More options": open when one has a problem or a value typed. */
const MORE_FIELDS = [
  'name',
  'note',
  'answer_expire_after_days',
  'include_requestor',
  'retrieval_step',
  'deletable_by_viewer',
  'notify_emails_to',
  'notify_emails_to_locale',
  'notify_owner_on_answer',
];

const moreOpen = (errors: FieldErrors, v: RequestFormValues): boolean =>
  MORE_FIELDS.some((name) => errors[name]?.length) ||
  !!(v.name || v.note || v.answer_expire_after_days || v.notify_emails_to);

/** `/requests/new`: the form; `errors` when it came back refused. */
export function requestFormPage(options: {
  rules: RequestFormRules;
  header: WebHeader;
  csrf: string;
  values?: RequestFormValues;
  errors?: FieldErrors;
}): Html {
  const { rules } = options;
  const values = options.values ?? {};
  const errors = options.errors ?? {};
  return layout(
    t('requests.form.title'),
    html`${webHeader(options.header)}
      <h1>${t('requests.form.title')}</h1>
      <p>${rich('requests.form.lead', { link: (c) => html`<a href="/requests">${c}</a>` })}</p>
      ${problemSummary(errors, requestFieldLabels(), { form: 'request', expire_after_duration: 'duration' })}
      <form method="post" action="/requests/new" class="request-create">
        <input type="hidden" name="csrf" value="${options.csrf}" />
        ${
          values.idempotencyKey
            ? html`<input type="hidden" name="idempotency_key" value="${values.idempotencyKey}" />`
            : ''
        }
        <label for="request">${t('requests.field.request')}</label>
        <p class="muted" id="request-hint">${t('requests.form.requestHint', { max: 10000 })}</p>
        ${fieldError(errors, 'request')}
        <textarea
          id="request"
          name="request"
          rows="5"
          required
          maxlength="10000"
          ${described(errors, 'request')}
        >
${values.request ?? ''}</textarea>
        ${expiryFields({
          presets: rules.presets,
          bounds: rules,
          values,
          errors,
          // The answer push: one view unless asked.
          defaultViews: 1,
          text: {
            durationLegend: t('requests.field.duration'),
            durationHint: t('requests.form.durationHint'),
            viewsLegend: t('requests.field.views'),
            viewsHint: t('requests.form.viewsHint'),
          },
        })}
        ${passphraseField(values, errors)} ${whoMayAnswer(rules, values, errors)}
        ${
          rules.files
            ? checkbox(
                'response_file_attachments',
                t('requests.form.files.label'),
                t('requests.form.files.hint'),
                values.response_file_attachments ?? false,
                errors,
              )
            : ''
        }
        <details class="more" id="more-options" ${moreOpen(errors, values) ? html` open` : ''}>
          <summary>${t('requests.form.more')}</summary>
          ${textField('name', t('requests.form.name.label'), t('requests.form.name.hint', { max: MAX_LABEL }), values.name, errors)}
          ${textField('note', t('requests.form.note.label'), t('requests.form.note.hint', { max: MAX_LABEL }), values.note, errors)}
          ${numberField('answer_expire_after_days', t('requests.form.answerDays.label'), t('requests.form.answerDays.hint', { min: rules.days.min, max: rules.days.max }), rules.days, values.answer_expire_after_days, errors, false)}
          ${
            rules.ownEmail
              ? checkbox(
                  'include_requestor',
                  t('requests.form.includeRequestor.label'),
                  t('requests.form.includeRequestor.hint', { email: rules.ownEmail }),
                  values.include_requestor ?? false,
                  errors,
                )
              : ''
          }
          ${checkbox('retrieval_step', t('requests.form.retrievalStep.label'), t('requests.form.retrievalStep.hint'), values.retrieval_step ?? rules.retrievalStepDefault, errors)}
          ${checkbox('deletable_by_viewer', t('requests.form.deletable.label'), t('requests.form.deletable.hint'), values.deletable_by_viewer ?? rules.deletableByViewerDefault, errors)}
          ${emailPart(rules, values, errors)}
        </details>
        <button type="submit">${t('requests.form.submit')}</button>
      </form>`,
    { scripts: [PRESETS_SCRIPT] },
  );
}
