import fc from 'fast-check';
import { EDGE_STRINGS, asHeaderText, shortHostileString } from './values.arbitraries';

/*
 * Request headers: Authorization variants (valid tokens of several scopes, other schemes,
 * malformed bearer values, duplicates), X-Passphrase, X-Forwarded-For (the suite trusts the
 * loopback proxy, so the header is believed and its value becomes the client address), and the
 * headers every endpoint reads in passing (User-Agent, Referer, X-Request-Id, Accept, Origin,
 * Sec-Fetch-Site). Values are written as raw bytes (UTF-8 text goes on the wire as latin1), and
 * only with characters an HTTP/1.1 header may carry: anything else the server's parser refuses
 * before any code of the service runs.
 */

export type Header = [string, string];

/** Tokens made in set-up: the main client with each scope set, and another client. */
export interface PushTokens {
  readWrite: string;
  readOnly: string;
  writeOnly: string;
  otherClient: string;
}

/** How likely a valid token is: `owner` endpoints (lists, audit) need one to do anything. */
export type AuthProfile = 'anonymous-first' | 'token-first';

export function authorization(tokens: PushTokens, profile: AuthProfile): fc.Arbitrary<Header[]> {
  const bearer = (t: string): Header[] => [['Authorization', `Bearer ${t}`]];
  const valid = fc.oneof(
    { arbitrary: fc.constant(bearer(tokens.readWrite)), weight: 6 },
    { arbitrary: fc.constant(bearer(tokens.readOnly)), weight: 1 },
    { arbitrary: fc.constant(bearer(tokens.writeOnly)), weight: 1 },
    { arbitrary: fc.constant(bearer(tokens.otherClient)), weight: 2 },
  );
  const t = tokens.readWrite;
  const malformed = fc.oneof(
    fc.constantFrom<Header[]>(
      [['Authorization', '']],
      [['Authorization', 'Bearer']],
      [['Authorization', 'Bearer ']],
      [['Authorization', `bearer ${t}`]],
      [['Authorization', `BEARER ${t}`]],
      [['Authorization', `Bearer  ${t}`]],
      [['Authorization', `Bearer\t${t}`]],
      [['Authorization', `Bearer ${t} extra`]],
      [['Authorization', `Bearer ${t}=`]],
      [['Authorization', `Bearer ${t},Bearer ${t}`]],
      [['Authorization', `Token ${t}`]],
      [['Authorization', 'Basic dXNlcjpwYXNz']],
      [['Authorization', `Basic ${Buffer.from(`x:${t}`).toString('base64')}`]],
      [['Authorization', 'Digest username="x"']],
      [['Authorization', `Bearer ${'A'.repeat(8000)}`]],
      [['Authorization', `Bearer ${t.slice(0, -1)}`]],
      [
        ['Authorization', `Bearer ${t}`],
        ['Authorization', 'Bearer garbage'],
      ],
    ),
    fc.base64String({ minLength: 4, maxLength: 64 }).map((s): Header[] => [['Authorization', `Bearer ${s}`]]),
    shortHostileString.map((s): Header[] => [['Authorization', asHeaderText(`Bearer ${s}`)]]),
  );
  return profile === 'token-first'
    ? fc.oneof(
        { arbitrary: valid, weight: 12 },
        { arbitrary: fc.constant<Header[]>([]), weight: 2 },
        { arbitrary: malformed, weight: 2 },
      )
    : fc.oneof(
        { arbitrary: fc.constant<Header[]>([]), weight: 10 },
        { arbitrary: valid, weight: 6 },
        { arbitrary: malformed, weight: 2 },
      );
}

/** X-Passphrase: usually absent; else the right one of the pool, a wrong one, or hostile. */
export function passphraseHeader(right: string): fc.Arbitrary<Header[]> {
  return fc.oneof(
    { arbitrary: fc.constant<Header[]>([]), weight: 20 },
    {
      arbitrary: fc
        .oneof(
          fc.constant(right),
          fc.constantFrom('wrong', '', ' ', right.toUpperCase(), `${right} `, 'x'.repeat(2000)),
          shortHostileString.map(asHeaderText),
        )
        .map((v): Header[] => [['X-Passphrase', v]]),
      weight: 3,
    },
    {
      arbitrary: fc.constant<Header[]>([
        ['X-Passphrase', 'wrong'],
        ['X-Passphrase', right],
      ]),
      weight: 1,
    },
  );
}

