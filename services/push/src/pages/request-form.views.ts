import { type Html, html } from '@secret-push/html';
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

export const REQUEST_FIELD_LABEL: Record<string, string> = {
  request: 'Your request',
  name: 'Name',
  note: 'Note',
  duration: 'Open for',
  views: 'Views of the answer',
  expire_after_duration: 'Open for',
  expire_after_days: 'Number of days open',
  expire_after_views: 'Number of views of the answer',
  answer_expire_after_days: 'Days the answer is kept',
  passphrase: 'Passphrase',
  retrieval_step: 'Click to reveal',
  deletable_by_viewer: 'Deletable after viewing',
  response_file_attachments: 'Files',
  include_requestor: 'Show my email address',
  answerable_by: 'Who may answer',
  answerable_emails: 'These addresses',
  notify_owner_on_answer: 'Email me',
  notify_emails_to: 'Email the link to',
  notify_emails_to_locale: 'Language of the email',
  form: 'The form',
};

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

const WHO: readonly { value: string; label: string; email?: true }[] = [
  { value: 'anyone', label: 'Anyone with the link' },
  { value: 'users', label: 'Only people signed in to this instance' },
  {
    value: 'emails',
    label: 'Only these email addresses (they confirm with a code we email them)',
    email: true,
  },
];

function whoMayAnswer(rules: RequestFormRules, values: RequestFormValues, errors: FieldErrors): Html {
  const chosen = values.answerable_by ?? 'anyone';
  const offered = WHO.filter((w) => !w.email || rules.email);
  return html`<fieldset id="answerable_by">
    <legend>Who may answer</legend>
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
          <label for="answerable_by-${w.value}">${w.label}</label>
        </div>`,
    )}
    ${
      rules.email
        ? textField(
            'answerable_emails',
            'These addresses',
            'For "only these email addresses": up to 5, separated by commas.',
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
  const locale = values.notify_emails_to_locale ?? email.locales[0] ?? 'en';
  return html`<fieldset id="email-part">
    <legend>Email</legend>
    ${textField(
      'notify_emails_to',
      'Email the link to (optional)',
      'Up to 5 addresses, separated by commas: they get the link to answer.',
      values.notify_emails_to,
      errors,
    )}
    <label for="notify_emails_to_locale">Language of the email</label>
    <p class="muted" id="notify_emails_to_locale-hint">The language of the email with the link.</p>
    ${fieldError(errors, 'notify_emails_to_locale')}
    <select
      id="notify_emails_to_locale"
      name="notify_emails_to_locale"
      ${described(errors, 'notify_emails_to_locale')}
    >
      ${email.locales.map(
        (l) => html`<option value="${l}" ${l === locale ? html` selected` : ''}>${l}</option>`,
      )}
    </select>
    ${
      rules.ownEmail
        ? checkbox(
            'notify_owner_on_answer',
            'Email me when it is answered',
            `A notice to ${rules.ownEmail} (never the answer itself).`,
            values.notify_owner_on_answer ?? false,
            errors,
          )
        : ''
    }
  </fieldset>`;
}

function passphraseField(values: RequestFormValues, errors: FieldErrors): Html {
  return passphraseInput(
    'The responder must type it before they can answer. Tell it to them another way.',
    values.passphraseRequired === true,
    errors,
  );
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
    'Request a secret',
    html`${webHeader(options.header)}
      <h1>Request a secret</h1>
      <p>
        You get a link to send to someone. They open it, read your request and send the secret back once; you
        then find it in <a href="/requests">Your requests</a>.
      </p>
      ${problemSummary(errors, REQUEST_FIELD_LABEL, { form: 'request', expire_after_duration: 'duration' })}
      <form method="post" action="/requests/new" class="request-create">
        <input type="hidden" name="csrf" value="${options.csrf}" />
        ${
          values.idempotencyKey
            ? html`<input type="hidden" name="idempotency_key" value="${values.idempotencyKey}" />`
            : ''
        }
        <label for="request">Your request</label>
        <p class="muted" id="request-hint">
          What you need, as the responder will read it (at most 10 000 characters). Do not put secrets here.
        </p>
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
            durationLegend: 'Open for',
            durationHint: 'The link takes an answer for this long.',
            viewsLegend: 'Views of the answer',
            viewsHint: 'You can open the answer this many times.',
          },
        })}
        ${passphraseField(values, errors)} ${whoMayAnswer(rules, values, errors)}
        ${
          rules.files
            ? checkbox(
                'response_file_attachments',
                'The responder may attach files',
                'Besides text, they may send files (encrypted on the server, within the instance\u2019s limits).',
                values.response_file_attachments ?? false,
                errors,
              )
            : ''
        }
        <details class="more" id="more-options" ${moreOpen(errors, values) ? html` open` : ''}>
          <summary>More options</summary>
          ${textField('name', 'Name (optional)', `To find it in Your requests; the responder never sees it. At most ${MAX_LABEL} characters.`, values.name, errors)}
          ${textField('note', 'Note (optional)', `A reminder for you, kept encrypted; the responder never sees it. At most ${MAX_LABEL} characters.`, values.note, errors)}
          ${numberField('answer_expire_after_days', 'Days the answer is kept (optional)', `From the answer; empty: as many as the days open (${rules.days.min} to ${rules.days.max}).`, rules.days, values.answer_expire_after_days, errors, false)}
          ${
            rules.ownEmail
              ? checkbox(
                  'include_requestor',
                  'Show my email address to the responder',
                  `They see that ${rules.ownEmail} asks; otherwise the page does not name you.`,
                  values.include_requestor ?? false,
                  errors,
                )
              : ''
          }
          ${checkbox('retrieval_step', 'Click to reveal the answer', 'Opening the answer needs a click, so link previews cannot use a view.', values.retrieval_step ?? rules.retrievalStepDefault, errors)}
          ${checkbox('deletable_by_viewer', 'Deletable after viewing', 'You get a button to delete the answer once you have it.', values.deletable_by_viewer ?? rules.deletableByViewerDefault, errors)}
          ${emailPart(rules, values, errors)}
        </details>
        <button type="submit">Create the request link</button>
      </form>`,
    { scripts: [PRESETS_SCRIPT] },
  );
}
