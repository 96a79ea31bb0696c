import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import {
  BOOLEAN_STRINGS,
  INVALID_UTF8,
  NUMBER_STRINGS,
  hostileNumber,
  hostileString,
  hugeString,
  percentEncode,
  shortHostileString,
  validPayload,
  validUrl,
} from './values.arbitraries';

/*
 * Request bodies: JSON (valid-ish push objects with mutated fields, wrong types, deep nesting,
 * invalid JSON, odd encodings), urlencoded forms (bracket keys, invalid escapes, too many
 * parameters), multipart forms (valid, truncated, wrong boundary, huge fields, many parts, file
 * parts in wrong fields) and bodies of other media types. Each body comes with the headers that
 * describe it (Content-Type variants and charsets, Content-Encoding) and a `tag` naming the
 * generator branch, so the report can say which family of inputs a failure came from.
 */

export interface BodySpec {
  /** The generator branch, e.g. `json:push`, `multipart:truncated`. */
  tag: string;
  headers: [string, string][];
  body?: Buffer;
  chunked?: boolean;
}

const MIB = 1024 * 1024;

// ---------------------------------------------------------------- JSON

/** A JSON value that is written out verbatim (numbers JSON.stringify cannot spell, deep nesting). */
export class RawJson {
  constructor(readonly text: string) {}
}

export type JsonLike = null | boolean | number | string | RawJson | JsonLike[] | { [k: string]: JsonLike };

