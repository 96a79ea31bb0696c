import { z } from 'zod';
import { envCsv, envSection } from '@secret-push/config';
import { limitsSection } from './pushes';

/*
 * The web app's create and request forms: the expiry presets people choose from and the ones
 * chosen when the form opens. Separate from the API's defaults (PUSH_EXPIRE_AFTER_*_DEFAULT),
 * which existing clients rely on; the forms' custom fields keep the API's bounds.
 */

const MIN = 60;
const HOUR = 3600;
const DAY = 86_400;

/** The durations a preset may name: those of the API's `expire_after_duration`. */
export const DURATION_PRESETS: Readonly<Record<string, number>> = {
  '15m': 15 * MIN, '30m': 30 * MIN, '45m': 45 * MIN, '1h': HOUR, '6h': 6 * HOUR, '12h': 12 * HOUR,
  '1d': DAY, '2d': 2 * DAY, '3d': 3 * DAY, '4d': 4 * DAY, '5d': 5 * DAY, '6d': 6 * DAY,
  '1w': 7 * DAY, '2w': 14 * DAY, '3w': 21 * DAY, '30d': 30 * DAY, '60d': 60 * DAY, '90d': 90 * DAY,
}; // prettier-ignore

const NAMES = Object.keys(DURATION_PRESETS).join(', ');

/** A preset of the form's duration: its name (`1h`) and length. */
export interface DurationPreset {
  name: string;
  seconds: number;
}

/** The forms' presets and defaults (the `webForm` part of the config). */
export interface WebFormPresets {
  durations: readonly DurationPreset[];
  defaultDuration: string;
  views: readonly number[];
  defaultViews: number;
}

/** A list of up to 8 presets; the entries `valid` refuses are named in one message. */
function presetList<T>(
  what: string,
  valid: (entry: string) => boolean,
  refusal: string,
  parse: (entry: string) => T,
) {
  return envCsv()
    .pipe(
      z
        .array(z.string())
        .min(1, `must name at least one ${what}`)
        .max(8, 'at most 8 presets')
        .superRefine((list, ctx) => {
          const bad = list.filter((entry) => !valid(entry));
          if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `${bad.join(', ')}: ${refusal}` });
        }),
    )
    .transform((list) => list.map(parse));
}

const durationList = presetList(
  'duration',
  (entry) => Object.hasOwn(DURATION_PRESETS, entry),
  `each must be one of ${NAMES}`,
  (entry) => entry,
);
const viewList = presetList(
  'number of views',
  (entry) => /^\d{1,5}$/.test(entry),
  'each must be a whole number',
  Number,
);

const unique = <T>(list: readonly T[]) => [...new Set(list)];

/** The web forms' presets: `webForm`. */
export const webFormSection = envSection(
  'Web forms (presets)',
  {
    PUSH_EXPIRE_AFTER_DAYS_MAX: limitsSection.vars.PUSH_EXPIRE_AFTER_DAYS_MAX,
    PUSH_EXPIRE_AFTER_VIEWS_MIN: limitsSection.vars.PUSH_EXPIRE_AFTER_VIEWS_MIN,
    PUSH_EXPIRE_AFTER_VIEWS_MAX: limitsSection.vars.PUSH_EXPIRE_AFTER_VIEWS_MAX,
    PUSH_WEB_DURATION_PRESETS: durationList
      .default(['1h', '1d', '3d', '1w'])
      .describe(
        `The durations the web forms offer, besides "Custom" (a number of days), comma-separated: any of ${NAMES} ` +
          '(m minutes, h hours, d days, w weeks). None may exceed PUSH_EXPIRE_AFTER_DAYS_MAX',
      )
      .meta({ defaultText: '`1h,1d,3d,1w`' }),
    PUSH_WEB_DEFAULT_DURATION: z
      .string()
      .default('3d')
      .describe('The duration chosen when a web form opens: one of PUSH_WEB_DURATION_PRESETS (e.g. `1d`)'),
    PUSH_WEB_VIEW_PRESETS: viewList
      .default([1, 2, 5])
      .describe(
        'The numbers of views the web forms offer, besides "Custom", comma-separated; each within ' +
          'PUSH_EXPIRE_AFTER_VIEWS_MIN and PUSH_EXPIRE_AFTER_VIEWS_MAX',
      )
      .meta({ defaultText: '`1,2,5`' }),
    PUSH_WEB_DEFAULT_VIEWS: z
      .string()
      .regex(/^\d{1,5}$/, 'must be a whole number')
      .transform(Number)
      .default(2)
      .describe('The number of views chosen when a web form opens: one of PUSH_WEB_VIEW_PRESETS (e.g. `1`)'),
  },
  (v) => ({
    webForm: {
      durations: unique(v.PUSH_WEB_DURATION_PRESETS)
        .map((name) => ({ name, seconds: DURATION_PRESETS[name]! }))
        .sort((a, b) => a.seconds - b.seconds),
      defaultDuration: v.PUSH_WEB_DEFAULT_DURATION,
      views: unique(v.PUSH_WEB_VIEW_PRESETS).sort((a, b) => a - b),
      defaultViews: v.PUSH_WEB_DEFAULT_VIEWS,
    } satisfies WebFormPresets,
  }),
  {
    check: (v) => [
      ...v.PUSH_WEB_DURATION_PRESETS.filter(
        (n) => DURATION_PRESETS[n]! > v.PUSH_EXPIRE_AFTER_DAYS_MAX * DAY,
      ).map((n) => `PUSH_WEB_DURATION_PRESETS: ${n} is longer than PUSH_EXPIRE_AFTER_DAYS_MAX`),
      ...(v.PUSH_WEB_DURATION_PRESETS.includes(v.PUSH_WEB_DEFAULT_DURATION)
        ? []
        : ['PUSH_WEB_DEFAULT_DURATION: must be one of PUSH_WEB_DURATION_PRESETS']),
      ...v.PUSH_WEB_VIEW_PRESETS.filter(
        (n) => n < v.PUSH_EXPIRE_AFTER_VIEWS_MIN || n > v.PUSH_EXPIRE_AFTER_VIEWS_MAX,
      ).map(
        (n) =>
          `PUSH_WEB_VIEW_PRESETS: ${n} is outside PUSH_EXPIRE_AFTER_VIEWS_MIN and PUSH_EXPIRE_AFTER_VIEWS_MAX`,
      ),
      ...(v.PUSH_WEB_VIEW_PRESETS.includes(v.PUSH_WEB_DEFAULT_VIEWS)
        ? []
        : ['PUSH_WEB_DEFAULT_VIEWS: must be one of PUSH_WEB_VIEW_PRESETS']),
    ],
  },
);

/** The presets when none are configured (tests that build the app without the config). */
export const DEFAULT_WEB_FORM: WebFormPresets = {
  durations: ['1h', '1d', '3d', '1w'].map((name) => ({ name, seconds: DURATION_PRESETS[name]! })),
  defaultDuration: '3d',
  views: [1, 2, 5],
  defaultViews: 2,
};
