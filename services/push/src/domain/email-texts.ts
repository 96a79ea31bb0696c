import type { Translator } from '@secret-push/i18n';

/*
 * The words of the push service's emails come from the catalogue (`locales/<language>/email.json`,
 * keys `email.…`), in the email's language: email-compose.ts and request-email-compose.ts take the
 * translator of that language (the worker's I18n: `pushI18n(config.i18n)`) and put the same plain
 * sentences in the text part and, escaped, in the HTML part. What only a value can say (a duration,
 * a date, a name in quotes) is formatted here, in the translator's language.
 */

export type DurationUnit = 'day' | 'hour' | 'minute';

/** "7 days", "3 Stunden", "5 minut" (ICU plurals of the email's language). */
export function duration(tr: Translator, count: number, unit: DurationUnit): string {
  if (unit === 'day') return tr.t('email.duration.days', { count });
  if (unit === 'hour') return tr.t('email.duration.hours', { count });
  return tr.t('email.duration.minutes', { count });
}

/** A creation time for an email (which is read anywhere): the date and time in UTC, said so (`Intl`). */
export function createdAtText(tr: Translator, at: Date): string {
  return tr.date(at, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
    timeZoneName: 'short',
  });
}

/** A name given by a person, in the language's quotation marks ("“x”", "„x“", "« x »"). */
export const quoted = (tr: Translator, name: string): string => tr.t('email.named', { name });