const XFF_VALUES = [
  '203.0.113.7',
  '2001:db8::1',
  '::ffff:203.0.113.7',
  '203.0.113.7, 198.51.100.2',
  '203.0.113.7:8080',
  '[2001:db8::1]:443',
  'unknown',
  '',
  ',',
  ', , ,',
  'not an ip',
  '999.999.999.999',
  '127.0.0.1',
  '0.0.0.0',
  'fe80::1%eth0',
  Array.from({ length: 200 }, (_, i) => `10.0.${i % 256}.${i}`).join(', '),
];

export const forwardedFor: fc.Arbitrary<Header[]> = fc.oneof(
  { arbitrary: fc.constant<Header[]>([]), weight: 10 },
  {
    arbitrary: fc
      .oneof(fc.constantFrom(...XFF_VALUES), fc.ipV4(), fc.ipV6(), shortHostileString.map(asHeaderText))
      .map((v): Header[] => [['X-Forwarded-For', v]]),
    weight: 4,
  },
  {
    arbitrary: fc.tuple(fc.ipV4(), fc.ipV4()).map(([a, b]): Header[] => [
      ['X-Forwarded-For', a],
      ['X-Forwarded-For', b],
    ]),
    weight: 1,
  },
);

/** Headers read in passing: User-Agent and Referer (audited), X-Request-Id, Accept, Cookie. */
export const miscHeaders: fc.Arbitrary<Header[]> = fc
  .record(
    {
      ua: fc.oneof(fc.constantFrom('curl/8.0', 'x'.repeat(5000), ''), shortHostileString.map(asHeaderText)),
      referer: fc.oneof(
        fc.constantFrom('https://example.test/a', 'not a url', ''),
        shortHostileString.map(asHeaderText),
      ),
      requestId: fc.oneof(
        fc.uuid(),
        fc.constantFrom('abc', '', 'x'.repeat(500), '../../', 'id with spaces', '0'),
        shortHostileString.map(asHeaderText),
      ),
      accept: fc.constantFrom('application/json', 'text/html', '*/*', 'image/*;q=0', 'garbage;;q=x', ''),
      cookie: fc.constantFrom('a=b', 'session=' + 'x'.repeat(3000), '=;;=', ''),
      acceptEncoding: fc.constantFrom('gzip, br', 'identity;q=0', '*;q=0', 'x'),
      custom: fc.tuple(
        fc.constantFrom(
          'X-Http-Method-Override',
          'X-Original-URL',
          'X-Rewrite-URL',
          'X-Forwarded-Proto',
          'X-Forwarded-Host',
          'Forwarded',
        ),
        fc.constantFrom(
          'DELETE',
          '/api/v2/pushes/active',
          'https',
          'evil.test',
          'for=1.2.3.4;proto=https',
          ...EDGE_STRINGS.slice(0, 4),
        ),
      ),
    },
    { requiredKeys: [] },
  )
  .map((h) => {
    const out: Header[] = [];
    if (h.ua !== undefined) out.push(['User-Agent', h.ua]);
    if (h.referer !== undefined) out.push(['Referer', h.referer]);
    if (h.requestId !== undefined) out.push(['X-Request-Id', asHeaderText(h.requestId)]);
    if (h.accept !== undefined) out.push(['Accept', h.accept]);
    if (h.cookie !== undefined) out.push(['Cookie', h.cookie]);
    if (h.acceptEncoding !== undefined) out.push(['Accept-Encoding', h.acceptEncoding]);
    if (h.custom !== undefined) out.push([h.custom[0], asHeaderText(h.custom[1])]);
    return out;
  });

/** Origin and Sec-Fetch-Site of a page form POST: same-origin mostly (the page's own form). */
export function formOrigin(ownOrigin: string): fc.Arbitrary<Header[]> {
  return fc.oneof(
    { arbitrary: fc.constant<Header[]>([]), weight: 6 },
    { arbitrary: fc.constant<Header[]>([['Sec-Fetch-Site', 'same-origin']]), weight: 4 },
    { arbitrary: fc.constant<Header[]>([['Origin', 'null']]), weight: 2 },
    { arbitrary: fc.constant<Header[]>([['Origin', ownOrigin]]), weight: 2 },
    {
      arbitrary: fc.constantFrom<Header[]>(
        [['Sec-Fetch-Site', 'cross-site']],
        [['Sec-Fetch-Site', 'none']],
        [['Sec-Fetch-Site', '']],
        [['Origin', 'https://evil.test']],
        [['Origin', `${ownOrigin}.evil.test`]],
        [['Origin', '']],
        [
          ['Origin', 'https://evil.test'],
          ['Sec-Fetch-Site', 'same-origin'],
        ],
      ),
      weight: 2,
    },
  );
}
