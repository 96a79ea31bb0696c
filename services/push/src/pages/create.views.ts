import type { PushKind } from '../domain/push';
import { type Html, html } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import type { UploadLimits } from '../uploads/form';
import { MAX_LABEL } from '../http/push.schemas';
import type { WebFormPresets } from '../config/web-form';
import { DROP_SCRIPT } from './create-form.drop.script';
import { type ExpiryValues, expiryFields } from './create-form.expiry';
import { GENERATOR_SCRIPT, generatorPart } from './create-form.generator';
import { PRESETS_SCRIPT } from './create-form.presets.script';
import { type EmailFormRules, type EmailFormValues, createEmailFields } from './email.views';
import {
  described,
  fieldError,
  filesField,
  passphraseInput,
  problemSummary as summaryOf,
} from './form-parts.views';
import { createFormMessages } from './create-form.messages';
import { layout } from './layout';
import { type WebHeader, webHeader as header } from './web-header';

/** The instance's create settings as the form shows them (defaults and bounds). */
export interface FormRules {
  days: { default: number; min: number; max: number };
  views: { default: number; min: number; max: number };
  retrievalStepDefault: boolean;
  deletableByViewerDefault: boolean;
  /** The expiry presets and the ones chosen when the form opens (PUSH_WEB_*). */
  presets: WebFormPresets;
  /** The kinds the form offers, in order. */
  kinds: readonly PushKind[];
  /** The instance's file limits, when the form offers files (then it is sent as multipart). */
  fileLimits?: UploadLimits;
  /** Whether the form has name and note: only for signed-in people, the only ones who see them again. */
  nameAndNote?: boolean;
  /** What the form offers about email (the link to recipients, owner notices), if anything. */
  email?: EmailFormRules;
}

/** The script of the form with files: the upload with a progress bar (create-form.script.ts). */
export const CREATE_FORM_SCRIPT = '/static/create-form.js';

/** What the person typed, shown again when the form comes back with problems. */
export interface FormValues extends EmailFormValues, ExpiryValues {
  kind?: string;
  payload?: string;
  retrieval_step?: boolean;
  deletable_by_viewer?: boolean;
  name?: string;
  note?: string;
  /**
   * A passphrase was asked for: the form came back (with problems) after one was typed. The
   * passphrase itself is never sent back to the page; the field says to type it again, and the
   * form carries `passphrase_required`, so a create without one is refused.
   */
  passphraseRequired?: boolean;
  /** The form's Idempotency-Key: a resubmission of the same form gets the same push. */
  idempotencyKey?: string;
}

/** The kinds' labels (catalogue keys). */
const KIND_LABEL: Record<PushKind, string> = {
  text: 'create.kind.text',
  url: 'create.kind.url',
  qr: 'create.kind.qr',
  file: 'create.kind.file',
};

/** Field names as the form and the API's errors name them: how the summary names them (catalogue keys). */
const FIELD_LABEL: Record<string, string> = {
  kind: 'create.field.kind',
  payload: 'create.field.payload',
  duration: 'create.field.duration',
  views: 'create.field.views',
  expire_after_duration: 'create.field.duration',
  expire_after_days: 'create.field.days',
  expire_after_views: 'create.field.viewsNumber',
  passphrase: 'create.field.passphrase',
  retrieval_step: 'create.field.retrievalStep',
  deletable_by_viewer: 'create.field.deletable',
  name: 'create.field.name',
  note: 'create.field.note',
  files: 'create.field.files',
  notify_emails_to: 'create.field.emailTo',
  notify_emails_to_locale: 'create.field.emailLocale',
  notify_emails_include_sender: 'create.field.includeSender',
  notify_owner_on: 'create.field.notices',
  push: 'create.field.push',
};

/** Where the summary's link for a problem leads, when not to the field of that name. */
const FIELD_ANCHOR: Record<string, string> = {
  push: 'payload',
  kind: 'kind',
  expire_after_duration: 'duration',
};

/** The problems of a refused create, above the form, each linked to its field. */
const problemSummary = (errors: Record<string, string[]>): Html =>
  summaryOf(
    errors,
    Object.fromEntries(Object.entries(FIELD_LABEL).map(([name, key]) => [name, t(key)])),
    FIELD_ANCHOR,
  );

/** The kinds offered, as radio buttons, `kind` checked. */
function kindChoices(
  kinds: readonly PushKind[],
  kind: string | undefined,
  errors: Record<string, string[]>,
): Html {
  return html`<fieldset id="kind" class="presets">
    <legend>${t('create.kind.legend')}</legend>
    <div class="preset-list">
      ${kinds.map(
        (k) =>
          html`<span class="preset">
            <input type="radio" id="kind-${k}" name="kind" value="${k}" ${k === kind ? html` checked` : ''} />
            <label for="kind-${k}">${t(KIND_LABEL[k])}</label>
          </span>`,
      )}
    </div>
    ${fieldError(errors, 'kind')}
  </fieldset>`;
}

/**
 * `/`: the form to create a push. Plain HTML that works without JavaScript; every field has a
 * visible label and a hint with the instance's bounds. `notice` replaces the form when this
 * visitor may not create (e.g. anonymous creation is off).
 */
