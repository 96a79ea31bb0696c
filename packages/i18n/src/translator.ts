import { type IntlShape, createIntl, createIntlCache } from '@formatjs/intl';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { PSEUDO_LOCALE, directionOf } from './locales';
import { accent } from './pseudo';

/** A value a message's argument takes: text, a number (plurals), a date; anything else for rich text. */
export type MessageValues = Record<string, string | number | Date | null | undefined>;

/**
 * One language's words and formats (formatjs `createIntl`: ICU messages, CLDR plural rules, `Intl`
 * dates and numbers). Immutable: a request picks one (i18n.ts, context.ts); nothing switches a
 * shared language, so concurrent requests in different languages cannot see each other's.
 */
export class Translator {
  readonly dir: 'ltr' | 'rtl';
  private readonly intl: IntlShape<string>;

  constructor(
    /** The BCP 47 tag of the `lang` attribute and `Content-Language` (`de`, `pt-BR`, `en-XA`). */
    readonly locale: string,
    messages: Record<string, string> | Record<string, MessageFormatElement[]>,
    /** Problems met while formatting (a key missing everywhere, a missing argument), for tests. */
    private readonly onProblem: (problem: string) => void = () => {},
  ) {
    this.dir = directionOf(locale);
    this.intl = createIntl(
      {
        locale: locale === 'en-XA' ? 'en' : locale,
        defaultLocale: 'en',
        messages,
        onError: (err) => this.onProblem(`${locale}: ${err.message}`),
        onWarn: () => {},
      },
      createIntlCache(),
    );
  }

  /** Intl's output in the pseudo-locale is accented too, so that only hand-made text stays plain. */
  private pseudo(text: string): string {
    return this.locale === PSEUDO_LOCALE ? accent(text) : text;
  }

  /** Whether the catalogue has the key (in this language, or in English as the fallback). */
  has(id: string): boolean {
    return Object.hasOwn(this.intl.messages, id);
  }

  /** A message as plain text (the `html` tag escapes it where it goes into a page). */
  t(id: string, values?: MessageValues): string {
    const out = this.intl.formatMessage({ id }, values as Record<string, string | number | Date>);
    return typeof out === 'string' ? out : String(out);
  }

  /**
   * A message with tags (`Read <link>how it works</link>`) or non-text values: its parts in order,
   * strings (the catalogue's text, to be escaped) and whatever the tag functions and values gave.
   * `rich` of @secret-push/html turns them into escaped HTML.
   */
  parts(id: string, values: Record<string, unknown>): unknown[] {
    const out = this.intl.formatMessage({ id }, values as never) as unknown;
    return Array.isArray(out) ? (out as unknown[]) : [out];
  }

  /** A date and/or time in this language (`Intl.DateTimeFormat`). */
  date(value: Date | number, options?: Intl.DateTimeFormatOptions): string {
    return this.pseudo(this.intl.formatDate(value, options));
  }

  /** A number in this language (`Intl.NumberFormat`). */
  number(value: number, options?: Parameters<IntlShape['formatNumber']>[1]): string {
    return this.pseudo(this.intl.formatNumber(value, options));
  }

  /** "in 3 days", "vor 2 Stunden" (`Intl.RelativeTimeFormat`). */
  relative(
    value: number,
    unit: Intl.RelativeTimeFormatUnit,
    options?: Intl.RelativeTimeFormatOptions,
  ): string {
    return this.pseudo(this.intl.formatRelativeTime(value, unit, options));
  }

  /** "a, b and c" (`Intl.ListFormat`). */
  list(items: readonly string[], type: 'conjunction' | 'disjunction' = 'conjunction'): string {
    return this.pseudo(this.intl.formatList<string>(items, { type }) as string);
  }
}
