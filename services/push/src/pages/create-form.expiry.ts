import { type Html, html } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import type { WebFormPresets } from '../config/web-form';
import { DURATIONS } from '../http/push.schemas';
import { formRefusal } from './create-form.problems';
import { type FieldErrors, described, fieldError } from './form-parts.views';

/*
 * The expiry of the create and request forms: presets (a duration, a number of views) as radio
 * buttons, each with "Custom", whose number field (days, views) is always in the page and used
 * when "Custom" is chosen (the script create-expiry.js hides it until then). The form sends
 * `duration` (a preset's name or `custom`) and `views` (a number or `custom`); the server makes
 * them the API's `expire_after_duration` or `expire_after_days`, and `expire_after_views`.
 */

export const CUSTOM = 'custom';

/** What the form sent about expiry. */
export interface ExpiryValues {
  duration?: string;
  views?: string;
  expire_after_days?: string;
  expire_after_views?: string;
}

/** The bounds of the custom fields (the API's). */
export interface ExpiryBounds {
  days: { min: number; max: number };
  views: { min: number; max: number };
}

/** The presets' units: their messages (ICU plurals). */
const UNIT: Record<string, string> = {
  m: 'create.expiry.minutes',
  h: 'create.expiry.hours',
  d: 'create.expiry.days',
  w: 'create.expiry.weeks',
};

/** `1h` → "1 hour", `30d` → "30 days" (in the page's language). */
export function durationLabel(name: string): string {
  const count = Number(name.slice(0, -1));
  const unit = UNIT[name.slice(-1)];
  return unit ? t(unit, { count }) : name;
}

/**
 * The API's expiry fields of what the form sent: a preset duration as `expire_after_duration`,
 * "Custom" (or a form without presets, as older pages sent) as `expire_after_days`; the same for
 * views. A preset the instance does not offer is a 422 naming the field.
 */
export function expiryOf(values: ExpiryValues, presets: WebFormPresets): Record<string, unknown> {
  const errors: FieldErrors = {};
  const out: Record<string, unknown> = {};
  const { duration, views } = values;
  if (duration === undefined || duration === CUSTOM) {
    out.expire_after_days = values.expire_after_days;
  } else {
    const preset = presets.durations.find((d) => d.name === duration);
    const index = preset ? DURATIONS.findIndex((s) => s === preset.seconds) : -1;
    if (index < 0) errors.duration = [t('create.expiry.chooseDuration')];
    else out.expire_after_duration = index;
  }
  if (views === undefined || views === CUSTOM) {
    out.expire_after_views = values.expire_after_views;
  } else if (/^\d{1,5}$/.test(views) && presets.views.includes(Number(views))) {
    out.expire_after_views = Number(views);
  } else {
    errors.views = [t('create.expiry.chooseViews')];
  }
  if (Object.keys(errors).length > 0) throw formRefusal(errors);
  return out;
}

interface PresetGroup {
  /** The radio buttons' name and the fieldset's id. */
  name: 'duration' | 'views';
  legend: string;
  /** A hint under the legend, if any. */
  hint?: string;
  options: readonly { value: string; label: string }[];
  chosen: string;
  custom: {
    name: 'expire_after_days' | 'expire_after_views';
    /** The custom field's label ("Number of days"). */
    label: string;
    bounds: { min: number; max: number };
    value: string | undefined;
  };
}

/** One group of presets with its "Custom" and the custom number field. */
function presetGroup(g: PresetGroup, errors: FieldErrors): Html {
  const { custom } = g;
  const isCustom = g.chosen === CUSTOM;
  return html`<fieldset
    id="${g.name}"
    class="presets"
    ${g.hint ? html` aria-describedby="${g.name}-hint"` : ''}
  >
    <legend>${g.legend}</legend>
    ${g.hint ? html`<p class="muted" id="${g.name}-hint">${g.hint}</p>` : ''} ${fieldError(errors, g.name)}
    <div class="preset-list">
      ${[...g.options, { value: CUSTOM, label: t('create.expiry.custom') }].map(
        (o) =>
          html`<span class="preset">
            <input
              type="radio"
              id="${g.name}-${o.value}"
              name="${g.name}"
              value="${o.value}"
              ${o.value === g.chosen ? html` checked` : ''}
            />
            <label for="${g.name}-${o.value}">${o.label}</label>
          </span>`,
      )}
    </div>
    <div class="preset-custom" data-custom-of="${g.name}">
      <label for="${custom.name}">${custom.label}</label>
      <p class="muted" id="${custom.name}-hint">
        ${t('create.expiry.customHint', { min: custom.bounds.min, max: custom.bounds.max })}
      </p>
      ${fieldError(errors, custom.name)}
      <input
        id="${custom.name}"
        name="${custom.name}"
        type="number"
        inputmode="numeric"
        min="${custom.bounds.min}"
        max="${custom.bounds.max}"
        value="${custom.value ?? ''}"
        ${isCustom ? html` required` : ''}
        ${described(errors, custom.name)}
      />
    </div>
  </fieldset>`;
}

/** The preset chosen: what was sent, else the default (or Custom when a value came without presets). */
function chosenOf(sent: string | undefined, custom: string | undefined, fallback: string): string {
  if (sent !== undefined) return sent;
  return custom !== undefined && custom !== '' ? CUSTOM : fallback;
}

/** The two groups of the forms: how long, how many views; `text` words them for the form. */
export function expiryFields(options: {
  presets: WebFormPresets;
  bounds: ExpiryBounds;
  values: ExpiryValues;
  errors: FieldErrors;
  text: { durationLegend: string; durationHint?: string; viewsLegend: string; viewsHint?: string };
  /** The views chosen when the form opens, when not the instance's default (the request form's answer: 1). */
  defaultViews?: number;
}): Html {
  const { presets, bounds, values, errors, text } = options;
  const defaultViews = options.defaultViews ?? presets.defaultViews;
  // A default that is not a preset: "Custom", with it filled in.
  const offered = presets.views.includes(defaultViews);
  const viewsValue =
    values.expire_after_views ?? (offered || values.views ? undefined : String(defaultViews));
  return html`<div class="row expiry">
    ${presetGroup(
      {
        name: 'duration',
        legend: text.durationLegend,
        ...(text.durationHint ? { hint: text.durationHint } : {}),
        options: presets.durations.map((d) => ({ value: d.name, label: durationLabel(d.name) })),
        chosen: chosenOf(values.duration, values.expire_after_days, presets.defaultDuration),
        custom: {
          name: 'expire_after_days',
          label: t('create.expiry.customDays'),
          bounds: bounds.days,
          value: values.expire_after_days,
        },
      },
      errors,
    )}
    ${presetGroup(
      {
        name: 'views',
        legend: text.viewsLegend,
        ...(text.viewsHint ? { hint: text.viewsHint } : {}),
        options: presets.views.map((n) => ({
          value: String(n),
          label: t('create.expiry.views', { count: n }),
        })),
        chosen: chosenOf(values.views, values.expire_after_views, offered ? String(defaultViews) : CUSTOM),
        custom: {
          name: 'expire_after_views',
          label: t('create.expiry.customViews'),
          bounds: bounds.views,
          value: viewsValue,
        },
      },
      errors,
    )}
  </div>`;
}
