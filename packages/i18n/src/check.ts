import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type MessageFormatElement, TYPE, parse } from '@formatjs/icu-messageformat-parser';
import { loadCatalogues } from './catalogue';
import { LANGUAGES, SOURCE_LANGUAGE } from './locales';

export interface CatalogueProblem {
  readonly locale: string;
  readonly key: string;
  readonly problem: string;
}

/** What a message needs from its caller and gives its translator: argument names and tag names. */
function shape(
  elements: MessageFormatElement[],
  into = { args: new Set<string>(), tags: new Set<string>() },
) {
  for (const el of elements) {
    if (el.type === TYPE.tag) {
      into.tags.add(el.value);
      shape(el.children, into);
    } else if (el.type === TYPE.plural || el.type === TYPE.select) {
      into.args.add(el.value);
      for (const o of Object.values(el.options)) shape(o.value, into);
    } else if (el.type !== TYPE.literal && el.type !== TYPE.pound) {
      into.args.add(el.value);
    }
  }
  return into;
}

/** The plural forms of `locale`'s cardinal plurals missing from a message's plural arguments. */
function missingPluralForms(locale: string, elements: MessageFormatElement[]): string[] {
  const out: string[] = [];
  for (const el of elements) {
    if (el.type === TYPE.plural) {
      const needed = new Intl.PluralRules(locale, { type: el.pluralType ?? 'cardinal' }).resolvedOptions()
        .pluralCategories;
      for (const c of needed) if (!Object.hasOwn(el.options, c)) out.push(`${el.value}: ${c}`);
    }
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      for (const o of Object.values(el.options)) out.push(...missingPluralForms(locale, o.value));
    }
    if (el.type === TYPE.tag) out.push(...missingPluralForms(locale, el.children));
  }
  return out;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'fixtures' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.ts$/.test(name) && !/\.(test|browser|fault|fuzz|e2e)\.ts$/.test(name)) yield path;
  }
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
const list = (s: Set<string>) => [...s].sort().join(', ') || 'none';

/**
 * The catalogue check of `pnpm lint`: every language has every English key and no other; each
 * message parses, names the same arguments and tags as the English one, and gives every plural
 * form its language needs (CLDR: Polish has one, few, many, other); every key is used in the
 * sources (a quoted literal: keys are never built from pieces, so this search finds them all) and
 * every key the sources ask for with `t('…')` or `rich('…')` exists.
 */
export function checkCatalogues(options: {
  catalogueDirs: readonly string[];
  sourceDirs: readonly string[];
  languages?: readonly string[];
}): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const add = (locale: string, key: string, problem: string) => problems.push({ locale, key, problem });
  let catalogues;
  try {
    catalogues = loadCatalogues(options.catalogueDirs);
  } catch (err) {
    return [{ locale: '*', key: '*', problem: (err as Error).message }];
  }
  const source = catalogues.get(SOURCE_LANGUAGE) ?? {};
  const parsed = (locale: string, key: string, text: string) => {
    try {
      return parse(text);
    } catch (err) {
      add(locale, key, `does not parse as an ICU message: ${(err as Error).message}`);
      return undefined;
    }
  };
  const english = new Map<string, ReturnType<typeof shape>>();
  for (const [key, text] of Object.entries(source)) {
    const ast = parsed(SOURCE_LANGUAGE, key, text);
    if (!ast) continue;
    english.set(key, shape(ast));
    for (const m of missingPluralForms(SOURCE_LANGUAGE, ast)) {
      add(SOURCE_LANGUAGE, key, `lacks the plural form ${m}`);
    }
  }
  for (const locale of options.languages ?? LANGUAGES) {
    if (locale === SOURCE_LANGUAGE) continue;
    const messages = catalogues.get(locale);
    if (!messages) {
      add(locale, '*', 'has no catalogue');
      continue;
    }
    for (const key of Object.keys(source)) {
      if (!Object.hasOwn(messages, key)) add(locale, key, 'is missing');
    }
    for (const [key, text] of Object.entries(messages)) {
      if (!Object.hasOwn(source, key)) {
        add(locale, key, 'is not an English key (a leftover or a typo)');
        continue;
      }
      const ast = parsed(locale, key, text);
      const en = english.get(key);
      if (!ast || !en) continue;
      const s = shape(ast);
      if (!sameSet(s.args, en.args)) {
        add(locale, key, `has the arguments {${list(s.args)}}, English {${list(en.args)}}`);
      }
      if (!sameSet(s.tags, en.tags)) {
        add(locale, key, `has the tags <${list(s.tags)}>, English <${list(en.tags)}>`);
      }
      for (const m of missingPluralForms(locale, ast)) add(locale, key, `lacks the plural form ${m}`);
    }
  }
  const used = new Set<string>();
  const asked: { key: string; file: string }[] = [];
  for (const dir of options.sourceDirs) {
    for (const file of sourceFiles(dir)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/['"`]([a-z][\w-]*(?:\.[\w-]+)+)['"`]/g)) used.add(m[1]!);
      for (const m of text.matchAll(/\b(?:t|rich|tr\.t|\.t)\(\s*['"`]([a-z][\w-]*(?:\.[\w-]+)+)['"`]/g)) {
        asked.push({ key: m[1]!, file });
      }
    }
  }
  for (const key of Object.keys(source)) {
    if (!used.has(key)) add(SOURCE_LANGUAGE, key, 'is not used by any source file');
  }
  for (const { key, file } of asked) {
    if (!Object.hasOwn(source, key)) add(SOURCE_LANGUAGE, key, `is used in ${file} but is in no catalogue`);
  }
  return problems;
}