/** JSON text of `v`; `RawJson` goes in as is, own `__proto__` keys are kept. */
export function toJsonText(v: JsonLike): string {
  if (v instanceof RawJson) return v.text;
  if (Array.isArray(v)) return `[${v.map(toJsonText).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJsonText(x)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

const RAW_NUMBERS = ['1e400', '-0', '5.0', '5e0', '0.5e1', '1E+1', '100000000000000000000001', '-1e-400'];

const deepNesting = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.constantFrom(1000, 10_000, 100_000)),
    arr: fc.boolean(),
  })
  .map(({ depth, arr }) =>
    arr
      ? new RawJson('['.repeat(depth) + ']'.repeat(depth))
      : new RawJson('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
  );

/** A JSON value of any type, hostile where it can be. */
export const hostileJson: fc.Arbitrary<JsonLike> = fc.letrec<{ value: JsonLike }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    { arbitrary: hostileString, weight: 6 },
    { arbitrary: fc.constantFrom(...NUMBER_STRINGS), weight: 3 },
    { arbitrary: fc.constantFrom(...BOOLEAN_STRINGS), weight: 2 },
    { arbitrary: hostileNumber, weight: 3 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: fc.constantFrom(...RAW_NUMBERS).map((t) => new RawJson(t)), weight: 1 },
    { arbitrary: fc.array(tie('value'), { maxLength: 3 }), weight: 2 },
    {
      arbitrary: fc
        .array(
          fc.tuple(
            fc.oneof(shortHostileString, fc.constantFrom('__proto__', 'constructor', 'payload')),
            tie('value'),
          ),
          {
            maxLength: 3,
          },
        )
        .map((entries) => Object.fromEntries(entries) as JsonLike),
      weight: 2,
    },
    { arbitrary: deepNesting, weight: 1 },
  ),
})).value;

export const PUSH_FIELDS = [
  'payload',
  'kind',
  'files',
  'expire_after_days',
  'expire_after_duration',
  'expire_after_views',
  'deletable_by_viewer',
  'retrieval_step',
  'passphrase',
  'name',
  'note',
  'notify_emails_to',
  'notify_emails_to_locale',
  'notify_emails_include_sender',
  'notify_owner_on',
] as const;

/** Field values a valid create would carry. */
const validFields = fc.record(
  {
    kind: fc.constantFrom('text', 'url', 'qr'),
    expire_after_days: fc.oneof(fc.integer({ min: 1, max: 90 }), fc.integer({ min: 1, max: 90 }).map(String)),
    expire_after_duration: fc.integer({ min: 0, max: 17 }),
    expire_after_views: fc.oneof(
      fc.integer({ min: 1, max: 100 }),
      fc.integer({ min: 1, max: 100 }).map(String),
    ),
    deletable_by_viewer: fc.oneof(fc.boolean(), fc.constantFrom('yes', 'OFF', 'checked', 1, 0)),
    retrieval_step: fc.oneof(fc.boolean(), fc.constantFrom('true', 'No', 'on')),
    passphrase: fc.constantFrom('', 'open sesame'),
    name: fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary-ascii', maxLength: 8 })),
    note: fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary-ascii', maxLength: 8 })),
    notify_emails_to: fc.constantFrom('a@example.org', 'a@example.org, b@example.org', ''),
    notify_emails_to_locale: fc.constantFrom('en', 'EN', 'xx'),
    notify_emails_include_sender: fc.oneof(fc.boolean(), fc.constantFrom('yes', 'off')),
    notify_owner_on: fc.oneof(
      fc.subarray(['view', 'failed_passphrase', 'expired_unseen']),
      fc.constantFrom('view,expired_unseen', ''),
    ),
  },
  { requiredKeys: [] },
);

/** A mutation of one field: a hostile value, null, removal, or an unknown key. */
const fieldMutation = fc.oneof(
  { arbitrary: fc.record({ field: fc.constantFrom(...PUSH_FIELDS), value: hostileJson }), weight: 8 },
  {
    arbitrary: fc.record({
      field: fc.constantFrom(...PUSH_FIELDS),
      value: fc.constant<JsonLike | undefined>(undefined),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ field: fc.constantFrom(...PUSH_FIELDS), value: fc.constant<JsonLike>(null) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      field: fc.oneof(
        shortHostileString,
        fc.constantFrom('access_token', '__proto__', 'constructor', 'id', 'owner', 'views'),
      ),
      value: hostileJson,
    }),
    weight: 2,
  },
);

/** A valid-ish `push` object: a valid create with up to four fields mutated. */
export const pushObject: fc.Arbitrary<{ [k: string]: JsonLike }> = fc
  .tuple(validFields, validPayload, validUrl, fc.array(fieldMutation, { maxLength: 4 }))
  .map(([fields, text, url, mutations]) => {
    const push: { [k: string]: JsonLike } = {
      payload: fields.kind === 'url' ? url : text,
      ...(fields as { [k: string]: JsonLike }),
    };
    for (const { field, value } of mutations) {
      if (value === undefined) {
        delete push[field];
      } else {
        Object.defineProperty(push, field, { value, enumerable: true, writable: true, configurable: true });
      }
    }
    return push;
  });

const JSON_TYPES: readonly (string | undefined)[] = [
  'application/json',
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'Application/JSON',
  'application/json ; charset="utf-8"',
  'application/json;charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=koi8-r',
  'application/json; charset=',
  'application/json; boundary=x',
  'application/vnd.api+json',
  'application/json, text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  undefined,
];

/** Content-Encoding of a body: none mostly, else real or lying compression. */
const encodings = fc.oneof(
  { arbitrary: fc.constant('none' as const), weight: 20 },
  {
    arbitrary: fc.constantFrom(
      'gzip',
      'deflate',
      'br',
      'identity',
      'GZIP',
      'x-unknown',
      'gzip, gzip',
      'lie-gzip',
    ),
    weight: 3,
  },
);

function encode(body: Buffer, encoding: string): { body: Buffer; header?: string } {
  switch (encoding) {
    case 'none':
      return { body };
    case 'gzip':
    case 'GZIP':
      return { body: gzipSync(body), header: encoding };
    case 'deflate':
      return { body: deflateSync(body), header: 'deflate' };
    case 'br':
      return { body: brotliCompressSync(body), header: 'br' };
    case 'lie-gzip':
      return { body, header: 'gzip' };
    default:
      return { body, header: encoding };
  }
}

/** JSON text → body spec with its Content-Type, encoding and transfer. */
const jsonSpec = (tag: string, text: fc.Arbitrary<string | Buffer>): fc.Arbitrary<BodySpec> =>
  fc
    .record({ text, type: fc.constantFrom(...JSON_TYPES), encoding: encodings, chunked: fc.boolean() })
    .map(({ text: t, type, encoding, chunked }) => {
      const raw = typeof t === 'string' ? Buffer.from(t, 'utf8') : t;
      const { body, header } = encode(raw, encoding);
      const headers: [string, string][] = [];
      if (type !== undefined) headers.push(['Content-Type', type]);
      if (header !== undefined) headers.push(['Content-Encoding', header]);
      return { tag: `${tag}${encoding === 'none' ? '' : `+${encoding}`}`, headers, body, chunked };
    });

/** Breaks valid JSON text: truncation, garbage, trailing commas, comments, single quotes. */
const breakJson = (text: string, how: number, at: number): string | Buffer => {
  const cut = Math.floor(at * text.length);
  switch (how % 8) {
    case 0:
      return text.slice(0, cut);
    case 1:
      return `${text.slice(0, cut)}\u0000${text.slice(cut)}`;
    case 2:
      return text.replace(/}$/, ',}');
    case 3:
      return `/* c */${text}`;
    case 4:
      return text.replace(/"/g, "'");
    case 5:
      return `${text}${text}`;
    case 6:
      return Buffer.concat([
        Buffer.from(text.slice(0, cut)),
        INVALID_UTF8[how % INVALID_UTF8.length]!,
        Buffer.from(text.slice(cut)),
      ]);
    default:
      return text.replace(/:/, ':NaN,"x":');
  }
};

/** JSON bodies around an object field (`push` for create, `passphrase` for reveal, …). */
export function jsonBodies(
  wrap: fc.Arbitrary<{ [k: string]: JsonLike }>,
  options: { huge?: boolean } = {},
): fc.Arbitrary<BodySpec> {
  const valid = wrap.map(toJsonText);
  // Weights out of ~430: the 16 MiB body (when asked for) is 1 in 430 JSON bodies.
  const branches: fc.WeightedArbitrary<BodySpec>[] = [
    { arbitrary: jsonSpec('json:object', valid), weight: 300 },
    {
      arbitrary: jsonSpec(
        'json:extra-keys',
        fc
          .tuple(
            wrap,
            fc.constantFrom('access_token', '__proto__', 'constructor', 'push', 'passphrase'),
            hostileJson,
          )
          .map(([o, k, v]) => toJsonText({ ...o, ...Object.fromEntries([[k, v]]) })),
      ),
      weight: 25,
    },
    { arbitrary: jsonSpec('json:not-an-object', hostileJson.map(toJsonText)), weight: 30 },
    {
      arbitrary: jsonSpec(
        'json:invalid',
        fc
          .tuple(valid, fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }))
          .map(([t, how, at]) => breakJson(t, how, at)),
      ),
      weight: 30,
    },
    {
      arbitrary: jsonSpec(
        'json:bom-whitespace',
        valid.chain((t) => fc.constantFrom(`\uFEFF${t}`, ` \n\t${t}\n `, `${t}\u0000`, `\u2028${t}`)),
      ),
      weight: 10,
    },
    {
      arbitrary: jsonSpec(
        'json:duplicate-keys',
        fc.tuple(valid, valid).map(([a, b]) => `${a.slice(0, -1)},${b.slice(1)}`),
      ),
      weight: 10,
    },
    {
      arbitrary: jsonSpec(
        'json:deep',
        fc.tuple(valid, deepNesting).map(([t, deep]) => `{"deep":${deep.text},${t.slice(1)}`),
      ),
      weight: 10,
    },
    { arbitrary: jsonSpec('json:empty', fc.constantFrom('', ' ', '{}', 'null', '[]', '""')), weight: 10 },
    { arbitrary: gzipBomb, weight: 3 },
  ];
  if (options.huge) {
    // Over the 16 MiB limit: rare, because each costs 16 MiB on the wire.
    branches.push({
      arbitrary: jsonSpec(
        'json:over-16MiB',
        fc.constant(`{"push":{"payload":"${'a'.repeat(16 * MIB + 16)}"}}`),
      ),
      weight: 1,
    });
  }
  return fc.oneof(...branches);
}

/** A small gzip body that inflates to 24 MiB: the limit must apply to the inflated size. */
const gzipBomb: fc.Arbitrary<BodySpec> = fc.constant(null).map(() => ({
  tag: 'json:gzip-bomb',
  headers: [
    ['Content-Type', 'application/json'],
    ['Content-Encoding', 'gzip'],
  ],
  body: GZIP_BOMB(),
}));

let bomb: Buffer | undefined;
const GZIP_BOMB = (): Buffer =>
  (bomb ??= gzipSync(Buffer.from(`{"push":{"payload":"${' '.repeat(24 * MIB)}"}}`), { level: 9 }));

// ---------------------------------------------------------------- urlencoded forms

/** A form key for a push field, with the bracket shapes qs understands (and some it should not). */
export const bracketKey = (root: string, field: string): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.constant(`${root}[${field}]`), weight: 12 },
    {
      arbitrary: fc.constantFrom(
        `${root}[${field}][]`,
        `${root}[${field}][0]`,
        `${root}[${field}][x]`,
        `${root}[${field}][][]`,
        `${root}[]`,
        `${root}[0]`,
        `${root}[999999]`,
        root,
        `${root}]${field}[`,
        `${root}[${field}`,
        `${root}[[${field}]]`,
        `${root}.${field}`,
        `${root}[__proto__][${field}]`,
        `${root}[constructor][prototype][${field}]`,
        `__proto__[${field}]`,
        `${root}[${field}]${'[a]'.repeat(40)}`,
        `${root}[ ${field}]`,
        `${root.toUpperCase()}[${field}]`,
        `${root}[files][]`,
        `${root}[files]`,
        'access_token',
      ),
      weight: 3,
    },
  );

export const formValue = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: fc.constantFrom(...NUMBER_STRINGS, ...BOOLEAN_STRINGS), weight: 3 },
  { arbitrary: validPayload, weight: 3 },
);

/** How a pair is written: percent-encoded (mostly), raw, with `+` for spaces, or broken escapes. */
const ENCODINGS = ['pct', 'pct', 'pct', 'pct', 'raw', 'plus', 'broken'] as const;

function writePair(key: string, value: string, how: (typeof ENCODINGS)[number]): string {
  switch (how) {
    case 'pct':
      return `${percentEncode(key)}=${percentEncode(value)}`;
    case 'raw':
      return `${key}=${value}`;
    case 'plus':
      return `${percentEncode(key)}=${percentEncode(value).replace(/%20/g, '+')}`;
    case 'broken':
      return `${percentEncode(key)}=${percentEncode(value)}%${value.length % 2 === 0 ? 'zz' : ''}`;
  }
}

const FORM_TYPES: readonly (string | undefined)[] = [
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'APPLICATION/X-WWW-FORM-URLENCODED',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'application/x-www-form-urlencoded; charset=utf-16le',
  'application/x-www-form-urlencoded;;',
  'application/json',
  undefined,
];

/** Form bodies from `[key, value]` pairs (already chosen by the endpoint). */
export function formBodies(pairs: fc.Arbitrary<[string, string][]>): fc.Arbitrary<BodySpec> {
  const written = fc
    .record({
      pairs,
      how: fc.array(fc.constantFrom(...ENCODINGS), { minLength: 1, maxLength: 4 }),
      separator: fc.constantFrom('&', '&', '&', ';', '&&'),
    })
    .map(({ pairs: ps, how, separator }) =>
      ps.map(([k, v], i) => writePair(k, v, how[i % how.length]!)).join(separator),
    );
  const spec = (tag: string, text: fc.Arbitrary<string | Buffer>) =>
    fc
      .record({ text, type: fc.constantFrom(...FORM_TYPES), encoding: encodings, chunked: fc.boolean() })
      .map(({ text: t, type, encoding, chunked }): BodySpec => {
        const raw = typeof t === 'string' ? Buffer.from(t, 'utf8') : t;
        const { body, header } = encode(raw, encoding);
        const headers: [string, string][] = [];
        if (type !== undefined) headers.push(['Content-Type', type]);
        if (header !== undefined) headers.push(['Content-Encoding', header]);
        return { tag: `${tag}${encoding === 'none' ? '' : `+${encoding}`}`, headers, body, chunked };
      });
  return fc.oneof(
    { arbitrary: spec('form:pairs', written), weight: 20 },
    {
      arbitrary: spec(
        'form:invalid-utf8',
        fc
          .tuple(written, fc.constantFrom(...INVALID_UTF8))
          .map(([t, bad]) => Buffer.concat([Buffer.from(t), bad])),
      ),
      weight: 1,
    },
    {
      arbitrary: spec(
        'form:too-many-params',
        fc
          .integer({ min: 990, max: 1100 })
          .map((n) => Array.from({ length: n }, (_, i) => `k${i}=v`).join('&')),
      ),
      weight: 1,
    },
    { arbitrary: spec('form:empty', fc.constantFrom('', '&', '=', '==', '&=&', 'push', 'push=')), weight: 1 },
  );
}

/** Form pairs of a create: the valid fields under `push[…]` with mutated keys and values. */
export const createFormPairs: fc.Arbitrary<[string, string][]> = fc
  .tuple(
    validPayload,
    fc.subarray([...PUSH_FIELDS.filter((f) => f !== 'payload' && f !== 'files')], { maxLength: 4 }),
    fc.array(fc.tuple(fc.constantFrom(...PUSH_FIELDS), formValue), { maxLength: 4 }),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom(...PUSH_FIELDS)), { maxLength: 3 }),
  )
  .chain(([payload, keep, extra, rekey]) =>
    fc.tuple(...rekey.map(([, field]) => bracketKey('push', field))).map((keys): [string, string][] => {
      const pairs: [string, string][] = [['push[payload]', payload]];
      for (const f of keep) pairs.push([`push[${f}]`, VALID_FORM_VALUE[f] ?? '1']);
      for (const [f, v] of extra) pairs.push([`push[${f}]`, v]);
      rekey.forEach(([i], j) => {
        const at = i % pairs.length;
        pairs[at] = [keys[j]!, pairs[at]![1]];
      });
      return pairs;
    }),
  );

const VALID_FORM_VALUE: Partial<Record<(typeof PUSH_FIELDS)[number], string>> = {
  kind: 'text',
  expire_after_days: '3',
  expire_after_duration: '4',
  expire_after_views: '7',
  deletable_by_viewer: 'false',
  retrieval_step: 'on',
  passphrase: '',
  name: 'a name',
  note: 'a note',
  notify_emails_to: 'a@example.org',
  notify_emails_to_locale: 'en',
  notify_emails_include_sender: 'false',
  notify_owner_on: 'view',
};

// ---------------------------------------------------------------- the web app's create form

/** The fields of the web app's create form (`POST /`): flat names, as its page sends them. */
export const PAGE_FORM_FIELDS = [
  'kind',
  'payload',
  'expire_after_days',
  'expire_after_views',
  'passphrase',
  'retrieval_step',
  'deletable_by_viewer',
] as const;

/** A checkbox as a browser sends it: its hidden `false`, then `true` when ticked. */
const checkbox = (name: string): fc.Arbitrary<[string, string][]> =>
  fc.boolean().map((on): [string, string][] =>
    on
      ? [
          [name, 'false'],
          [name, 'true'],
        ]
      : [[name, 'false']],
  );

/** The form filled in as its page means it (every field, the checkboxes' hidden `false` first). */
const pageFormFilled: fc.Arbitrary<[string, string][]> = fc
  .record({
    kind: fc.constantFrom('text', 'text', 'url', 'qr'),
    text: validPayload,
    url: validUrl,
    days: fc.integer({ min: 1, max: 90 }),
    views: fc.integer({ min: 1, max: 100 }),
    passphrase: fc.constantFrom('', '', 'open sesame'),
    retrieval: checkbox('retrieval_step'),
    deletable: checkbox('deletable_by_viewer'),
  })
  .map((r): [string, string][] => [
    ['kind', r.kind],
    ['payload', r.kind === 'url' ? r.url : r.text],
    ['expire_after_days', String(r.days)],
    ['expire_after_views', String(r.views)],
    ['passphrase', r.passphrase],
    ...r.retrieval,
    ...r.deletable,
  ]);

type PairsEdit = (pairs: [string, string][]) => [string, string][];

const pageField = fc.constantFrom(...PAGE_FORM_FIELDS);

/** Key spellings a flat form field may arrive in: the API's `push[…]`, brackets, case, spaces. */
const pageKey = (field: string): fc.Arbitrary<string> =>
  fc.constantFrom(
    `push[${field}]`,
    `${field}[]`,
    `${field}[0]`,
    `${field}[x]`,
    field.toUpperCase(),
    ` ${field}`,
    `${field} `,
    `${field}\u0000`,
    `${field}.`,
    '',
  );

/** One edit of the filled-in form: a hostile value, a field missing, repeated, renamed or huge. */
const pageFormEdit: fc.Arbitrary<PairsEdit> = fc.oneof(
  {
    // A field's value (its last occurrence, the one the form reads) replaced.
    arbitrary: fc.tuple(pageField, formValue).map(([f, v]): PairsEdit => (ps) => {
      const at = ps.map(([k]) => k).lastIndexOf(f);
      return at < 0 ? [...ps, [f, v]] : ps.map((p, i) => (i === at ? [f, v] : p));
    }),
    weight: 8,
  },
  {
    arbitrary: pageField.map(
      (f): PairsEdit =>
        (ps) =>
          ps.filter(([k]) => k !== f),
    ),
    weight: 3,
  },
  {
    // The field again, before or after the others: the last one counts.
    arbitrary: fc
      .tuple(pageField, fc.oneof(formValue, fc.constantFrom('true', 'false', 'text', '5')), fc.boolean())
      .map(
        ([f, v, first]): PairsEdit =>
          (ps) =>
            first ? [[f, v], ...ps] : [...ps, [f, v]],
      ),
    weight: 3,
  },
  {
    // Many times (past the form's 20 parameters: 413).
    arbitrary: fc
      .tuple(pageField, fc.integer({ min: 2, max: 24 }))
      .map(([f, n]): PairsEdit => (ps) => [
        ...ps,
        ...Array.from({ length: n }, (): [string, string] => [f, 'true']),
      ]),
    weight: 1,
  },
  {
    arbitrary: fc.tuple(fc.nat(), pageField.chain(pageKey)).map(
      ([i, key]): PairsEdit =>
        (ps) =>
          ps.map((p, j) => (j === i % ps.length ? [key, p[1]] : p)),
    ),
    weight: 2,
  },
  {
    // A field the form does not have.
    arbitrary: fc
      .tuple(
        fc.oneof(
          fc.constantFrom(
            'access_token',
            '__proto__',
            'constructor',
            'toString',
            'hasOwnProperty',
            'push',
            'files',
            'name',
            'note',
            'expire_after_duration',
          ),
          shortHostileString,
        ),
        formValue,
      )
      .map(([k, v]): PairsEdit => (ps) => [...ps, [k, v]]),
    weight: 2,
  },
  {
    arbitrary: fc.tuple(pageField, hugeString).map(
      ([f, v]): PairsEdit =>
        (ps) =>
          ps.map((p) => (p[0] === f ? [f, v] : p)),
    ),
    weight: 1,
  },
);

/** Pairs of the create form: filled in as meant, and then (three times in five) one to four edits. */
export const pageFormPairs: fc.Arbitrary<[string, string][]> = fc
  .tuple(
    pageFormFilled,
    fc.oneof(
      { arbitrary: fc.constant<PairsEdit[]>([]), weight: 2 },
      { arbitrary: fc.array(pageFormEdit, { minLength: 1, maxLength: 4 }), weight: 3 },
    ),
  )
  .map(([filled, edits]) => edits.reduce((ps, edit) => edit(ps), filled));

/**
 * A form body over the create form's limit once inflated (a text payload of 1,048,576 characters,
 * URL-encoded, and 16 KiB): gzipped mostly (the limit must apply to the inflated size), and now
 * and then as is (9.5 MiB on the wire).
 */
export const pageFormOverLimit: fc.Arbitrary<BodySpec> = fc
  .oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 })
  .map((gzip): BodySpec => {
    const raw = (overLimitForm ??= Buffer.from(`kind=text&payload=${'a'.repeat(9.5 * MIB)}`));
    return gzip
      ? {
          tag: 'form:over-limit+gzip',
          headers: [
            ['Content-Type', 'application/x-www-form-urlencoded'],
            ['Content-Encoding', 'gzip'],
          ],
          body: (overLimitGzip ??= gzipSync(raw, { level: 9 })),
        }
      : {
          tag: 'form:over-limit',
          headers: [['Content-Type', 'application/x-www-form-urlencoded']],
          body: raw,
        };
  });

let overLimitForm: Buffer | undefined;
let overLimitGzip: Buffer | undefined;

// ---------------------------------------------------------------- multipart

export interface Part {
  /** The whole Content-Disposition value, when it is not the usual `form-data; name=…`. */
  disposition?: string;
  name?: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

function multipartBytes(
  parts: readonly Part[],
  boundary: string,
  options: { newline: string; preamble: string; epilogue: string; close: boolean },
): Buffer {
  const nl = options.newline;
  const chunks: Buffer[] = [Buffer.from(options.preamble)];
  for (const p of parts) {
    const disposition =
      p.disposition ??
      `form-data${p.name !== undefined ? `; name="${p.name}"` : ''}${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    let head = `--${boundary}${nl}Content-Disposition: ${disposition}${nl}`;
    if (p.contentType !== undefined) head += `Content-Type: ${p.contentType}${nl}`;
    chunks.push(Buffer.from(`${head}${nl}`, 'utf8'), p.data, Buffer.from(nl));
  }
  if (options.close) chunks.push(Buffer.from(`--${boundary}--${nl}`));
  chunks.push(Buffer.from(options.epilogue));
  return Buffer.concat(chunks);
}

/** A well-formed multipart body (set-up's file pushes). */
export const multipartBody = (parts: readonly Part[], boundary: string): Buffer =>
  multipartBytes(parts, boundary, { newline: '\r\n', preamble: '', epilogue: '', close: true });

export const FILE_NAMES = [
  'a.txt',
  'report.pdf',
  '',
  '../../etc/passwd',
  'C:\\Users\\x\\secret.txt',
  'naïve résumé.txt',
  '秘密.bin',
  'a\u0000b.txt',
  'x'.repeat(300),
  'quote\\"d.txt',
  '\u202Etxt.exe',
  'con',
  '.',
  'a\r\nContent-Type: text/html',
];

/** A file part's content: mostly small, sometimes around the 64 KiB per-file limit of the suite. */
export const fileData = fc
  .record({
    size: fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 2048 }), weight: 10 },
      { arbitrary: fc.constantFrom(65_535, 65_536, 65_537, 200_000), weight: 1 },
    ),
    fill: fc.integer({ min: 0, max: 255 }),
    boundaryInside: fc.boolean(),
  })
  .map(({ size, fill, boundaryInside }) => {
    const data = Buffer.alloc(size, fill);
    if (boundaryInside && size > 40) data.write('\r\n--', Math.floor(size / 2), 'latin1');
    return data;
  });

