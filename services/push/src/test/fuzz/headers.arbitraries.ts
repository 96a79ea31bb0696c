import fc from 'fast-check';
import { EDGE_STRINGS, asHeaderText, shortHostileString } from './values.arbitraries';

/*
 * Request headers: Authorization variants (valid tokens of several scopes, other schemes,
 * malformed bearer values, duplicates), personal API tokens (`Bearer spu_…` of a fixture user,
 * malformed `spu_` values) and Password Pusher's legacy pair `X-User-Email` + `X-User-Token`
 * (right, wrong, missing, unicode and huge emails and tokens, alone or with a Bearer header that
 * agrees or disagrees), X-Passphrase, X-Forwarded-For (the suite trusts the loopback proxy, so the
 * header is believed and its value becomes the client address), and the headers every endpoint
 * reads in passing (User-Agent, Referer, X-Request-Id, Accept, Origin, Sec-Fetch-Site). Values are
 * written as raw bytes (UTF-8 text goes on the wire as latin1), and only with characters an
 * HTTP/1.1 header may carry: anything else (a NUL, a lone CR) Node's client refuses to send and
 * the server's parser refuses (400) before any code of the service runs, so a "NUL" in a token is
 * sent the ways a client could: percent-encoded, escaped, or cut out of the value.
 */

export type Header = [string, string];

/**
 * Personal API tokens made in set-up, through the push service's domain service: a user with a
 * verified email (its tokens with both scopes and with `pushes:read` only, and one revoked), and a
 * user whose email is not verified (the legacy pair must refuse it even with its right token).
 */
export interface PersonalTokens {
  readWrite: string;
  readOnly: string;
  /** Well-formed, of the right user, revoked: the database lookup refuses it. */
  revoked: string;
  /** The verified email of the user of `readWrite`, `readOnly` and `revoked`, as stored. */
  email: string;
  /** A token (both scopes) of the user with an unverified email, and that email. */
  unverified: string;
  unverifiedEmail: string;
}

/** Tokens made in set-up: the main client with each scope set, another client, and a user's. */
export interface PushTokens {
  readWrite: string;
  readOnly: string;
  writeOnly: string;
  otherClient: string;
  personal: PersonalTokens;
}

/** How likely a valid token is: `owner` endpoints (lists, audit) need one to do anything. */
export type AuthProfile = 'anonymous-first' | 'token-first';

const bearer = (t: string): Header[] => [['Authorization', `Bearer ${t}`]];
const legacyPair = (email: string | undefined, token: string | undefined): Header[] => [
  ...(email !== undefined ? ([['X-User-Email', email]] as Header[]) : []),
  ...(token !== undefined ? ([['X-User-Token', token]] as Header[]) : []),
];

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A `spu_` token of the right shape that no user holds (a lookup in the database, refused). */
const unknownPersonal: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...BASE64URL), { minLength: 43, maxLength: 43 })
  .map((cs) => `spu_${cs.join('')}`);

