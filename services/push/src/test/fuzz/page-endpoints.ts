import fc from 'fast-check';
import {
  type JsonLike,
  type Part,
  fileData,
  FILE_NAMES,
  formBodies,
  formValue,
  jsonBodies,
  multipartBodiesOf,
  noBody,
  otherMediaBodies,
} from './bodies.arbitraries';
import { compose, getOrHead, notRoutingOrLimit, pageSuffix, tokenPath, withBodyRarely } from './compose';
import type { Endpoint, EndpointName, FuzzInput } from './catalogue';
import { RIGHT_PASSPHRASE, type Fixture } from './fixtures';
import { type Header, formOrigin, forwardedFor, miscHeaders } from './headers.arbitraries';
import type { HttpResult } from './http-send';
import { type PathPiece, queryString, urlTokenSegment } from './paths.arbitraries';
import { LISTED_EMAIL } from './request-fixtures';
import { codePairs } from './requests.arbitraries';
import { percentEncode, shortHostileString, validPayload } from './values.arbitraries';

/*
 * The anonymous pages added with issue 29 (pools: page-fixtures.ts). What "reaching validation"
 * means for them (pages answer HTML for every error, never JSON: the handler's own refusals are
 * told from the router's 404 by their text):
 *
 * - The responder's pages (`/respond/:t`, its answer, code and files): any answer but 429, the
 *   router's 404 and the same-origin guard's 403 ("can only be sent from its own page", which runs
 *   before the form is read). The handler's 404 ("closed or does not exist", "This file does not
 *   exist") is its verdict on the token or file: the pools hold closed requests on purpose. A
 *   refusal there may add up to `refusalAudits` request audit entries (the refusal's own
 *   `answer_refused` or `failed_passphrase`, and `link_opened` when the form is shown again with
 *   the problem) and must change nothing else; a download's refusal (404, 410) changes nothing.
 * - The receipt (`/receipt/:r`, its expire): any answer but 429, the router's 404 and the
 *   same-origin guard's 403; "This status link does not exist" is the handler's 404. Refusals
 *   change nothing: no push expired, no audit entry.
 * - "Download all" (`/api/v2/files/archive`): any answer but 429 and the router's 404; the link's
 *   one refusal (404 "This download link is invalid, used up or expired.") counts, and changes
 *   nothing: no download counted.
 * - `/about` and the trailing-punctuation redirects: any answer but 404 and 429; a redirect must
 *   stay on this site (a path, never `//host` or a backslash).
 *
 * Every error of these pages (not the archive's, under the API) must be an HTML page: people never
 * see JSON. The responder's pages are visited anonymously mostly, else by the fixture's signed-in
 * person (web-session.ts), whose posts carry their CSRF token first, or a wrong one, or none (403),
 * or files before it (403: a signed-in person's files are admitted only after the token).
 */

const text = (body: Buffer) => body.toString('utf8');
const REQUEST_GONE = 'This request is closed or does not exist';
const CROSS_SITE = 'can only be sent from its own page';

/** Not the router's 404 (the handler's 404 says one of `verdicts`), not a 429. */
const handlerAnswered =
  (...verdicts: string[]) =>
  (status: number, body: Buffer): boolean =>
    status !== 429 && !(status === 404 && !verdicts.some((v) => text(body).includes(v)));

/** Also not the same-origin guard's 403: the form was not read. */
const formAnswered =
  (...verdicts: string[]) =>
  (status: number, body: Buffer): boolean =>
    handlerAnswered(...verdicts)(status, body) && !(status === 403 && text(body).includes(CROSS_SITE));

/** The answer form's fields as the page posts them (`payload`, `passphrase`, `email`, `code`, `csrf`). */
const respondPagePairs: fc.Arbitrary<[string, string][]> = fc
  .tuple(
    fc.oneof({ arbitrary: validPayload, weight: 8 }, { arbitrary: formValue, weight: 2 }),
    fc.record(
      {
        passphrase: fc.oneof(
          { arbitrary: fc.constant(RIGHT_PASSPHRASE), weight: 4 },
          { arbitrary: fc.constantFrom('wrong', ''), weight: 1 },
        ),
        email: fc.constantFrom(LISTED_EMAIL, 'other@example.test', ' '),
        code: fc.constantFrom('000000', 'abcdef', ''),
      },
      { requiredKeys: [] },
    ),
    fc.array(
      fc.tuple(
        fc.constantFrom(
          'payload',
          'payload[]',
          'passphrase',
          'passphrase[x]',
          'response[payload]',
          'files',
          'csrf',
          'x',
        ),
        formValue,
      ),
      { maxLength: 3 },
    ),
    fc.boolean(),
  )
  .map(([payload, fields, extra, dropPayload]): [string, string][] => [
    ...(dropPayload && extra.length > 0 ? [] : [['payload', payload] as [string, string]]),
    ...Object.entries<string>(fields),
    ...extra,
  ]);

