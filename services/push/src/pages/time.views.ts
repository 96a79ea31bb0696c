import { type Html, html } from '@secret-push/html';

/** Where the pages' times script is served (it shows each `<time data-at>` in the viewer's zone). */
export const TIMES_SCRIPT = '/static/times.js';

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** Largest unit first; a unit is used once the distance is at least one of it. */
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "in 7 days", "3 hours ago", "now": the distance from `now` in its largest whole unit (rounded). */
export function relativeTime(date: Date, now: Date): string {
  const ms = date.getTime() - now.getTime();
  for (const [unit, size] of UNITS) {
    if (Math.abs(ms) >= size) return relative.format(Math.round(ms / size), unit);
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
