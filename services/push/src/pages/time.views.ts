import { type Html, html } from '@secret-push/html';

/** Where the pages' times script is served (it shows each `<time data-at>` in the viewer's zone). */
export const TIMES_SCRIPT = '/static/times.js';

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

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

/** "in 7 days", "3 hours ago", "now": the distance from `now` in its unit, rounded. */
export function relativeTime(date: Date, now: Date): string {
  const ms = date.getTime() - now.getTime();
  for (const [unit, from, size] of UNITS) {
    if (Math.abs(ms) >= from) return relative.format(Math.round(ms / size), unit);
  }
  return Math.abs(ms) < 30_000 ? 'now' : relative.format(Math.sign(ms), 'minute');
}

/** The exact time as the server writes it: minutes, UTC ("2026-11-27 09:15 UTC"). */
export const exactUtc = (d: Date): string => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * A time as people see it: relative ("in 7 days") then the exact time in a `<time>`, in UTC from
 * the server; where JavaScript runs, /static/times.js rewrites the exact time in the viewer's zone.
 * A page that uses it loads TIMES_SCRIPT (layout's `scripts`).
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