/** The page's multipart answer: its fields, and files in `files` mostly (else in other fields). */
const respondPageParts = (pairs: fc.Arbitrary<[string, string][]>): fc.Arbitrary<Part[]> =>
  fc
    .tuple(
      pairs,
      fc.array(
        fc.record({
          name: fc.oneof(
            { arbitrary: fc.constant('files'), weight: 6 },
            { arbitrary: fc.constantFrom('payload', 'files[]', 'response[files][]', ''), weight: 1 },
          ),
          filename: fc.oneof(fc.constantFrom(...FILE_NAMES), shortHostileString),
          data: fileData,
        }),
        { maxLength: 2 },
      ),
      fc.boolean(),
    )
    .map(([pairs, files, filesFirst]) => {
      const fields: Part[] = pairs.map(([name, v]) => ({ name, data: Buffer.from(v, 'utf8') }));
      const fileParts: Part[] = files.map((f) => ({
        name: f.name,
        filename: f.filename.replace(/"/g, '%22'),
        contentType: 'application/octet-stream',
        data: f.data,
      }));
      return filesFirst ? [...fileParts, ...fields] : [...fields, ...fileParts];
    });

/** What a receipt's expire form posts: nothing, or junk (the form reads at most 5 fields of 2 kB). */
const expirePairs: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(fc.constantFrom('csrf', 'confirm', '_method', 'x'), formValue),
  { maxLength: 3 },
);

/**
 * People never see JSON: a page's error is an HTML page (but for the 431 of Node's HTTP parser,
 * headers too large, answered before the app sees the request).
 */
function htmlErrors(res: HttpResult): string | undefined {
  if (res.status < 400 || res.status === 431) return undefined;
  return /^text\/html/i.test(res.headers['content-type'] ?? '')
    ? undefined
    : 'a page error not answered as HTML';
}

/** A redirect stays on this site (resolved as a browser resolves it); errors are pages. */
function sameSiteRedirect(res: HttpResult): string | undefined {
  if (res.status < 300 || res.status >= 400) return htmlErrors(res);
  const here = 'http://push.test';
  const location = res.headers.location ?? '';
  return URL.parse(location, here)?.origin === here && location.startsWith('/')
    ? undefined
    : 'redirect off this site (Location not a same-site path)';
}

/** What people paste after a link in a sentence (trailing-punctuation.ts), raw or percent-encoded. */
const PUNCTUATION = [
  '.',
  ',',
  ';',
  ':',
  '!',
  '?',
  ')',
  ']',
  "'",
  '%22',
  '%2E',
  '%20',
  '%C2%A0',
  '.)',
  '...',
  '%29.',
];
/** Spellings around the redirect that must not lead anywhere else. */
/** The language selector's form: offered languages or not, and return paths that try to leave the site. */
const languagePairs: fc.Arbitrary<[string, string][]> = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constant('lang'),
      fc.oneof(fc.constantFrom('de', 'pt-BR', 'pl', 'en-XA', 'pt-br', 'xx', '', 'de\r\n'), formValue),
    ),
    fc.tuple(
      fc.constant('back'),
      fc.oneof(
        fc.constantFrom(
          '/',
          '/pushes',
          '/p/abc?passphrase=x',
          '//evil.test/',
          '/\\evil.test',
          '\\/evil.test',
          'https://evil.test/',
          'javascript:alert(1)',
          '/\t/evil.test',
          '/%2F%2Fevil.test',
          '/x\r\nSet-Cookie: a=b',
          ' /x',
        ),
        formValue,
      ),
    ),
    fc.tuple(fc.constantFrom('x', 'lang[]', 'back[]'), formValue),
  ),
  { maxLength: 4 },
);

const HOSTILE_TRAILING = [
  '/p/.',
  '/p/%2F.',
  '/p//evil.test.',
  '/p/%2F%2Fevil.test.',
  '/p/%5C%5Cevil.test.',
  '/respond/%ZZ.',
  '/p/x/%2E%2E/%2E%2E/%2Fevil.test.',
  '/r/%E0%A4%A.',
  '/f/%00.',
  '/p/a/b/c.',
];