/** `spu_` values a personal token cannot be: wrong length, alphabet or prefix, unicode, huge. */
function malformedPersonal(p: PersonalTokens): fc.Arbitrary<string> {
  const t = p.readWrite;
  const body = t.slice(4);
  return fc.oneof(
    fc.constantFrom(
      'spu_',
      'spu',
      `spu_${body.slice(0, -1)}`,
      `spu_${body}A`,
      `spu_${body}${body}`,
      `SPU_${body}`,
      `Spu_${body}`,
      `spu-${body}`,
      `spu__${body.slice(1)}`,
      `spu_${body.slice(0, -1)}=`,
      `spu_${body.slice(0, -2)}+/`,
      `spu_${body.slice(0, -1)}.`,
      `spu_${body.slice(0, 20)}%00${body.slice(23)}`,
      `spu_${body.slice(0, 20)}\\0${body.slice(22)}`,
      `spu_${body.slice(0, 20)}\\u0000${body.slice(26)}`,
      // A NUL cut out by the client: one character short.
      `spu_${body.slice(0, 20)}${body.slice(21)}`,
      `spu_${body.slice(0, 21)} ${body.slice(22)}`,
      `${t} ${t}`,
      `${t},${t}`,
      `spu_${'A'.repeat(43 * 100)}`,
      `spu_${'A'.repeat(6000)}`,
      // Over the 16 KiB header limit: 431 before the service runs.
      `spu_${'A'.repeat(20_000)}`,
      asHeaderText(`spu_${'é'.repeat(43)}`),
      asHeaderText(`spu_${body.slice(0, 42)}ä`),
      asHeaderText(`spu_${body.slice(0, 41)}🙂`),
      asHeaderText(`spu_${'Ａ'.repeat(43)}`),
      asHeaderText(`spu_\u202E${body.slice(1)}`),
    ),
    fc
      .tuple(fc.integer({ min: 0, max: 42 }), fc.constantFrom('+', '/', '=', '.', '~', '!', '"', '%', '\\'))
      .map(([at, c]) => `spu_${body.slice(0, at)}${c}${body.slice(at + 1)}`),
    fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((s) => asHeaderText(`spu_${s}`)),
    shortHostileString.map((s) => asHeaderText(`spu_${s}`)),
    fc.base64String({ minLength: 40, maxLength: 48 }).map((s) => `spu_${s}`),
  );
}

/**
 * Password Pusher's legacy pair, alone or with a Bearer header: each of `X-User-Email` and
 * `X-User-Token` right, wrong, missing, unicode or huge, and the Bearer token (if any) the same as
 * `X-User-Token` or another one. Only the right verified email with its user's personal token (and
 * the same token as Bearer, if one is sent) authenticates; an OAuth client's token agreeing with
 * the Bearer one authenticates whatever the email says (a client has no email).
 */
function legacy(tokens: PushTokens): fc.Arbitrary<Header[]> {
  const p = tokens.personal;
  const [local, domain] = p.email.split('@') as [string, string];
  const email = fc.oneof(
    { arbitrary: fc.constant(p.email), weight: 8 },
    {
      arbitrary: fc.constantFrom(
        p.email.toUpperCase(),
        ` ${p.email} `,
        `\t${p.email}`,
        `${p.email}, ${p.email}`,
        `<${p.email}>`,
        `${local}+x@${domain}`,
        `${local}@${domain}.`,
        p.unverifiedEmail,
        'nobody@example.test',
        '',
        '@',
        'not an email',
        `${'a'.repeat(5000)}@${domain}`,
        asHeaderText(`${local.replace(/a/i, 'а')}@${domain}`), // Cyrillic а: a look-alike
        asHeaderText(`${local}@${domain.replace(/e/i, 'é')}`),
        asHeaderText(`${p.email}\u200B`),
        asHeaderText(p.email.replace(/i/gi, 'İ')),
      ),
      weight: 6,
    },
    { arbitrary: shortHostileString.map(asHeaderText), weight: 2 },
  );
  const token = fc.oneof(
    { arbitrary: fc.constant(p.readWrite), weight: 8 },
    {
      arbitrary: fc.constantFrom(
        p.readOnly,
        p.revoked,
        p.unverified,
        tokens.readWrite, // an OAuth access token: the pair is a user's
        '',
        `${p.readWrite} `,
        p.readWrite.toUpperCase(),
      ),
      weight: 5,
    },
    { arbitrary: unknownPersonal, weight: 1 },
    { arbitrary: malformedPersonal(p), weight: 2 },
  );
  const pair = fc.record({
    email: fc.option(email, { nil: undefined, freq: 8 }),
    token: fc.option(token, { nil: undefined, freq: 8 }),
  });
  return fc.oneof(
    // The pair alone.
    { arbitrary: pair.map(({ email: e, token: t }) => legacyPair(e, t)), weight: 6 },
    // With a Bearer header carrying the same token (agreeing) …
    {
      arbitrary: pair.map(({ email: e, token: t }) => [...bearer(t ?? p.readWrite), ...legacyPair(e, t)]),
      weight: 3,
    },
    // … or another one (disagreeing): a personal token, an OAuth token, junk.
    {
      arbitrary: fc
        .tuple(
          pair,
          fc.constantFrom(
            p.readWrite,
            p.readOnly,
            p.revoked,
            tokens.readWrite,
            tokens.otherClient,
            'garbage',
          ),
        )
        .map(([{ email: e, token: t }, b]) => [...bearer(b), ...legacyPair(e, t)]),
      weight: 3,
    },
    // An OAuth client's token in both places: the email is not checked.
    {
      arbitrary: email.map((e) => [...bearer(tokens.readWrite), ...legacyPair(e, tokens.readWrite)]),
      weight: 1,
    },
    // Each header twice.
    {
      arbitrary: fc.constantFrom<Header[]>(
        [...legacyPair(p.email, p.readWrite), ...legacyPair(p.email, p.readWrite)],
        [...legacyPair(p.email, p.readWrite), ['X-User-Token', p.readOnly]],
        [...legacyPair(p.email, p.readWrite), ['X-User-Email', 'nobody@example.test']],
      ),
      weight: 1,
    },
  );
}

