import { withTranslator } from '@secret-push/i18n';
import { pushI18n } from '../languages';
import { exactUtc, relativeTime, timeAt } from './time.views';

const i18n = pushI18n();
const inLanguage = <T>(tag: string, fn: () => T): T => withTranslator(i18n.translator(tag), fn);

const now = new Date('2026-11-27T09:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);
const H = 3_600_000;
const D = 24 * H;

describe('relativeTime', () => {
  it.each([
    [0, 'now'],
    [10_000, 'now'],
    [45_000, 'in 1 minute'],
    [-5 * 60_000, '5 minutes ago'],
    [H, 'in 1 hour'],
    [-3 * H, '3 hours ago'],
    [23.9 * H, 'in 24 hours'],
    [D, 'in 1 day'],
    [7 * D, 'in 7 days'],
    [-30 * D, '30 days ago'],
    [90 * D, 'in 3 months'],
    [-400 * D, '1 year ago'],
  ])('%d ms → %s', (ms, text) => {
    expect(relativeTime(at(ms), now)).toBe(text);
  });
});

describe('timeAt', () => {
  it('writes the relative text and the exact UTC time in a <time> the script can convert', () => {
    const when = at(7 * D);
    const out = timeAt(when, now).value;
    expect(out).toContain('in 7 days');
    expect(out).toContain(`<time datetime="${when.toISOString()}" data-at="${when.toISOString()}"`);
    expect(out).toContain(`>${exactUtc(when)}</time`);
    expect(exactUtc(when)).toBe('Dec 4, 2026, 09:00 UTC');
  });
});

describe('in the page’s language', () => {
  it('writes relative and exact times with Intl in that language', () => {
    expect(inLanguage('de', () => relativeTime(at(7 * D), now))).toBe('in 7 Tagen');
    expect(inLanguage('de', () => relativeTime(at(-3 * H), now))).toBe('vor 3 Stunden');
    expect(inLanguage('de', () => relativeTime(at(0), now))).toBe('jetzt');
    expect(inLanguage('de', () => exactUtc(at(7 * D)))).toBe('04.12.2026, 09:00 UTC');
    expect(inLanguage('fr', () => relativeTime(at(-30 * D), now))).toBe('il y a 30 jours');
    expect(inLanguage('pl', () => relativeTime(at(2 * D), now))).toBe('za 2 dni');
  });
});