export function pageEndpoints(fx: Fixture): Endpoint[] {
  const pages = fx.pages;
  const ownOrigin = new URL(fx.push.url).origin;
  const push = (
    name: EndpointName,
    input: fc.Arbitrary<FuzzInput>,
    options: Pick<Endpoint, 'reached' | 'refusalAudits' | 'verdict'>,
  ): Endpoint => ({ name, service: 'push', input, ...options });
  const page = [forwardedFor, miscHeaders];
  // The form's own page mostly: the same-origin guard's 403 (no verdict on the form) stays well
  // under a fifth of the inputs, with every cross-site spelling of formOrigin still in the mix.
  const origin: fc.Arbitrary<Header[]> = fc.oneof(
    { arbitrary: fc.constant<Header[]>([['Sec-Fetch-Site', 'same-origin']]), weight: 1 },
    { arbitrary: formOrigin(ownOrigin), weight: 2 },
  );
  const posted = [origin, forwardedFor, miscHeaders];
  // The code route allows 10 code requests per address in 10 minutes, counted with the API's code
  // requests (whose inputs ran before): each input its own address, but now and then.
  const ownAddress: fc.Arbitrary<Header[]> = fc.oneof(
    { arbitrary: fc.ipV4().map((ip): Header[] => [['X-Forwarded-For', ip]]), weight: 40 },
    { arbitrary: forwardedFor, weight: 1 },
  );

  // ---- A requester's file from the responder's page: the request's own mostly.
  const allFileIds = pages.files.flatMap((r) => r.fileIds);
  const fileIdOf = (own: readonly string[]): fc.Arbitrary<PathPiece> =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...own).map((id) => ({ text: id, tag: 'valid' })), weight: 24 },
      {
        arbitrary: fc.constantFrom(...own).map((id) => ({ text: id.toUpperCase(), tag: 'id:upper' })),
        weight: 1,
      },
      { arbitrary: fc.constantFrom(...allFileIds).map((id) => ({ text: id, tag: 'id:other' })), weight: 2 },
      { arbitrary: fc.uuid().map((id) => ({ text: id, tag: 'id:unknown' })), weight: 1 },
      {
        arbitrary: shortHostileString.map((x) => ({ text: percentEncode(x), tag: 'id:hostile' })),
        weight: 2,
      },
    );
  const attachmentPath: fc.Arbitrary<PathPiece> = fc
    .constantFrom(...pages.files)
    .chain((r) => fc.tuple(urlTokenSegment([r.token]), fileIdOf(r.fileIds), pageSuffix))
    .map(([seg, id, suf]) => ({
      text: `/respond/${seg.text}/files/${id.text}${suf.text}`,
      tag: [seg.tag, id.tag === 'valid' ? '' : id.tag, suf.tag].filter(Boolean).join(' ') || 'valid',
    }));

  /** The answer's bodies, the visitor's CSRF field first (where a signed-in person's must be). */
  const respondBody = (csrf: [string, string][]) => {
    const pairs = respondPagePairs.map((ps): [string, string][] => [...csrf, ...ps]);
    return fc.oneof(
      { arbitrary: formBodies(pairs), weight: 12 },
      { arbitrary: multipartBodiesOf(respondPageParts(pairs), 'response'), weight: 5 },
      {
        arbitrary: jsonBodies(pairs.map((ps) => Object.fromEntries(ps) as { [k: string]: JsonLike })),
        weight: 1,
      },
      { arbitrary: otherMediaBodies, weight: 1 },
      { arbitrary: noBody, weight: 1 },
    );
  };
  // Who visits: anonymous mostly, else the signed-in person (their form's CSRF token, or not).
  const { cookie, csrf } = fx.signedIn;
  const session: Header[] = [['Cookie', cookie]];
  const visitor = fc.oneof(
    { arbitrary: fc.constant({ cookie: [] as Header[], csrf: [] as [string, string][] }), weight: 8 },
    { arbitrary: fc.constant({ cookie: session, csrf: [['csrf', csrf]] as [string, string][] }), weight: 4 },
    {
      arbitrary: fc
        .constantFrom<[string, string][]>(
          [],
          [['csrf', 'x'.repeat(csrf.length)]],
          [['csrf', csrf.toUpperCase()]],
          [['csrf', csrf.slice(1)]],
          [
            ['csrf', 'x'],
            ['csrf', csrf],
          ],
        )
        .map((c) => ({ cookie: session, csrf: c })),
      weight: 2,
    },
  );
  const visiting: fc.Arbitrary<Header[]> = fc.oneof(
    { arbitrary: fc.constant<Header[]>([]), weight: 3 },
    { arbitrary: fc.constant(session), weight: 1 },
  );

  return [
    push(
      'GET /respond/:t[/done]',
      getOrHead.chain((method) =>
        compose({
          method,
          path: fc.oneof(
            { arbitrary: tokenPath('/respond/', pages.respond, '', pageSuffix), weight: 6 },
            { arbitrary: tokenPath('/respond/', pages.respond, '/done', pageSuffix), weight: 1 },
          ),
          query: queryString(),
          headers: [visiting, ...page],
          body: withBodyRarely(otherMediaBodies),
        }),
      ),
      { reached: handlerAnswered(REQUEST_GONE), refusalAudits: 1, verdict: htmlErrors },
    ),
    push(
      'POST /respond/:t',
      visitor.chain((v) =>
        compose({
          method: 'POST',
          path: tokenPath('/respond/', pages.respond, '', pageSuffix),
          query: queryString(),
          headers: [fc.constant(v.cookie), ...posted],
          body: respondBody(v.csrf),
        }),
      ),
      { reached: formAnswered(REQUEST_GONE), refusalAudits: 2, verdict: htmlErrors },
    ),
    push(
      'POST /respond/:t/code',
      visitor.chain((v) =>
        compose({
          method: 'POST',
          path: tokenPath('/respond/', pages.code, '/code', pageSuffix),
          query: queryString(),
          headers: [fc.constant(v.cookie), origin, ownAddress, miscHeaders],
          body: fc.oneof(
            {
              arbitrary: formBodies(codePairs.map((ps): [string, string][] => [...v.csrf, ...ps])),
              weight: 12,
            },
            { arbitrary: otherMediaBodies, weight: 1 },
            { arbitrary: noBody, weight: 1 },
          ),
        }),
      ),
      { reached: formAnswered(REQUEST_GONE), refusalAudits: 2, verdict: htmlErrors },
    ),
    push(
      'GET /respond/:t/files/:id',
      getOrHead.chain((method) =>
        compose({
          method,
          path: attachmentPath,
          query: queryString(),
          headers: [visiting, ...page],
          body: withBodyRarely(otherMediaBodies),
        }),
      ),
      {
        reached: handlerAnswered(REQUEST_GONE, 'This file does not exist'),
        refusalAudits: 0,
        verdict: htmlErrors,
      },
    ),
    push(
      'GET /receipt/:r[/expire]',
      compose({
        method: 'GET',
        path: fc
          .constantFrom('', '', '/expire')
          .chain((rest) => tokenPath('/receipt/', pages.receipts, rest, pageSuffix)),
        query: queryString(),
        headers: page,
        body: withBodyRarely(otherMediaBodies),
      }),
      { reached: handlerAnswered('This status link does not exist'), verdict: htmlErrors },
    ),
    push(
      'POST /receipt/:r/expire',
      compose({
        method: 'POST',
        path: tokenPath('/receipt/', pages.receipts, '/expire', pageSuffix),
        query: queryString(),
        headers: posted,
        body: fc.oneof(
          { arbitrary: noBody, weight: 6 },
          { arbitrary: formBodies(expirePairs), weight: 4 },
          { arbitrary: otherMediaBodies, weight: 1 },
        ),
      }),
      { reached: formAnswered('This status link does not exist'), verdict: htmlErrors },
    ),
    push(
      'GET /files/archive',
      getOrHead.chain((method) => compose({ method, path: archiveInput(pages.archives), headers: page })),
      { reached: handlerAnswered('download link') },
    ),
    push(
      'GET /about and trailing punctuation',
      fc.constantFrom('GET', 'GET', 'GET', 'GET', 'GET', 'HEAD').chain((method) =>
        compose({
          method,
          path: fc.oneof(
            { arbitrary: pageSuffix.map((s) => ({ text: `/about${s.text}`, tag: s.tag })), weight: 4 },
            {
              arbitrary: fc
                .tuple(
                  fc.constantFrom('/p/', '/p/', '/respond/', '/r/', '/f/'),
                  fc.constantFrom(...fx.pools.pageGet, ...pages.respond),
                  fc.constantFrom('', '/r'),
                  fc.constantFrom(...PUNCTUATION),
                )
                .map(([prefix, t, rest, p]) => ({ text: `${prefix}${t}${rest}${p}`, tag: 'valid' })),
              weight: 8,
            },
            {
              arbitrary: fc.constantFrom(...HOSTILE_TRAILING).map((t) => ({ text: t, tag: `hostile:${t}` })),
              weight: 1,
            },
          ),
          query: queryString(),
          headers: page,
        }),
      ),
      { reached: notRoutingOrLimit, verdict: sameSiteRedirect },
    ),
    push(
      'POST /language',
      compose({
        method: 'POST',
        path: fc.constantFrom({ text: '/language', tag: 'valid' }),
        query: queryString(),
        headers: posted,
        body: fc.oneof(
          { arbitrary: formBodies(languagePairs), weight: 8 },
          { arbitrary: noBody, weight: 1 },
          { arbitrary: otherMediaBodies, weight: 1 },
        ),
      }),
      { reached: notRoutingOrLimit, verdict: sameSiteRedirect },
    ),
  ];
}