export function authorization(tokens: PushTokens, profile: AuthProfile): fc.Arbitrary<Header[]> {
  const p = tokens.personal;
  const valid = fc.oneof(
    { arbitrary: fc.constant(bearer(tokens.readWrite)), weight: 6 },
    { arbitrary: fc.constant(bearer(tokens.readOnly)), weight: 1 },
    { arbitrary: fc.constant(bearer(tokens.writeOnly)), weight: 1 },
    { arbitrary: fc.constant(bearer(tokens.otherClient)), weight: 2 },
    // A user's personal tokens, as Bearer or as the legacy pair.
    { arbitrary: fc.constant(bearer(p.readWrite)), weight: 3 },
    { arbitrary: fc.constant(bearer(p.readOnly)), weight: 1 },
    { arbitrary: fc.constant(legacyPair(p.email, p.readWrite)), weight: 2 },
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
      [['Authorization', `Bearer ${p.revoked}`]],
      [['Authorization', `Bearer ${p.unverified}`]],
      [['Authorization', `bearer ${p.readWrite}`]],
      [['Authorization', `Token ${p.readWrite}`]],
      [['Authorization', `Basic ${Buffer.from(`${p.email}:${p.readWrite}`).toString('base64')}`]],
      [
        ['Authorization', `Bearer ${p.readWrite}`],
        ['Authorization', `Bearer ${p.readOnly}`],
      ],
      [
        ['Authorization', `Bearer ${p.readWrite}`],
        ['Authorization', `Bearer ${t}`],
      ],
    ),
    fc.base64String({ minLength: 4, maxLength: 64 }).map((s): Header[] => [['Authorization', `Bearer ${s}`]]),
    shortHostileString.map((s): Header[] => [['Authorization', asHeaderText(`Bearer ${s}`)]]),
    unknownPersonal.map(bearer),
    malformedPersonal(p).map(bearer),
  );
  return profile === 'token-first'
    ? fc.oneof(
        { arbitrary: valid, weight: 12 },
        { arbitrary: fc.constant<Header[]>([]), weight: 2 },
        { arbitrary: malformed, weight: 2 },
        { arbitrary: legacy(tokens), weight: 2 },
      )
    : fc.oneof(
        { arbitrary: fc.constant<Header[]>([]), weight: 10 },
        { arbitrary: valid, weight: 6 },
        { arbitrary: malformed, weight: 2 },
        { arbitrary: legacy(tokens), weight: 2 },
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
