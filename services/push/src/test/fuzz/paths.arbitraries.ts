import fc from 'fast-check';
import { percentEncode, shortHostileString } from './values.arbitraries';

/*
 * Paths and query strings. A `url_token` segment is mostly a token made in set-up, written the
 * ways a client may legitimately write it (as is, or with letters percent-encoded; the `.json`
 * suffix and a trailing slash come from `pathSuffix`), so that requests reach the handlers; the rest are
 * shapes a token cannot have (wrong length and alphabet, encoded slashes and dots, NUL, broken
 * escapes, the `active`/`expired` list names, double suffixes). Query strings add junk
 * parameters, bracket keys, repeated keys, `access_token` and hostile values of the parameters
 * an endpoint reads (`passphrase`, `page`).
 */

export interface PathPiece {
  /** What goes on the request line (percent-encoded as generated). */
  text: string;
  /** `valid`, `valid+json`, …, or `hostile:<shape>`. */
  tag: string;
}

/** Percent-encodes the letters at the given positions (an equivalent spelling of the same token). */
const encodeSome = (s: string, positions: number[]): string =>
  [...s]
    .map((c, i) => (positions.includes(i) ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c))
    .join('');

const HOSTILE_SEGMENTS = [
  '',
  'active',
  'expired',
  'ACTIVE',
  '.',
  '..',
  '%2e%2e',
  '%2E',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AE',
  '%2F',
  'a%2Fb',
  '%5C',
  '%20',
  '+',
  '*',
  '~',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '0',
  '-1',
  'x'.repeat(2000),
  '%F0%9F%98%80',
  '%C3%A9',
];

/** A `url_token` path segment; `pool` holds real tokens (A–Z a–z 0–9 - _). */
export function urlTokenSegment(pool: readonly string[]): fc.Arbitrary<PathPiece> {
  const token = fc.constantFrom(...pool);
  return fc.oneof(
    { arbitrary: token.map((t) => ({ text: t, tag: 'valid' })), weight: 72 },
    {
      arbitrary: fc
        .tuple(token, fc.uniqueArray(fc.nat({ max: 21 }), { minLength: 1, maxLength: 4 }))
        .map(([t, at]) => ({ text: encodeSome(t, at), tag: 'valid+pct' })),
      weight: 14,
    },
    {
      arbitrary: fc.oneof(
        fc.constantFrom(...HOSTILE_SEGMENTS).map((s) => ({ text: s, tag: `hostile:${s.slice(0, 12)}` })),
        fc.base64String({ minLength: 20, maxLength: 24 }).map((s) => ({
          text: s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, ''),
          tag: 'hostile:unknown',
        })),
        token.chain((t) =>
          fc.constantFrom(
            { text: t.toUpperCase(), tag: 'hostile:case' },
            { text: `${t}.json.json`, tag: 'hostile:json-json' },
            { text: `${t}%2Ejson`, tag: 'hostile:encoded-dot' },
            { text: `${t}%00`, tag: 'hostile:nul' },
            { text: `${t};x=y`, tag: 'hostile:matrix' },
            { text: `${t}${t}`, tag: 'hostile:double' },
            { text: `${t}%2F${t}`, tag: 'hostile:encoded-slash' },
            { text: t.slice(1), tag: 'hostile:short' },
          ),
        ),
        shortHostileString.map((s) => ({ text: percentEncode(s), tag: 'hostile:encoded' })),
      ),
      weight: 12,
    },
  );
}

/**
 * What follows the path: nothing mostly, the `.json` suffix every path also answers to, a
 * trailing slash; or spellings that are not the same path (`.JSON`, `.json/`, `//`, `;x`).
 */
export const pathSuffix: fc.Arbitrary<PathPiece> = fc.oneof(
  { arbitrary: fc.constant({ text: '', tag: '' }), weight: 70 },
  { arbitrary: fc.constant({ text: '.json', tag: '+json' }), weight: 20 },
  { arbitrary: fc.constant({ text: '/', tag: '+slash' }), weight: 5 },
  {
    arbitrary: fc
      .constantFrom('.JSON', '.json/', '//', ';x=1', '.json.json', '.xml', '%2Ejson', '/.', '/..', '.json%00')
      .map((s) => ({ text: s, tag: `+hostile:${s}` })),
    weight: 3,
  },
);