/** "Download all" links: mostly as handed out; else tampered with (each refusal a 404, nothing spent). */
function archiveInput(archives: readonly string[]): fc.Arbitrary<PathPiece> {
  const HOW = [
    'sig-truncated',
    'sig-swapped',
    'file-from-other',
    'file-duplicated',
    'file-dropped',
    'file-no-dot',
    'file-not-uuid',
    'file-array',
    'push-array',
    'too-many',
    'no-files',
    'push-changed',
    'view-changed',
    'expires-changed',
    'param-missing',
    'extra-param',
    'json-suffix',
    'upper',
    'no-query',
  ] as const;
  return fc
    .tuple(
      fc.constantFrom(...archives),
      fc.oneof(
        { arbitrary: fc.constant('as-is' as const), weight: 24 },
        { arbitrary: fc.constantFrom(...HOW), weight: 8 },
      ),
      shortHostileString,
    )
    .map(([link, how, junk]): PathPiece => {
      const u = new URL(link, 'http://x');
      const q = u.searchParams;
      const other = new URL(archives[(archives.indexOf(link) + 1) % archives.length]!, 'http://x')
        .searchParams;
      const files = q.getAll('file');
      const setFiles = (fs: string[]) => {
        q.delete('file');
        for (const f of fs) q.append('file', f);
      };
      let path = u.pathname;
      switch (how) {
        case 'sig-truncated':
          setFiles(files.map((f, i) => (i === 0 ? f.slice(0, -2) : f)));
          break;
        case 'sig-swapped': {
          const [a, b] = files.map((f) => f.split('.'));
          setFiles([`${a![0]}.${b![1]}`, `${b![0]}.${a![1]}`]);
          break;
        }
        case 'file-from-other':
          setFiles([other.getAll('file')[0]!]);
          break;
        case 'file-duplicated':
          setFiles([files[0]!, files[0]!]);
          break;
        case 'file-dropped':
          setFiles([files[1]!]);
          break;
        case 'file-no-dot':
          setFiles(files.map((f) => f.replace('.', '')));
          break;
        case 'file-not-uuid':
          setFiles([`${junk}.${files[0]!.split('.')[1]}`]);
          break;
        case 'file-array':
          q.delete('file');
          for (const f of files) q.append('file[]', f);
          break;
        case 'push-array':
          q.append('push[]', q.get('push') ?? '');
          q.delete('push');
          break;
        case 'too-many':
          setFiles(
            Array.from(
              { length: 101 },
              (_, i) => `${'0'.repeat(8)}-0000-4000-8000-${String(i).padStart(12, '0')}.x`,
            ),
          );
          break;
        case 'no-files':
          q.delete('file');
          break;
        case 'push-changed':
          q.set('push', other.get('push') ?? '');
          break;
        case 'view-changed':
          q.set('view', String(Number(q.get('view')) + 1));
          break;
        case 'expires-changed':
          q.set('expires', junk);
          break;
        case 'param-missing':
          q.delete(['push', 'view', 'expires'][junk.length % 3]!);
          break;
        case 'extra-param':
          q.append('sig', junk);
          break;
        case 'json-suffix':
          path += '.json';
          break;
        case 'upper':
          path = path.toUpperCase();
          break;
        case 'no-query':
          return { text: path, tag: `archive:${how}` };
        case 'as-is':
          break;
      }
      return { text: `${path}?${q.toString()}`, tag: how === 'as-is' ? 'valid' : `archive:${how}` };
    });
}
