/*
 * Finds text on a page that did not come from a catalogue, with the pseudo-locale `en-XA` (every
 * catalogue letter accented: "Šĥááŕé"): what is left in plain ASCII letters is either a value the
 * page shows (the brand, a URL, an address, the test's own data: `allow`) or a literal that
 * bypasses the catalogues.
 */

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  '#96': '`',
  nbsp: ' ',
};
const decode = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39|#96|nbsp);/g, (_, e: string) => ENTITIES[e] ?? '');

/** Texts people read: text nodes and the attributes shown or spoken (title, alt, labels, placeholders, meta descriptions). */
export function readableTexts(page: string): string[] {
  const body = page
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style\b[^>]*>[\s\S]*?<\/style>/gi, ' ')
    // Meta tags for machines (viewport, robots, referrer policy, a refresh): nobody reads them.
    .replace(/<meta\b[^>]*\b(?:name="(?:viewport|robots|referrer)"|http-equiv=)[^>]*>/gi, ' ')
    // The language selector's names are each language's own name, on purpose.
    .replace(/<option\b[^>]*\blang="[^"]*"[^>]*>[\s\S]*?<\/option>/gi, ' ');
  const out: string[] = [];
  for (const m of body.matchAll(
    /\s(?:title|alt|placeholder|aria-label|aria-description|data-label-[a-z]+)="([^"]*)"/g,
  )) {
    out.push(decode(m[1]!));
  }
  // A meta's content is read where it describes the page (description, og:, twitter:), not where
  // it is a setting (viewport, robots, referrer, refresh).
  for (const meta of body.matchAll(/<meta\b[^>]*>/gi)) {
    if (!/\b(?:name|property)="(?:description|og:[\w:]+|twitter:[\w:]+)"/i.test(meta[0])) continue;
    const content = /\bcontent="([^"]*)"/.exec(meta[0])?.[1];
    if (content !== undefined) out.push(decode(content));
  }
  for (const m of body.matchAll(/<input\b[^>]*\btype="(?:submit|button)"[^>]*\bvalue="([^"]*)"/g)) {
    out.push(decode(m[1]!));
  }
  for (const m of body.replace(/<title>[\s\S]*?<\/title>/, (t) => t).matchAll(/>([^<]+)</g)) {
    const text = decode(m[1]!).trim();
    if (text) out.push(text);
  }
  return out;
}

const ALWAYS_ALLOWED: RegExp[] = [
  /^https?:\/\/\S+$/, // a URL (a link, the API's base)
  /^\/\S*$/, // a path
  /^[^\s@]+@[^\s@]+$/, // an address
  /^[\w-]*\d[\w-]*$/, // an identifier with digits (a token, a key id, a date)
  /^width=device-width/, // the viewport meta
];

/**
 * The words of `page` in plain ASCII letters that nothing in `allow` explains (a string: that exact
 * word or phrase appears; a RegExp: a word matches). Empty when every text came from the catalogue.
 */
export function untranslatedText(page: string, allow: readonly (string | RegExp)[] = []): string[] {
  const found: string[] = [];
  for (let text of readableTexts(page)) {
    for (const a of allow) if (typeof a === 'string') text = text.split(a).join(' ');
    for (const word of text.split(/\s+/)) {
      const w = word.replace(/^[^\w/]+|[^\w/]+$/g, '');
      if (!/[A-Za-z]{2,}/.test(w)) continue;
      if (ALWAYS_ALLOWED.some((r) => r.test(w))) continue;
      if (allow.some((a) => a instanceof RegExp && a.test(w))) continue;
      found.push(w);
    }
  }
  return [...new Set(found)];
}
