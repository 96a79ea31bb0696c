import { type IntlShape, createIntl, createIntlCache } from '@formatjs/intl';
import { type MessageFormatElement, TYPE } from '@formatjs/icu-messageformat-parser';
import { PSEUDO_LOCALE, directionOf } from './locales';
import { accent } from './pseudo';

/** A value a message's argument takes: text, a number (plurals), a date; anything else for rich text. */
export type MessageValues = Record<string, string | number | Date | null | undefined>;

/** A message compiled once (formatjs's `IntlMessageFormat`, from its own memoized factory). */
type Compiled = ReturnType<IntlShape<string>['formatters']['getMessageFormat']>;

/**
 * One language's words and formats (formatjs `createIntl`: ICU messages, CLDR plural rules, `Intl`
 * dates and numbers). Immutable: a request picks one (i18n.ts, context.ts); nothing switches a
 * shared language, so concurrent requests in different languages cannot see each other's.
 */
export class Translator {
  readonly dir: 'ltr' | 'rtl';
  private readonly intl: IntlShape<string>;
  /**
   * Each message compiled on its first use, by key (at most one per catalogue key; keys not in the
   * catalogue are never stored). formatjs memoizes its formatters too, but by a key it serializes
   * (`JSON.stringify` of the message, its locale and formats) on every call: that cost more than
   * the formatting itself. A message of text only is its text, whatever the values.
   */
  private readonly compiled = new Map<string, Compiled | string>();
  /**
   * What compiled messages format plurals and numbers with: formatjs's memoized formatters, the
   * calls a message makes on every use (`#` of a plural: a number format of the locale alone; the
   * plural rules of a type) looked up by a plain key first — the same `Intl` objects, without
   * serializing the arguments to find them each time.
   */
  private readonly messageFormatters: IntlShape<string>['formatters'];

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
    const { formatters } = this.intl;
    const numberByLocale = new Map<unknown, Intl.NumberFormat>();
    const pluralByType = new Map<unknown, Intl.PluralRules>();
    this.messageFormatters = {
      ...formatters,
      getNumberFormat: (...args) => {
        if (args.length !== 1 || typeof args[0] !== 'string') return formatters.getNumberFormat(...args);
        let format = numberByLocale.get(args[0]);
        if (!format) numberByLocale.set(args[0], (format = formatters.getNumberFormat(...args)));
        return format;
      },
      getPluralRules: (...args) => {
        const [locales, options] = args;
        const key =
          typeof locales === 'string' && onlyType(options) ? `${locales}\u0000${options.type}` : undefined;
        if (args.length !== 2 || key === undefined) return formatters.getPluralRules(...args);
        let rules = pluralByType.get(key);
        if (!rules) pluralByType.set(key, (rules = formatters.getPluralRules(...args)));
        return rules;
      },
    };
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
    const out = this.format(id, values);
    return typeof out === 'string' ? out : String(out);
  }

  /**
   * `intl.formatMessage({ id }, values)`, with the message compiled once ({@link compiled}): the
   * same steps for a message in the catalogue, and anything else (a key missing, an empty message,
   * a formatting error) handed to formatjs itself, so that its fallbacks and `onError` stay its own.
   */
  private format(id: string, values: object | undefined): unknown {
    const compiled = this.compiled.get(id) ?? this.compile(id);
    if (compiled === undefined) return this.intl.formatMessage({ id }, values as never);
    if (typeof compiled === 'string') return compiled;
    try {
      return compiled.format({ ...values });
    } catch {
      return this.intl.formatMessage({ id }, values as never);
    }
  }

  /** The key's message compiled and remembered; `undefined` (nothing stored) if it has none or it does not compile. */
  private compile(id: string): Compiled | string | undefined {
    const message: unknown = Object.hasOwn(this.intl.messages, id) ? this.intl.messages[id] : undefined;
    if (!message) return undefined;
    let compiled: Compiled | string;
    if (Array.isArray(message) && message.length === 1 && isLiteral(message[0])) {
      compiled = (message[0] as { value: string }).value;
    } else {
      try {
        const mf = this.intl.formatters.getMessageFormat(
          message as string | MessageFormatElement[],
          this.intl.locale,
          this.intl.formats,
          { formatters: this.messageFormatters },
        );
        compiled = mf.getAst().every(isLiteral) ? (mf.format() as string) : mf;
      } catch {
        return undefined;
      }
    }
    this.compiled.set(id, compiled);
    return compiled;
  }

  /**
   * A message with tags (`Read <link>how it works</link>`) or non-text values: its parts in order,
   * strings (the catalogue's text, to be escaped) and whatever the tag functions and values gave.
   * `rich` of @secret-push/html turns them into escaped HTML.
   */
  parts(id: string, values: Record<string, unknown>): unknown[] {
    const out = this.format(id, values);
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

const isLiteral = (el: unknown): boolean => (el as MessageFormatElement).type === TYPE.literal;

/** `{ type: 'cardinal' | 'ordinal' }` and nothing else: what a plural of a message asks for. */
function onlyType(options: unknown): options is { type: string } {
  if (options === null || typeof options !== 'object') return false;
  const keys = Object.keys(options);
  const type = (options as { type?: unknown }).type;
  return keys.length === 1 && keys[0] === 'type' && (type === 'cardinal' || type === 'ordinal');
}
