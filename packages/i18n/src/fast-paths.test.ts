import { join } from 'node:path';
import fc from 'fast-check';
import { createIntl, createIntlCache } from '@formatjs/intl';
import { match } from '@formatjs/intl-localematcher';
import Negotiator from 'negotiator';
import { parse as parseCookies } from 'cookie';
import { FRAME_CATALOGUES, LANGUAGES, PSEUDO_LOCALE } from './locales';
import { I18n, LANGUAGE_COOKIE } from './i18n';
import { loadCatalogues } from './catalogue';
import { pseudoMessage } from './pseudo';
import { Translator } from './translator';

/*
 * The per-request shortcuts (a cache of negotiations, messages compiled once) must answer exactly
 * what the plain computation does: each is compared here with the code they replaced, written out
 * again (a new offered list per call, formatjs's own formatMessage), over many inputs.
 */

const FIXTURES = join(__dirname, 'fixtures', 'locales');
const DIRS = [FRAME_CATALOGUES, FIXTURES];

/** Negotiation as it was: cookie, else negotiator + best fit with a fresh offered list, else the default. */
function slowNegotiate(
  offered: readonly string[],
  defaultLanguage: string,
  headers: { cookie?: string; acceptLanguage?: string },
): string {
  const chosen = headers.cookie ? parseCookies(headers.cookie)[LANGUAGE_COOKIE] : undefined;
  if (chosen && offered.includes(chosen)) return chosen;
  if (!headers.acceptLanguage) return defaultLanguage;
  const ranked = new Negotiator({ headers: { 'accept-language': headers.acceptLanguage.slice(0, 1000) } });
  const wanted = ranked
    .languages()
    .slice(0, 20)
    .filter((l) => l !== '*' && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(l));
  if (wanted.length === 0) return defaultLanguage;
  try {
    return match(wanted, [...offered], defaultLanguage, { algorithm: 'best fit' });
  } catch {
    return defaultLanguage;
  }
}

const SUBTAGS = [
  'de',
  'DE',
  'de-AT',
  'de-CH',
  'gsw',
  'lb',
  'en',
  'en-US',
  'en-GB',
  'en-XA',
  'EN-xa',
  'fr',
  'fr-CA',
  'pt',
  'pt-BR',
  'pt-br',
  'pt-PT',
  'es',
  'es-419',
  'es-MX',
  'it',
  'nl',
  'nl-BE',
  'af',
  'pl',
  'pl-PL',
  'nb',
  'no',
  'da',
  'sv',
  'zh-Hant-TW',
  'zh',
  'sr-Latn',
  'ja',
  'x',
  'a-b',
  'i-klingon',
  'x-private',
  'en-u-ca-gregory',
  'und',
  'root',
  'abcdefghi',
  'de-1996',
  'ca-ES-valencia',
  '*',
  '',
];
const tagArb = fc.oneof(
  fc.constantFrom(...SUBTAGS),
  fc.stringMatching(/^[A-Za-z]{1,9}(-[A-Za-z0-9]{1,9}){0,3}$/),
  fc.string({ maxLength: 12 }),
);
const qArb = fc.oneof(
  fc.constant(''),
  fc.constantFrom(';q=0', ';q=1', ';q=0.5', ';q=0.001', ';q=1.0', ';q=2', ';q=-1', ';q=abc', ';q='),
  fc.float({ min: 0, max: 1, noNaN: true }).map((q) => `;q=${q.toFixed(3)}`),
);
const headerArb = fc.oneof(
  fc
    .array(fc.tuple(tagArb, qArb), { maxLength: 25 })
    .map((parts) =>
      parts.map(([t, q]) => `${t}${q}`).join(fc.sample(fc.constantFrom(',', ', ', ' ,'), 1)[0]),
    ),
  fc.string({ maxLength: 300 }),
  fc.string({ minLength: 250, maxLength: 1500 }),
);
const cookieArb = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(...LANGUAGES, PSEUDO_LOCALE, 'xx', 'pt-br', '').map((l) => `${LANGUAGE_COOKIE}=${l}`),
  fc
    .tuple(fc.string({ maxLength: 40 }), fc.constantFrom('de', 'pl', 'zz'))
    .map(([junk, l]) => `sid=${junk}; ${LANGUAGE_COOKIE}=${l}; theme=dark`),
  fc.string({ maxLength: 60 }),
);

