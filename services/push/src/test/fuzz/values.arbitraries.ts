import fc from 'fast-check';

/*
 * Hostile scalar values, shared by the body, header and path generators: unicode edge cases
 * (lone surrogates, NUL, BOM, bidi overrides, combining marks, astral characters), empty and huge
 * strings, numbers written as strings in every way a parser might half-accept, and plain values.
 * Huge strings are built from a length, so a shrunk counterexample stays small to print.
 */

/** Strings that break naive handling: encodings, terminators, separators, look-alikes. */
export const EDGE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t',
  '\r\n',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(8),
  '\uD800',
  'x\uDC00',
  '\uDBFF\uDFFF',
  '\uDFFF\uD800',
  '\uFEFF',
  '\uFEFFpayload',
  '\u202Eevil',
  '\u2028\u2029',
  '\u200B',
  'e\u0301\u0301\u0301',
  '👍🏽👨‍👩‍👧',
  '𝕳𝖊𝖑𝖑𝖔',
  '\uFFFD',
  '\uFFFF',
  'İıß',
  'Ａ１',
  '\u0085',
  '\u001B[31m',
  '%00',
  '%',
  '%zz',
  '\\',
  '\\u0000',
  '"',
  "'",
  '`',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '../../etc/passwd',
  '..\\..\\windows',
  "' OR 1=1 --",
  'null',
  'undefined',
  'NaN',
  'Infinity',
  'true',
  'false',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'text',
  'url',
  'qr',
  'file',
  'TEXT',
  'https://example.test/',
  'http://',
  'javascript:alert(1)',
  'data:text/html,x',
  'http://[::1]:80/',
  'https://user:pw@example.test:99999/',
];

/** Integers in every spelling: plain, signed, padded, exponent, hex, unicode digits, overflow. */
export const NUMBER_STRINGS: readonly string[] = [
  '0',
  '1',
  '5',
  '05',
  '005',
  '-0',
  '+5',
  '-1',
  ' 5',
  '5 ',
  '5\n',
  '5.0',
  '5.5',
  '1e1',
  '1E2',
  '0x10',
  '0b1',
  '0o7',
  '٥',
  '５',
  '1_000',
  '1,000',
  '100',
  '101',
  '90',
  '91',
  '17',
  '18',
  '1024',
  '2147483648',
  '9007199254740993',
  '1' + '0'.repeat(400),
  '-' + '9'.repeat(40),
  'NaN',
  'Infinity',
  '-Infinity',
  '',
];

/** Boolean spellings, accepted and not. */
export const BOOLEAN_STRINGS: readonly string[] = [
  'true',
  'false',
  'TRUE',
  'False',
  '1',
  '0',
  'yes',
  'No',
  'on',
  'OFF',
  'checked',
  'CHECKED',
  'unchecked',
  'y',
  'n',
  't',
  'f',
  '2',
  '-1',
  ' true',
  'true ',
  'tru',
  '',
];

/** A string built from a repeated unit: sizes around the 1,024 and 1,048,576 code point limits. */
export const hugeString: fc.Arbitrary<string> = fc
  .record({
    unit: fc.constantFrom('a', '🙂', 'é', '\u0000', ' ', 'e\u0301'),
    // The sizes around the 1,048,576 limit are the costly ones (a megabyte or four on the wire,
    // and a code point count on the server): 1 in 10 huge strings.
    length: fc.oneof(
      { arbitrary: fc.constantFrom(1023, 1024, 1025, 2048, 65_536), weight: 5 },
      { arbitrary: fc.constantFrom(1_048_575, 1_048_576, 1_048_577), weight: 1 },
      { arbitrary: fc.integer({ min: 0, max: 5000 }), weight: 4 },
    ),
  })
  .map(({ unit, length }) => unit.repeat(length));

/** Arbitrary unicode (any code point, lone surrogates mixed in by `EDGE_STRINGS`). */
const anyUnicode = fc.string({ unit: 'binary', maxLength: 40 });

/** A hostile string: mostly short and odd, sometimes huge. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...EDGE_STRINGS), weight: 5 },
  { arbitrary: fc.constantFrom(...NUMBER_STRINGS), weight: 2 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 3 },
  { arbitrary: anyUnicode, weight: 3 },
  // Any ASCII, control characters (NUL, ESC, DEL) included.
  { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 20 }), weight: 2 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...EDGE_STRINGS), fc.string({ maxLength: 10 }), fc.constantFrom(...EDGE_STRINGS))
      .map((parts) => parts.join('')),
    weight: 2,
  },
  { arbitrary: hugeString, weight: 1 },
);

/** A short hostile string (no huge ones): keys, header values, path pieces. */
export const shortHostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...EDGE_STRINGS), weight: 5 },
  { arbitrary: fc.constantFrom(...NUMBER_STRINGS), weight: 1 },
  { arbitrary: fc.string({ maxLength: 20 }), weight: 3 },
  { arbitrary: anyUnicode, weight: 2 },
);

/** Numbers as JSON would carry them (doubles too; NaN and ±Infinity serialize as null). */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -5, max: 200 }),
  fc.constantFrom(0, -0, 1, 5, 90, 91, 100, 101, 17, 18, 2 ** 31, 2 ** 53 + 2, -1, 1.5, 1e21, 5e-324),
  fc.double(),
);

/** A valid text payload (what most creates carry). */
export const validPayload: fc.Arbitrary<string> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''),
  fc.constantFrom('correct horse battery staple', 'hunter2', '秘密', 'πα𝔰𝔰'),
);

/** A valid URL payload. */
export const validUrl: fc.Arbitrary<string> = fc.oneof(
  fc.webUrl({ validSchemes: ['http', 'https'] }),
  fc.constantFrom('https://example.test/a?b=c#d', 'http://127.0.0.1:9/x'),
);

/** Bytes that are not valid UTF-8 (overlong, surrogates, truncated sequences, stray continuation). */
export const INVALID_UTF8: readonly Buffer[] = [
  Buffer.from([0xff]),
  Buffer.from([0xc0, 0x80]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0x80, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xfe, 0xff]),
];

/** UTF-8 bytes of `s` as a latin1 string: how non-ASCII text goes into a header value. */
export const asHeaderText = (s: string): string =>
  Buffer.from(s, 'utf8')
    .toString('latin1')
    // Node's client refuses control characters in header values (the server would too).
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, '');

/** Percent-encodes the UTF-8 form (lone surrogates become U+FFFD, as Buffer.from would make them). */
export const percentEncode = (s: string): string =>
  encodeURIComponent(
    s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'),
  ).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
