import { join } from 'node:path';
import { I18n } from './i18n';
import { t, translator, withTranslator } from './context';
import { PSEUDO_LETTERS } from './pseudo';
import { checkCatalogues } from './check';

const FIXTURES = join(__dirname, 'fixtures', 'locales');
const i18n = new I18n({
  dirs: [FIXTURES],
  languages: ['en', 'de', 'pl'],
  defaultLanguage: 'en',
  pseudo: true,
});

describe('translators', () => {
  it('formats ICU messages with CLDR plurals, Polish included', () => {
    const pl = i18n.translator('pl');
    expect([1, 2, 5, 22, 1.5].map((count) => pl.t('demo.files', { count }))).toEqual([
      '1 plik',
      '2 pliki',
      '5 plików',
      '22 pliki',
      '1,5 pliku',
    ]);
    expect(i18n.translator('de').t('demo.files', { count: 1 })).toBe('1 Datei');
    expect(i18n.translator('de').t('demo.nested.deep')).toBe('Tief');
  });

  it('formats dates and numbers through Intl in the language', () => {
    const de = i18n.translator('de');
    expect(de.number(1234.5)).toBe('1.234,5');
    expect(de.date(new Date(Date.UTC(2026, 10, 27)), { dateStyle: 'long', timeZone: 'UTC' })).toBe(
      '27. November 2026',
    );
    expect(de.relative(3, 'day')).toBe('in 3 Tagen');
  });

  it('makes the pseudo-locale from English: accented, longer, framed, arguments and plurals kept', () => {
    const pseudo = i18n.translator('en-XA');
    const out = pseudo.t('demo.files', { count: 2 });
    expect(out.startsWith('⟦') && out.endsWith('⟧')).toBe(true);
    expect(out).toContain('2');
    expect(out).toMatch(PSEUDO_LETTERS);
    expect(out).not.toMatch(/[a-z]{2}/);
    expect(pseudo.t('demo.hello', { name: 'Ann' }).length).toBeGreaterThan('Hello Ann'.length + 2);
  });

  it('falls back to the default language for a language not offered', () => {
    expect(i18n.translator('fr').locale).toBe('en');
    expect(i18n.offers('fr')).toBe(false);
  });
});

describe('negotiation', () => {
  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', undefined, 'de'],
    ['fr-FR, pl;q=0.5', undefined, 'pl'],
    ['ja', undefined, 'en'],
    ['*', undefined, 'en'],
    ['', undefined, 'en'],
    ['de', 'sp_lang=pl', 'pl'],
    ['de', 'sp_lang=xx', 'de'],
    ['en;q=0.1, de;q=0.9', undefined, 'de'],
  ])('Accept-Language %j, cookie %j → %s', (acceptLanguage, cookie, expected) => {
    expect(i18n.negotiateHeaders({ acceptLanguage, cookie })).toBe(expected);
  });
});

describe('the request context', () => {
  it('keeps each concurrent request in its own language (no shared switch)', async () => {
    const seen = await Promise.all(
      ['de', 'pl', 'en', 'de', 'pl'].map((lang, i) =>
        i18n.run(lang, '/', async () => {
          await new Promise((r) => setTimeout(r, 20 - i * 3));
          return `${lang}:${translator().locale}:${t('demo.hello', { name: 'x' })}`;
        }),
      ),
    );
    expect(seen).toEqual([
      'de:de:Hallo x',
      'pl:pl:Cześć x',
      'en:en:Hello x',
      'de:de:Hallo x',
      'pl:pl:Cześć x',
    ]);
  });

  it('uses the default language outside a request', () => {
    expect(t('demo.hello', { name: 'x' })).toBe('Hello x');
    expect(withTranslator(i18n.translator('de'), () => t('demo.hello', { name: 'y' }))).toBe('Hallo y');
  });
});

describe('the catalogue check', () => {
  it('is clean on consistent catalogues', () => {
    expect(
      checkCatalogues({
        catalogueDirs: [FIXTURES],
        sourceDirs: [join(__dirname, 'fixtures', 'clean-src')],
        languages: ['en', 'de', 'pl'],
      }),
    ).toEqual([]);
  });

  it('reports a missing language, missing plural forms, other placeholders and unused keys', () => {
    const problems = checkCatalogues({
      catalogueDirs: [join(__dirname, 'fixtures', 'broken')],
      sourceDirs: [join(__dirname, 'fixtures', 'broken-src')],
      languages: ['en', 'de', 'pl', 'fr'],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        { locale: 'fr', key: '*', problem: 'has no catalogue' },
        { locale: 'de', key: 'demo.gone', problem: 'is missing' },
        { locale: 'de', key: 'demo.hello', problem: 'has the arguments {who}, English {name}' },
        { locale: 'pl', key: 'demo.files', problem: 'lacks the plural form count: few' },
        { locale: 'pl', key: 'demo.files', problem: 'lacks the plural form count: many' },
        { locale: 'en', key: 'demo.unused', problem: 'is not used by any source file' },
        expect.objectContaining({ locale: 'en', key: 'demo.nowhere' }),
      ]),
    );
  });
});