describe('negotiation through the cache', () => {
  const setups = [
    { languages: [...LANGUAGES], defaultLanguage: 'en', pseudo: true },
    { languages: ['de', 'fr', 'pt-BR'], defaultLanguage: 'de', pseudo: false },
    { languages: ['pl'], defaultLanguage: 'nl', pseudo: false },
  ];

  it.each(setups)('answers as the plain negotiation does ($languages, default $defaultLanguage)', (setup) => {
    const i18n = new I18n({ dirs: [FRAME_CATALOGUES], ...setup });
    const offered = i18n.offered.map((o) => o.tag);
    fc.assert(
      fc.property(fc.array(fc.tuple(headerArb, cookieArb), { minLength: 1, maxLength: 6 }), (requests) => {
        // Each header twice: the first answer is worked out, the second comes from the cache.
        for (const [acceptLanguage, cookie] of [...requests, ...requests]) {
          const headers = { acceptLanguage, ...(cookie === undefined ? {} : { cookie }) };
          expect(i18n.negotiateHeaders(headers)).toBe(slowNegotiate(offered, setup.defaultLanguage, headers));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stays within its bounds under ever-new hostile headers', () => {
    const i18n = new I18n({ dirs: [FRAME_CATALOGUES], languages: ['en', 'de'], defaultLanguage: 'en' });
    for (let i = 0; i < 5000; i++) {
      i18n.negotiateHeaders({ acceptLanguage: `de-${i},${'x'.repeat(i % 300)}` });
    }
    const cache = (i18n as unknown as { negotiated: { size: number; calculatedSize: number } }).negotiated;
    expect(cache.size).toBeLessThanOrEqual(1000);
    expect(cache.calculatedSize).toBeLessThanOrEqual(64 * 1024);
    expect(i18n.negotiateHeaders({ acceptLanguage: 'de-DE,de;q=0.9,en;q=0.8' })).toBe('de');
  });
});

describe('messages compiled once', () => {
  const languages = ['en', 'de', 'pl'] as const;
  const i18n = new I18n({ dirs: DIRS, languages: [...languages], defaultLanguage: 'en', pseudo: true });
  const catalogues = loadCatalogues(DIRS);
  const source = catalogues.get('en')!;
  /** formatjs's own formatMessage over the same messages, as Translator used it. */
  const plain = (tag: string) => {
    const messages =
      tag === PSEUDO_LOCALE
        ? Object.fromEntries(Object.entries(source).map(([k, v]) => [k, pseudoMessage(v)]))
        : { ...source, ...catalogues.get(tag) };
    return createIntl(
      {
        locale: tag === PSEUDO_LOCALE ? 'en' : tag,
        defaultLocale: 'en',
        messages,
        onError: () => {},
        onWarn: () => {},
      },
      createIntlCache(),
    );
  };
  const keys = Object.keys(source);
  const valueArb = fc.oneof(
    fc.string({ maxLength: 10 }),
    fc.integer({ min: -5, max: 1_000_000 }),
    fc.constantFrom(0, 1, 2, 5, 11, 21, 22, 1.5, -1, NaN, Infinity),
    fc.constant(undefined),
  );
  const valuesArb = fc.option(
    fc.dictionary(fc.constantFrom('count', 'name', 'what', 'n', 'when', 'kind', 'x'), valueArb, {
      maxKeys: 4,
    }),
    { nil: undefined },
  );

  it.each([...languages, PSEUDO_LOCALE])('gives what formatMessage gives, byte for byte (%s)', (tag) => {
    const reference = plain(tag);
    const fast = i18n.translator(tag);
    fc.assert(
      fc.property(fc.constantFrom(...keys, 'demo.absent', 'nope'), valuesArb, (id, values) => {
        const expected = reference.formatMessage({ id }, values as never);
        expect(fast.t(id, values)).toBe(typeof expected === 'string' ? expected : String(expected));
        // Twice: the second from the compiled message.
        expect(fast.t(id, values)).toBe(typeof expected === 'string' ? expected : String(expected));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same parts for rich messages, tags and all', () => {
    for (const tag of [...languages, PSEUDO_LOCALE]) {
      const reference = plain(tag);
      for (const id of keys) {
        const values = {
          strong: (c: unknown[]) => `[${c.join('')}]`,
          link: (c: unknown[]) => ({ c }),
          count: 3,
          name: 'N',
          what: 'W',
        };
        const expected = reference.formatMessage({ id }, values as never) as unknown;
        expect(i18n.translator(tag).parts(id, values)).toEqual(
          Array.isArray(expected) ? expected : [expected],
        );
      }
    }
  });

  it('handles the ICU corners the same way (escapes, select, numbers, dates, errors)', () => {
    const messages: Record<string, string> = {
      apostrophe: "It''s '{'literal'}' text",
      pound: 'No # here, {n, number} ok',
      select: '{kind, select, push {a push} request {a request} other {something}}',
      selectNoOther: '{kind, select, push {a push}}',
      nested: '{count, plural, =0 {none} one {{kind, select, a {one A} other {one #}}} other {# of {name}}}',
      ordinal: '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}',
      offset: '{count, plural, offset:1 =0 {nobody} =1 {{name}} other {{name} and # others}}',
      percent: '{n, number, percent} / {n, number, ::compact-short}',
      date: '{when, date, medium} {when, time, short}',
      empty: '',
      broken: 'Unclosed {name',
      tagged: 'A <b>bold {name}</b> move',
    };
    for (const locale of ['en', 'de', 'pl', 'fr']) {
      const reference = createIntl(
        { locale, defaultLocale: 'en', messages, onError: () => {}, onWarn: () => {} },
        createIntlCache(),
      );
      const fast = new Translator(locale, messages);
      fc.assert(
        fc.property(
          fc.constantFrom(...Object.keys(messages)),
          fc.record(
            {
              n: fc.oneof(
                fc.integer({ min: -3, max: 123_456 }),
                fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
              ),
              count: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(1.5)),
              kind: fc.constantFrom('push', 'request', 'a', 'other', 'x'),
              name: fc.string({ maxLength: 8 }),
              when: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }),
              b: fc.constant((c: unknown[]) => `*${c.join('')}*`),
            },
            { requiredKeys: [] },
          ),
          (id, values) => {
            const expected = reference.formatMessage({ id }, values as never);
            const text = typeof expected === 'string' ? expected : String(expected);
            expect(fast.t(id, values as never)).toBe(text);
            expect(fast.t(id, values as never)).toBe(text);
          },
        ),
        { numRuns: 400 },
      );
    }
  });
});
