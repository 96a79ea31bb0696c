import { ConfigError, defineConfig, i18nSection } from './index';

const config = defineConfig([i18nSection]);
const problems = (env: Record<string, string>): string => {
  try {
    config.load(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return '';
};

describe('languages (I18N_*)', () => {
  it('offers every language with a catalogue, English by default, no pseudo-locale', () => {
    expect(config.load({}).i18n).toEqual({
      languages: ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt-BR', 'pl'],
      defaultLanguage: 'en',
      pseudo: false,
    });
  });

  it("takes the operator's list and default", () => {
    expect(
      config.load({ I18N_LANGUAGES: ' de, fr ', I18N_DEFAULT_LANGUAGE: 'fr', I18N_PSEUDO_LOCALE: 'true' })
        .i18n,
    ).toEqual({ languages: ['de', 'fr'], defaultLanguage: 'fr', pseudo: true });
  });

  it('refuses a language without a catalogue, an empty list, and a default that is not offered', () => {
    expect(problems({ I18N_LANGUAGES: 'en,xx' })).toMatch(
      /I18N_LANGUAGES: must be languages with a catalogue/,
    );
    expect(problems({ I18N_LANGUAGES: 'pt-br' })).toMatch(/I18N_LANGUAGES/);
    expect(problems({ I18N_LANGUAGES: ' , ' })).toMatch(/I18N_LANGUAGES: must name at least one language/);
    expect(problems({ I18N_DEFAULT_LANGUAGE: 'jp' })).toMatch(/I18N_DEFAULT_LANGUAGE: must be one of/);
    expect(problems({ I18N_LANGUAGES: 'de,fr' })).toMatch(
      /I18N_DEFAULT_LANGUAGE: must be one of I18N_LANGUAGES/,
    );
  });
});
