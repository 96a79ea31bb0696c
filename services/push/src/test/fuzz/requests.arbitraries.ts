import fc from 'fast-check';
import {
  type JsonLike,
  type Part,
  FILE_NAMES,
  bracketKey,
  fileData,
  formValue,
  hostileJson,
} from './bodies.arbitraries';
import { RIGHT_PASSPHRASE } from './fixtures';
import { LISTED_EMAIL } from './request-fixtures';
import { shortHostileString, validPayload, validUrl } from './values.arbitraries';

/*
 * Bodies of the requests' endpoints (issue 28): the owner's create (`{request: {...}}`, its form
 * and multipart spellings `request[…]`), the responder's answer (`{response: {...}}`,
 * `response[…]`) and the one-time code's `{email}`. Like a push create: a valid object with up to
 * four fields mutated (a hostile value, null, removed, or an unknown key).
 */

export const REQUEST_FIELDS = [
  'request',
  'name',
  'note',
  'close_after_duration',
  'expire_after_days',
  'expire_after_duration',
  'expire_after_views',
  'answer_expire_after_days',
  'deletable_by_viewer',
  'retrieval_step',
  'passphrase',
  'response_file_attachments',
  'include_requestor',
  'answerable_by',
  'answerable_emails',
  'notify_emails_to',
  'notify_emails_to_locale',
  'notify_owner_on_answer',
  'attachment_downloads',
  'files',
] as const;

export const RESPONSE_FIELDS = ['payload', 'kind', 'passphrase', 'email', 'code', 'files'] as const;

const validRequestFields = fc.record(
  {
    name: fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary-ascii', maxLength: 8 })),
    note: fc.string({ maxLength: 30 }),
    window: fc.oneof(
      fc.record({ close_after_duration: fc.integer({ min: 0, max: 17 }) }),
      fc.record({ expire_after_days: fc.oneof(fc.integer({ min: 1, max: 90 }), fc.constant('7')) }),
      fc.record({ expire_after_duration: fc.integer({ min: 0, max: 17 }) }),
      fc.constant({}),
    ),
    expire_after_views: fc.integer({ min: 1, max: 100 }),
    answer_expire_after_days: fc.integer({ min: 1, max: 90 }),
    deletable_by_viewer: fc.oneof(fc.boolean(), fc.constantFrom('yes', 'off')),
    retrieval_step: fc.boolean(),
    passphrase: fc.constantFrom('', RIGHT_PASSPHRASE),
    response_file_attachments: fc.boolean(),
    include_requestor: fc.oneof(fc.boolean(), fc.constant('true')),
    answerable: fc.oneof(
      fc.constant({ answerable_by: 'anyone' }),
      fc.constant({ answerable_by: 'users' }),
      fc.constantFrom(
        { answerable_by: 'emails', answerable_emails: LISTED_EMAIL },
        { answerable_by: 'emails', answerable_emails: ['a@example.test', 'B@Example.test'] },
        {
          answerable_by: 'emails',
          answerable_emails: 'a@x.test,b@x.test,c@x.test,d@x.test,e@x.test,f@x.test',
        },
      ),
    ),
    notify_emails_to: fc.constantFrom('n@example.org', 'n@example.org, m@example.org', ''),
    notify_emails_to_locale: fc.constantFrom('en', 'EN', 'xx'),
    notify_owner_on_answer: fc.boolean(),
    attachment_downloads: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.constantFrom(0, 11, '3')),
  },
  { requiredKeys: [] },
);

type Mutation = { field: string; value: JsonLike | undefined };

const mutation = (fields: readonly string[]): fc.Arbitrary<Mutation> =>
  fc.oneof(
    { arbitrary: fc.record({ field: fc.constantFrom(...fields), value: hostileJson }), weight: 8 },
    {
      arbitrary: fc.record({ field: fc.constantFrom(...fields), value: fc.constant(undefined) }),
      weight: 1,
    },
    { arbitrary: fc.record({ field: fc.constantFrom(...fields), value: fc.constant(null) }), weight: 1 },
    {
      arbitrary: fc.record({
        field: fc.oneof(
          shortHostileString,
          fc.constantFrom('access_token', '__proto__', 'constructor', 'id', 'owner', 'state', 'account_id'),
        ),
        value: hostileJson,
      }),
      weight: 2,
    },
  );

function applyMutations(o: { [k: string]: JsonLike }, mutations: Mutation[]): { [k: string]: JsonLike } {
  for (const { field, value } of mutations) {
    if (value === undefined) delete o[field];
    else Object.defineProperty(o, field, { value, enumerable: true, writable: true, configurable: true });
  }
  return o;
}

/** The `request` object of a create. */
export const requestObject: fc.Arbitrary<{ [k: string]: JsonLike }> = fc
  .tuple(validRequestFields, validPayload, fc.array(mutation(REQUEST_FIELDS), { maxLength: 4 }))
  .map(([fields, message, mutations]) => {
    const { window, answerable, ...rest } = fields;
    return applyMutations(
      {
        request: message,
        ...(window ?? {}),
        ...((answerable ?? {}) as { [k: string]: JsonLike }),
        ...(rest as { [k: string]: JsonLike }),
      },
      mutations,
    );
  });

/** `{request: …}`, now and then with the top-level `account_id` (ignored) or another key. */
export const requestCreateObject = fc
  .tuple(
    requestObject,
    fc.option(fc.constantFrom('account_id', 'response', 'push'), { freq: 5 }),
    hostileJson,
  )
  .map(([request, extra, v]): { [k: string]: JsonLike } => ({
    request,
    ...(extra ? Object.fromEntries([[extra, v]]) : {}),
  }));

