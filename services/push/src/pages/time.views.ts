import { type Html, html } from '@secret-push/html';
import { translator } from '@secret-push/i18n';

/** Where the pages' times script is served (it shows each `<time data-at>` in the viewer's zone). */
export const TIMES_SCRIPT = '/static/times.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A distance's unit: the largest whose threshold it reaches (days up to 60, as "in 30 days" reads). */
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number, number][] = [
  ['year', 365 * DAY, 365 * DAY],
  ['month', 60 * DAY, 30 * DAY],
  ['day', DAY, DAY],
  ['hour', HOUR, HOUR],
  ['minute', MINUTE, MINUTE],
];

/**
 * "in 7 days", "3 hours ago", "now" ("in 7 Tagen", "vor 3 Stunden", "jetzt"): the distance from
 * `now` in its unit, rounded, in the page's language (`Intl.RelativeTimeFormat`).
 */
export function relativeTime(date: Date, now: Date): string {
  const tr = translator();
  const ms = date.getTime() - now.getTime();
  for (const [unit, from, size] of UNITS) {
    if (Math.abs(ms) >= from) return tr.relative(Math.round(ms / size), unit, { numeric: 'always' });
  }
  return Math.abs(ms) < 30_000
    ? tr.relative(0, 'second', { numeric: 'auto' })
    : tr.relative(Math.sign(ms), 'minute', { numeric: 'always' });
}

/**
 * The exact time as the server writes it, in the page's language: minutes, UTC ("Dec 4, 2026,
 * 09:00 UTC", "04.12.2026, 09:00 UTC").
 */
export const exactUtc = (d: Date): string =>
  translator().date(d, {
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
    timeZone: 'UTC',
  }) + ' UTC';

/**
 * A time as people see it: relative ("in 7 days") then the exact time in a `<time>`, in UTC from
 * the server; where JavaScript runs, /static/times.js rewrites the exact time in the viewer's zone
 * (in the page's language). A page that uses it loads TIMES_SCRIPT (layout's `scripts`).
 */
export function timeAt(date: Date, now: Date): Html {
  return html`<span class="when"
    >${relativeTime(date, now)}
    <span class="muted"
      >(<time datetime="${date.toISOString()}" data-at="${date.toISOString()}" title="${exactUtc(date)}"
        >${exactUtc(date)}</time
      >)</span
    ></span
  >`;
}