/** Field and file parts of a create; files in the right field mostly, else in wrong ones. */
const createParts: fc.Arbitrary<Part[]> = fc
  .tuple(
    createFormPairs,
    fc.array(
      fc.record({
        name: fc.oneof(
          { arbitrary: fc.constantFrom('push[files][]', 'push[files]'), weight: 8 },
          {
            arbitrary: fc.constantFrom(
              'push[payload]',
              'file',
              'files',
              'push[files][0]',
              'push[files][x]',
              'push[file]',
              'push',
              '',
            ),
            weight: 2,
          },
        ),
        filename: fc.oneof(fc.constantFrom(...FILE_NAMES), shortHostileString),
        contentType: fc.option(
          fc.constantFrom(
            'text/plain',
            'application/octet-stream',
            'image/png; x=y',
            'garbage',
            '',
            'text/html; charset=utf-8',
          ),
          { nil: undefined },
        ),
        data: fileData,
      }),
      { maxLength: 2 },
    ),
    fc.boolean(),
  )
  .map(([pairs, files, filesFirst]) => {
    const fields: Part[] = pairs.map(([name, value]) => ({ name, data: Buffer.from(value, 'utf8') }));
    const fileParts: Part[] = files.map((f) => ({
      name: f.name,
      filename: f.filename.replace(/"/g, '%22'),
      contentType: f.contentType,
      data: f.data,
    }));
    return filesFirst ? [...fileParts, ...fields] : [...fields, ...fileParts];
  });

const BOUNDARIES = [
  '----fuzzboundary7MA4YWxkTrZu0gW',
  'x',
  'a'.repeat(70),
  'b'.repeat(200),
  "'()+_,-./:=?",
  'with space',
  'ünïcödé',
];

const MULTIPART_TYPE = (b: string) => `multipart/form-data; boundary=${b}`;

/** Multipart bodies of a form whose fields are `root[…]` (`push`, `request`, `response`), from its parts. */
export function multipartBodiesOf(parts: fc.Arbitrary<Part[]>, root: string): fc.Arbitrary<BodySpec> {
  return fc
    .record({
      parts,
      boundary: fc.constantFrom(...BOUNDARIES),
      // Out of 230: valid half the time; the 16 MiB field 1 in 230.
      variant: fc.oneof(
        { arbitrary: fc.constant('valid'), weight: 110 },
        {
          arbitrary: fc.constantFrom(
            'truncated',
            'truncated',
            'wrong-boundary',
            'no-boundary',
            'no-close',
            'lf-only',
            'preamble',
            'quoted-boundary',
            'uppercase-type',
            'charset',
            'mixed',
            'no-disposition',
            'no-name',
            'filename-star',
            'many-parts',
            'many-fields',
            'long-header',
          ),
          weight: 119,
        },
        { arbitrary: fc.constant('huge-field'), weight: 1 },
      ),
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
      chunked: fc.boolean(),
    })
    .map(({ parts, boundary, variant, cut, chunked }): BodySpec => {
      const quoted = boundary.includes(' ') || /[()'+,/:=?]/.test(boundary);
      let type = MULTIPART_TYPE(quoted ? `"${boundary}"` : boundary);
      const options = { newline: '\r\n', preamble: '', epilogue: '', close: true };
      let ps = parts;
      switch (variant) {
        case 'wrong-boundary':
          type = MULTIPART_TYPE('not-the-boundary');
          break;
        case 'no-boundary':
          type = 'multipart/form-data';
          break;
        case 'no-close':
          options.close = false;
          break;
        case 'lf-only':
          options.newline = '\n';
          break;
        case 'preamble':
          options.preamble = 'garbage before\r\n';
          options.epilogue = '\r\ngarbage after';
          break;
        case 'quoted-boundary':
          type = `multipart/form-data; boundary="${boundary}"`;
          break;
        case 'uppercase-type':
          type = `MULTIPART/FORM-DATA; BOUNDARY=${quoted ? `"${boundary}"` : boundary}`;
          break;
        case 'charset':
          type = `${type}; charset=utf-16`;
          break;
        case 'mixed':
          type = type.replace('form-data', 'mixed');
          break;
        case 'no-disposition':
          ps = [...parts, { disposition: 'attachment', data: Buffer.from('x') }];
          break;
        case 'no-name':
          ps = [...parts, { filename: 'f.txt', data: Buffer.from('x') }];
          break;
        case 'filename-star':
          ps = [
            ...parts,
            {
              disposition: `form-data; name="${root}[files][]"; filename*=UTF-8''%E2%82%AC%20rates%00.txt`,
              data: Buffer.from('€'),
            },
          ];
          break;
        case 'many-parts':
          ps = [
            ...parts,
            ...Array.from({ length: 115 }, (_, i) => ({ name: `${root}[x${i}]`, data: Buffer.from('1') })),
          ];
          break;
        case 'many-fields':
          ps = [
            ...parts,
            ...Array.from({ length: 101 }, (_, i) => ({ name: `${root}[y${i}]`, data: Buffer.from('') })),
          ];
          break;
        case 'huge-field':
          ps = [...parts, { name: `${root}[note]`, data: Buffer.alloc(16 * MIB + 1, 0x61) }];
          break;
        case 'long-header':
          ps = [...parts, { name: `${root}[${'n'.repeat(100_000)}]`, data: Buffer.from('x') }];
          break;
        case 'valid':
        case 'truncated':
          break;
      }
      let body = multipartBytes(ps, boundary, options);
      if (variant === 'truncated') body = body.subarray(0, Math.floor(cut * body.length));
      return { tag: `multipart:${variant}`, headers: [['Content-Type', type]], body, chunked };
    });
}

/** Multipart bodies of a push create. */
export const multipartBodies: fc.Arbitrary<BodySpec> = multipartBodiesOf(createParts, 'push');

// ---------------------------------------------------------------- other media types

const OTHER_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/xml',
  'application/octet-stream',
  'image/png',
  'application/x-www-form-urlencoded-evil',
  'application/jsonx',
  '*/*',
  ';;;',
  '',
  'application/',
  '/json',
  'multipart/related; boundary=x',
  'x'.repeat(2000),
];

/** A body of a media type no endpoint takes (or with no Content-Type at all). */
export const otherMediaBodies: fc.Arbitrary<BodySpec> = fc
  .record({
    type: fc.option(fc.constantFrom(...OTHER_TYPES), { nil: undefined, freq: 5 }),
    body: fc.oneof(
      fc.constantFrom('{"push":{"payload":"x"}}', 'push[payload]=x', '<push><payload>x</payload></push>'),
      hostileString,
    ),
    chunked: fc.boolean(),
  })
  .map(({ type, body, chunked }) => ({
    tag: `other:${type === undefined ? 'no-type' : type.slice(0, 24)}`,
    headers: type === undefined ? [] : [['Content-Type', type] as [string, string]],
    body: Buffer.from(body.length === 0 ? ' ' : body, 'utf8'),
    chunked,
  }));

/** No body at all (GET-like requests, or a POST without one). */
export const noBody: fc.Arbitrary<BodySpec> = fc.constant({ tag: 'none', headers: [] });