export function createFormPage(options: {
  rules: FormRules;
  values?: FormValues;
  errors?: Record<string, string[]>;
  notice?: string;
  header?: WebHeader;
  /** A signed-in person's session token: the form's first field (checked before any file is stored). */
  csrf?: string;
}): Html {
  const { rules, notice } = options;
  const files = rules.kinds.includes('file') ? rules.fileLimits : undefined;
  const multipart = files ? html` enctype="multipart/form-data" data-upload` : '';
  const top = header(options.header);
  const values = options.values ?? {};
  const errors = options.errors ?? {};
  if (notice) {
    return layout(
      t('create.title'),
      html`<h1>${t('create.title')}</h1>
        <p>${notice}</p>`,
    );
  }
  const kind = rules.kinds.includes(values.kind as PushKind) ? values.kind : rules.kinds[0];
  const retrievalStep = values.retrieval_step ?? rules.retrievalStepDefault;
  const deletable = values.deletable_by_viewer ?? rules.deletableByViewerDefault;
  const summary = problemSummary(errors);
  return layout(
    t('create.title'),
    html`${top}
      <h1>${t('create.title')}</h1>
      <p>${t('create.intro')}</p>
      ${summary}
      <form method="post" action="/" class="create" ${multipart}>
        ${options.csrf ? html`<input type="hidden" name="csrf" value="${options.csrf}" />` : ''}
        ${
          values.idempotencyKey
            ? html`<input type="hidden" name="idempotency_key" value="${values.idempotencyKey}" />`
            : ''
        }
        ${kindChoices(rules.kinds, kind, errors)}

        <label for="payload">${t('create.payload.label')}</label>
        <p class="muted" id="payload-hint">
          ${files ? t('create.payload.hintFiles') : t('create.payload.hint')}
        </p>
        ${fieldError(errors, 'payload')}
        <textarea
          id="payload"
          name="payload"
          rows="4"
          ${files ? '' : html` required`}
          autocomplete="off"
          spellcheck="false"
          ${described(errors, 'payload')}
        >
${values.payload ?? ''}</textarea>
        ${generatorPart()}
        ${expiryFields({
          presets: rules.presets,
          bounds: rules,
          values,
          errors,
          text: {
            durationLegend: t('create.expiry.durationLegend'),
            viewsLegend: t('create.expiry.viewsLegend'),
          },
        })}
        ${passphraseField(values, errors)}
        <details class="more" id="more-options" ${moreOpen(errors, values) ? html` open` : ''}>
          <summary>${t('create.more')}</summary>
          ${choiceField(
            'retrieval_step',
            t('create.retrievalStep.label'),
            t('create.retrievalStep.hint'),
            retrievalStep,
            errors,
          )}
          ${choiceField(
            'deletable_by_viewer',
            t('create.deletable.label'),
            t('create.deletable.hint'),
            deletable,
            errors,
          )}
          ${rules.nameAndNote ? labelFields(values, errors) : ''}
          ${rules.email ? createEmailFields(rules.email, values, errors) : ''}
        </details>
        ${files ? fileFields(files, errors) : ''}

        <button type="submit">${t('create.submit')}</button>
      </form>`,
    {
      scripts: [PRESETS_SCRIPT, GENERATOR_SCRIPT, ...(files ? [CREATE_FORM_SCRIPT, DROP_SCRIPT] : [])],
      clientMessages: createFormMessages(files),
    },
  );
}

/** The fields in "More options": open when one of them has a problem, or holds what was typed. */
const MORE_FIELDS = [
  'retrieval_step',
  'deletable_by_viewer',
  'name',
  'note',
  'notify_emails_to',
  'notify_emails_to_locale',
  'notify_emails_include_sender',
  'notify_owner_on',
];

function moreOpen(errors: Record<string, string[]>, values: FormValues): boolean {
  return (
    MORE_FIELDS.some((name) => errors[name]?.length) ||
    !!values.name ||
    !!values.note ||
    !!values.notify_emails_to
  );
}

/**
 * The passphrase. A form that comes back with problems after one was typed never echoes it: it
 * says to type it again (an error of the field) and carries `passphrase_required`, so that the
 * create cannot go ahead without the passphrase the person asked for.
 */
function passphraseField(values: FormValues, errors: Record<string, string[]>): Html {
  return passphraseInput(t('create.passphraseHint'), values.passphraseRequired === true, errors);
}

/** A yes/no option: the hidden "false" is sent when the box is unchecked. */
function choiceField(
  name: string,
  label: string,
  hint: string,
  checked: boolean,
  errors: Record<string, string[]>,
): Html {
  return html`<div class="choice">
    <input type="hidden" name="${name}" value="false" />
    <input
      type="checkbox"
      id="${name}"
      name="${name}"
      value="true"
      ${checked ? html` checked` : ''}
      ${described(errors, name)}
    />
    <label for="${name}">${label}</label>
    <p class="muted" id="${name}-hint">${hint}</p>
  </div>`;
}

/** Name and note: the owner's own labels, never shown to the recipient. */
function labelFields(values: FormValues, errors: Record<string, string[]>): Html {
  const field = (name: 'name' | 'note', label: string, hint: string) => html`
    <label for="${name}">${label}</label>
    <p class="muted" id="${name}-hint">${hint} ${t('create.labelMax', { max: MAX_LABEL })}</p>
    ${fieldError(errors, name)}
    <input
      id="${name}"
      name="${name}"
      type="text"
      autocomplete="off"
      value="${values[name] ?? ''}"
      ${described(errors, name)}
    />
  `;
  return html`${field('name', t('create.name.label'), t('create.name.hint'))}
  ${field('note', t('create.note.label'), t('create.note.hint'))}`;
}

/**
 * The file input (several files at once) with the instance's limits, and the upload's progress
 * bar, which only the script shows (the form works without it: a plain multipart POST). It comes
 * last: a form refused for a file (too large, too many) still has every other field it sent.
 */
function fileFields(limits: UploadLimits, errors: Record<string, string[]>): Html {
  return filesField({ label: t('create.files.label'), lead: t('create.files.lead') }, limits, errors);
}