/** The `response` object of an answer: mostly one that could be accepted. */
export const responseObject: fc.Arbitrary<{ [k: string]: JsonLike }> = fc
  .tuple(
    fc.record(
      {
        kind: fc.constantFrom('text', 'text', 'url', 'qr'),
        passphrase: fc.oneof(
          { arbitrary: fc.constant(RIGHT_PASSPHRASE), weight: 4 },
          { arbitrary: fc.constantFrom('wrong', ''), weight: 1 },
        ),
        email: fc.constantFrom(LISTED_EMAIL, 'other@example.test'),
        code: fc.constantFrom('000000', '123456', 'abcdef'),
      },
      { requiredKeys: ['kind'] },
    ),
    validPayload,
    validUrl,
    fc.array(mutation(RESPONSE_FIELDS), { maxLength: 3 }),
  )
  .map(([fields, text, url, mutations]) =>
    applyMutations({ payload: fields.kind === 'url' ? url : text, ...fields }, mutations),
  );

export const respondObject = responseObject.map((response): { [k: string]: JsonLike } => ({ response }));

/** A code request's body: an address (listed or not), or hostile. */
export const codeObject: fc.Arbitrary<{ [k: string]: JsonLike }> = fc.record(
  {
    email: fc.oneof(
      {
        arbitrary: fc.constantFrom<JsonLike>(LISTED_EMAIL, 'LISTED@example.test', 'nobody@example.test'),
        weight: 5,
      },
      { arbitrary: fc.constantFrom<JsonLike>('', ' ', 'x'.repeat(300), null), weight: 1 },
      { arbitrary: hostileJson, weight: 3 },
    ),
    other: hostileJson,
  },
  { requiredKeys: [] },
);

export const codePairs: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(
    fc.constantFrom('email', 'email', 'email[]', 'x'),
    fc.oneof(fc.constantFrom(LISTED_EMAIL, 'nobody@example.test', ''), shortHostileString),
  ),
  { maxLength: 3 },
);

const VALID_REQUEST_FORM: Record<string, string> = {
  name: 'a name',
  note: 'a note',
  expire_after_days: '3',
  expire_after_views: '2',
  retrieval_step: 'on',
  deletable_by_viewer: 'false',
  passphrase: '',
  include_requestor: 'true',
  answerable_by: 'anyone',
  attachment_downloads: '3',
  notify_owner_on_answer: 'false',
};

/** Form pairs under `root[…]`: the required field, some valid ones, hostile values, re-keyed ones. */
function rootFormPairs(
  root: string,
  required: [string, fc.Arbitrary<string>],
  fields: readonly string[],
  valid: Record<string, string>,
): fc.Arbitrary<[string, string][]> {
  const [first, value] = required;
  return fc
    .tuple(
      value,
      fc.subarray(Object.keys(valid), { maxLength: Math.min(4, Object.keys(valid).length) }),
      fc.array(fc.tuple(fc.constantFrom(...fields), formValue), { maxLength: 4 }),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom(...fields)), { maxLength: 3 }),
    )
    .chain(([v, keep, extra, rekey]) =>
      fc.tuple(...rekey.map(([, f]) => bracketKey(root, f))).map((keys): [string, string][] => {
        const pairs: [string, string][] = [[`${root}[${first}]`, v]];
        for (const f of keep) pairs.push([`${root}[${f}]`, valid[f] ?? '1']);
        for (const [f, x] of extra) pairs.push([`${root}[${f}]`, x]);
        rekey.forEach(([i], j) => {
          const at = i % pairs.length;
          pairs[at] = [keys[j]!, pairs[at]![1]];
        });
        return pairs;
      }),
    );
}

export const requestFormPairs = rootFormPairs(
  'request',
  ['request', validPayload],
  REQUEST_FIELDS,
  VALID_REQUEST_FORM,
);
export const responseFormPairs = rootFormPairs('response', ['payload', validPayload], RESPONSE_FIELDS, {
  kind: 'text',
  passphrase: RIGHT_PASSPHRASE,
});

/** Field and file parts under `root[…]`: files in `root[files][]` mostly, else in wrong fields. */
export const partsOf = (root: string, pairs: fc.Arbitrary<[string, string][]>): fc.Arbitrary<Part[]> =>
  fc
    .tuple(
      pairs,
      fc.array(
        fc.record({
          name: fc.oneof(
            { arbitrary: fc.constantFrom(`${root}[files][]`, `${root}[files]`), weight: 6 },
            {
              arbitrary: fc.constantFrom(`${root}[payload]`, 'file', 'files', `${root}[files][0]`, ''),
              weight: 2,
            },
          ),
          filename: fc.oneof(fc.constantFrom(...FILE_NAMES), shortHostileString),
          data: fileData,
        }),
        { maxLength: 2 },
      ),
      fc.boolean(),
    )
    .map(([ps, files, filesFirst]) => {
      const fields: Part[] = ps.map(([name, v]) => ({ name, data: Buffer.from(v, 'utf8') }));
      const fileParts: Part[] = files.map((f) => ({
        name: f.name,
        filename: f.filename.replace(/"/g, '%22'),
        contentType: 'application/octet-stream',
        data: f.data,
      }));
      return filesFirst ? [...fileParts, ...fields] : [...fields, ...fileParts];
    });
