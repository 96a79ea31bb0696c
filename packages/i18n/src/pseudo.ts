import { type MessageFormatElement, TYPE, parse } from '@formatjs/icu-messageformat-parser';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
    c,
    [...'áƀçðéƒĝĥíĵķļɱñóþǫŕšťúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĻṀÑÓÞǪŔŠŤÚṼŴẊÝŽ'][i]!,
  ]),
);

/** Every ASCII letter accented (`Share` → `Šĥáŕé`): text without them did not come from a catalogue. */
export const accent = (text: string): string => text.replace(/[A-Za-z]/g, (c) => ACCENTED[c] ?? c);

/** Accented letters only: how tests tell pseudo-locale text from everything else. */
export const PSEUDO_LETTERS = /[áƀçðéƒĝĥíĵķļɱñóþǫŕšťúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĻṀÑÓÞǪŔŠŤÚṼŴẊÝŽ]/;

function transform(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((el) => {
    if (el.type === TYPE.literal) {
      // About 40% longer (German and Polish often are): vowels doubled.
      return { ...el, value: accent(el.value.replace(/([aeiouAEIOU])/g, '$1$1')) };
    }
    if (el.type === TYPE.tag) return { ...el, children: transform(el.children) };
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      const options = Object.fromEntries(
        Object.entries(el.options).map(([k, o]) => [k, { ...o, value: transform(o.value) }]),
      );
      return { ...el, options };
    }
    return el;
  });
}

/**
 * The pseudo-locale's message for an English one: its text accented and lengthened, its arguments,
 * tags and plural forms kept, framed by `⟦ ⟧` so that cut-off text shows.
 */
export function pseudoMessage(source: string): MessageFormatElement[] {
  const ast = transform(parse(source));
  const open: MessageFormatElement = { type: TYPE.literal, value: '⟦' };
  const close: MessageFormatElement = { type: TYPE.literal, value: '⟧' };
  return [open, ...ast, close];
}