/**
 * A query string (with `?`) from pairs; percent-encoded, or "raw": every printable ASCII character
 * as is (`"{|}\\^<>` and broken escapes included) and only the rest encoded. Raw bytes outside
 * printable ASCII are not sent: Node's HTTP parser refuses them (400) before any code of the
 * service runs, and closes the connection while a body is still being sent.
 */
function queryText(pairs: [string, string][], raw: boolean): string {
  if (pairs.length === 0) return '';
  const enc = (s: string) =>
    raw
      ? [...s].map((c) => (/^[\x21-\x7e]$/.test(c) && c !== '#' ? c : percentEncode(c))).join('')
      : percentEncode(s);
  return `?${pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}`;
}

const junkPair = fc.oneof(
  fc.tuple(
    fc.constantFrom(
      'x',
      'a[b]',
      'a[b][c][d][e][f][g]',
      'a[]',
      '__proto__[x]',
      'constructor[prototype][x]',
      '',
    ),
    shortHostileString,
  ),
  fc.tuple(shortHostileString, shortHostileString),
);

/**
 * Query parameters: none mostly; else junk pairs plus the parameters the endpoint reads (`own`),
 * `access_token` now and then (400: tokens belong in the header), repeated keys, or a long query.
 */
export function queryString(
  own: fc.Arbitrary<[string, string][]> = fc.constant<[string, string][]>([]),
): fc.Arbitrary<PathPiece> {
  return fc.oneof(
    {
      arbitrary: own.map((ps) => ({ text: queryText(ps, false), tag: ps.length ? 'q:own' : 'q:none' })),
      weight: 12,
    },
    {
      arbitrary: fc
        .tuple(own, fc.array(junkPair, { minLength: 1, maxLength: 5 }), fc.boolean())
        .map(([ps, junk, raw]) => ({
          text: queryText([...ps, ...junk], raw),
          tag: raw ? 'q:raw' : 'q:junk',
        })),
      weight: 4,
    },
    {
      arbitrary: fc
        .tuple(own, fc.constantFrom('x', 'eyJhbGciOi', ''))
        .map(([ps, v]) => ({ text: queryText([...ps, ['access_token', v]], false), tag: 'q:access_token' })),
      weight: 1,
    },
    {
      arbitrary: fc.constantFrom(
        { text: '?', tag: 'q:empty' },
        { text: '?&&&', tag: 'q:ampersands' },
        { text: '?%', tag: 'q:broken' },
        { text: '?a=%zz&b=%', tag: 'q:broken' },
        { text: `?${'a[]=1&'.repeat(1200)}`, tag: 'q:many' },
        { text: `?x=${'y'.repeat(12_000)}`, tag: 'q:long' },
        { text: `?a${'[a]'.repeat(100)}=1`, tag: 'q:deep' },
      ),
      weight: 1,
    },
  );
}

/** Values of `page` (lists and audit): valid mostly, and every spelling of a wrong one. */
export const pageParam: fc.Arbitrary<[string, string][]> = fc.oneof(
  { arbitrary: fc.constant<[string, string][]>([]), weight: 4 },
  {
    arbitrary: fc.integer({ min: 1, max: 3 }).map((n): [string, string][] => [['page', String(n)]]),
    weight: 4,
  },
  {
    arbitrary: fc
      .constantFrom(
        '0',
        '200',
        '201',
        '-1',
        '1.0',
        '01',
        '001',
        '1e2',
        ' 1',
        '١',
        '',
        'abc',
        '99999999999999999999',
        '0x1',
      )
      .map((v): [string, string][] => [['page', v]]),
    weight: 3,
  },
  {
    arbitrary: fc.constantFrom<[string, string][]>(
      [
        ['page', '1'],
        ['page', '2'],
      ],
      [['page[]', '1']],
      [['page[a]', '1']],
    ),
    weight: 1,
  },
);

/** Values of the `passphrase` query parameter of retrieve. */
export function passphraseParam(right: string): fc.Arbitrary<[string, string][]> {
  return fc.oneof(
    { arbitrary: fc.constant<[string, string][]>([]), weight: 16 },
    {
      arbitrary: fc
        .oneof(fc.constant(right), fc.constantFrom('wrong', '', ' ', 'x'.repeat(3000)), shortHostileString)
        .map((v): [string, string][] => [['passphrase', v]]),
      weight: 4,
    },
    {
      arbitrary: fc.constantFrom<[string, string][]>(
        [['passphrase[]', right]],
        [
          ['passphrase', 'wrong'],
          ['passphrase', right],
        ],
        [['passphrase[x]', right]],
      ),
      weight: 1,
    },
  );
}
