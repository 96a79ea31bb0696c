import fc from 'fast-check';
import {
  type BodySpec,
  type JsonLike,
  createFormPairs,
  formBodies,
  hostileJson,
  jsonBodies,
  multipartBodies,
  multipartBodiesOf,
  noBody,
  otherMediaBodies,
  pageFormOverLimit,
  pageFormPairs,
  pushObject,
} from './bodies.arbitraries';
import {
  compose,
  fixedPath,
  getOrHead,
  notRoutingOrLimit,
  pageSuffix,
  tokenPath,
  withBodyRarely,
} from './compose';
import { RIGHT_PASSPHRASE, type Fixture } from './fixtures';
import { pageEndpoints } from './page-endpoints';
import type { Endpoint, EndpointName, FuzzInput } from './catalogue';

export {
  ENDPOINT_WEIGHTS,
  type Endpoint,
  type EndpointName,
  type FuzzInput,
  allocate,
  isMultipart,
} from './catalogue';
import {
  codeObject,
  codePairs,
  partsOf,
  requestCreateObject,
  requestFormPairs,
  respondObject,
  responseFormPairs,
} from './requests.arbitraries';
import {
  type AuthProfile,
  type Header,
  authorization,
  formOrigin,
  forwardedFor,
  miscHeaders,
  passphraseHeader,
} from './headers.arbitraries';
import {
  type PathPiece,
  pageParam,
  passphraseParam,
  pathSuffix,
  queryString,
  urlTokenSegment,
} from './paths.arbitraries';
import { EDGE_STRINGS, asHeaderText, percentEncode, shortHostileString } from './values.arbitraries';

/*
 * Every endpoint of both services, each with the generator of its inputs and what "reaching
 * validation" means for it. Push: the operations of the OpenAPI document (services/push/src/http/
 * openapi/operations.ts), the web app's create form (pages/create.routes.ts) and the recipient
 * pages (pages/pages.routes.ts); auth: the endpoints table of docs/auth-service.md (token, introspection,
 * revocation, discovery, JWKS). The API endpoints get the Authorization variants of
 * headers.arbitraries.ts: the auth service's access tokens, a user's personal API tokens
 * (`Bearer spu_…`) and Password Pusher's legacy `X-User-Email` + `X-User-Token` pair, valid and
 * not; a refusal of credentials is a 401 (403 for a missing scope), never a 5xx.
 *
 * "Reached validation" means the request got past routing and the general rate limits into the
 * endpoint's own handling of its input (media type, token, scope, body, fields, url_token,
 * passphrase, page, link): the answer is the endpoint's decision about this input. Per endpoint:
 *
 * - Push API routes with a `:url_token` (retrieve, reveal, preview, audit, DELETE): any answer
 *   but 404 and 429. A 404 there is either the router (the path was not this endpoint) or an
 *   unknown token; either way the handler's checks were not exercised. Everything else (200,
 *   400, 401 invalid_token / unauthorized / passphrase_required, 403, 413, 415, 422) is the
 *   endpoint judging the input.
 * - POST /pushes, the lists, /version, /openapi, /docs: any answer but 404 and 429 (404 can only
 *   be the router there; every other answer comes from the endpoint's steps).
 * - GET /files/:id: any answer but 429 and the router's own 404 (body "Not found."). A download
 *   link that is not good now answers 404 by design, whatever the reason (forged, for another
 *   file, used up): that 404 ("This download link is invalid, used up or expired.") is the
 *   handler's verdict on the link, so it counts; most inputs are valid links anyway.
 * - Recipient pages (GET /p/:t, /p/:t/r, POST /p/:t[/r], POST /p/:t/delete, legacy /f /r
 *   redirects): any answer but 404 and 429 (their pools are never used up or deleted by other
 *   endpoints, so a 404 is an unknown or malformed token).
 * - The create form, GET /: any answer but 404 and 429 (the page is the same for everyone; a 404
 *   is a path that is not `/`).
 * - The create form, POST /: any answer but 403, 404 and 429. The CSRF guard (Sec-Fetch-Site /
 *   Origin, as on the recipient pages' forms) runs before the body is read, so its 403 is not the
 *   form judging the input (anonymous creation is on in the suite, so no other 403 is expected);
 *   201 (the page with the link) and 422 (the form again with its problems) are the form's
 *   verdict on the fields, and 400/413/415 the body reader's on the body (bad encoding, over the
 *   size or the 20 parameters, an unsupported charset), as for POST /pushes. A body of another
 *   media type is not read: its fields are missing, a 422.
 * - Webhook routes (/webhooks…): any answer but 429 and the router's own 404. An endpoint or
 *   delivery that is not the caller's (or cannot be an id) answers 404 "Webhook not found." by
 *   design: that is the handler's verdict, so it counts. PATCH validates its body before it looks
 *   the endpoint up; DELETE is sent to ids that are not the caller's (the fixture's stay).
 * - POST /requests/:t/code: any answer but 404 and 429 (the route answers the same 202 for any
 *   token, listed address or not: a 404 is the router's). Each input comes from its own client
 *   address (X-Forwarded-For, the suite's proxy is trusted) but now and then: the route allows 10
 *   code requests per IP in 10 minutes (PUSH_REQUEST_CODE_REQUESTS_PER_IP), and its 429 is no
 *   verdict on the input.
 * - GET /requests/:t/files/:id: any answer but 429 and the router's own 404. "File not found." is
 *   the handler's verdict on the file id (unknown, another request's, not a uuid), so it counts;
 *   410 `gone` (downloads used up) too.
 * - The anonymous pages of issue 29 (the responder's pages, the receipt, "Download all", /about and
 *   the trailing-punctuation redirects): see page-endpoints.ts.
 * - Auth endpoints: any answer but 404 and 429 (oidc-provider answers every input of a known
 *   route itself: 200, 400 invalid_request …, 401 invalid_client, 405).
 */

/** The create's `{push: …}` object (and sometimes a top-level `files` or token). */
const createObject = pushObject.map((push): { [k: string]: JsonLike } => ({ push }));

const revealObject: fc.Arbitrary<{ [k: string]: JsonLike }> = fc.record(
  {
    passphrase: fc.oneof(
      { arbitrary: fc.constant<JsonLike>(RIGHT_PASSPHRASE), weight: 3 },
      { arbitrary: fc.constantFrom<JsonLike>('wrong', '', ' ', null), weight: 2 },
      { arbitrary: hostileJson, weight: 3 },
    ),
    other: hostileJson,
  },
  { requiredKeys: [] },
);

/** A `notify_emails` body: valid-ish recipients and locale, or hostile values, or unknown keys. */
const notifyObject: fc.Arbitrary<{ [k: string]: JsonLike }> = fc.record(
  {
    notify_emails_to: fc.oneof(
      {
        arbitrary: fc.constantFrom<JsonLike>(
          'n@example.org',
          'n@example.org, m@example.org',
          'n@example.org,',
        ),
        weight: 4,
      },
      { arbitrary: hostileJson, weight: 3 },
    ),
    notify_emails_to_locale: fc.oneof(fc.constantFrom<JsonLike>('en', 'xx', null), hostileJson),
    notify_emails_include_sender: fc.oneof(fc.boolean(), hostileJson),
    other: hostileJson,
  },
  { requiredKeys: [] },
);

const notifyPairs: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(
    fc.constantFrom(
      'notify_emails_to',
      'notify_emails_to',
      'notify_emails_to_locale',
      'notify_emails_to[]',
      'x',
    ),
    fc.oneof(fc.constantFrom('n@example.org', 'en', ''), shortHostileString),
  ),
  { maxLength: 3 },
);

const revealPairs: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(
    fc.constantFrom(
      'passphrase',
      'passphrase',
      'passphrase',
      'passphrase[]',
      'passphrase[x]',
      'access_token',
      'x',
    ),
    fc.oneof(fc.constant(RIGHT_PASSPHRASE), fc.constantFrom('wrong', ''), shortHostileString),
  ),
  { maxLength: 3 },
);

/** A webhook endpoint's fields: valid-looking values mixed with hostile ones, any of them missing. */
const hostileWebhookObject: fc.Arbitrary<{ [k: string]: JsonLike }> = fc.record(
  {
    url: fc.oneof(
      {
        arbitrary: fc.constantFrom<JsonLike>(
          'https://hooks.example.test/a',
          'https://h.example.test:8443/p?q=1',
        ),
        weight: 4,
      },
      {
        arbitrary: fc.constantFrom<JsonLike>(
          'http://127.0.0.1/x',
          'ftp://x/',
          'https://u:p@h.test/',
          'https://h.test/#f',
          '/rel',
          '',
        ),
        weight: 3,
      },
      { arbitrary: hostileJson, weight: 3 },
    ),
    event_types: fc.oneof(
      {
        arbitrary: fc
          .subarray(['push.created', 'push.viewed', 'push.expired', 'push.failed_passphrase', 'push.eaten'])
          .map((a): JsonLike => a),
        weight: 4,
      },
      { arbitrary: hostileJson, weight: 3 },
    ),
    enabled: fc.oneof(
      { arbitrary: fc.boolean().map((b): JsonLike => b), weight: 3 },
      { arbitrary: hostileJson, weight: 2 },
    ),
    secret: hostileJson,
  },
  { requiredKeys: [] },
);

/** Mostly a body that could be accepted (a 201 or 200 now and then), else any mix. */
const webhookObject: fc.Arbitrary<{ [k: string]: JsonLike }> = fc.oneof(
  {
    arbitrary: fc.record({
      url: fc.constantFrom<JsonLike>('https://hooks.example.test/a', 'https://h.example.test:8443/p?q=1'),
      event_types: fc
        .subarray(['push.created', 'push.viewed', 'push.expired'], { minLength: 1 })
        .map((a): JsonLike => a),
    }),
    weight: 4,
  },
  { arbitrary: hostileWebhookObject, weight: 6 },
);

const webhookFormPairs: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(fc.constantFrom('url', 'event_types[]', 'enabled', 'x'), shortHostileString),
  { maxLength: 3 },
);

const webhookBodies = fc.oneof(
  { arbitrary: jsonBodies(webhookObject), weight: 12 },
  { arbitrary: formBodies(webhookFormPairs), weight: 2 },
  { arbitrary: otherMediaBodies, weight: 2 },
  { arbitrary: noBody, weight: 1 },
);

/** The router's 404 is not the handler's; "Webhook not found." is (see the comment above). */
const webhookReached = (status: number, body: Buffer) =>
  status !== 429 && !(status === 404 && !body.toString('utf8').includes('Webhook not found'));

/** An endpoint id: mostly the fixture's (some not the caller's), else unknown or hostile. */
const webhookId = (ids: readonly string[], ownFirst: boolean): fc.Arbitrary<PathPiece> => {
  const others = [
    { arbitrary: fc.uuid().map((id) => ({ text: id, tag: 'id:unknown' })), weight: 3 },
    { arbitrary: shortHostileString.map((x) => ({ text: percentEncode(x), tag: 'id:hostile' })), weight: 2 },
  ];
  return ownFirst
    ? fc.oneof(
        { arbitrary: fc.constantFrom(...ids).map((id) => ({ text: id, tag: 'valid' })), weight: 12 },
        ...others,
      )
    : fc.oneof(...others);
};

export function endpoints(fx: Fixture): Endpoint[] {
  const { tokens, pools } = fx;
  const api = '/api/v2';
  const common = (profile: AuthProfile): fc.Arbitrary<Header[]>[] => [
    authorization(tokens, profile),
    forwardedFor,
    miscHeaders,
  ];
  const retrieveHeaders = [...common('anonymous-first'), passphraseHeader(RIGHT_PASSPHRASE)];
  const ownOrigin = new URL(fx.push.url).origin;

  const push = (
    name: EndpointName,
    input: fc.Arbitrary<FuzzInput>,
    options: { reached?: Endpoint['reached'] } = {},
  ): Endpoint => ({
    name,
    service: 'push',
    input,
    reached: options.reached ?? notRoutingOrLimit,
  });

  // ---- POST /pushes: JSON, form, multipart (file pushes), other media types, no body.
  const createBody = fc.oneof(
    {
      arbitrary: jsonBodies(createObject, { huge: true }).map((b) => ({
        b,
        profile: 'anonymous-first' as const,
      })),
      weight: 48,
    },
    {
      arbitrary: formBodies(createFormPairs).map((b) => ({ b, profile: 'anonymous-first' as const })),
      weight: 18,
    },
    { arbitrary: multipartBodies.map((b) => ({ b, profile: 'token-first' as const })), weight: 18 },
    { arbitrary: otherMediaBodies.map((b) => ({ b, profile: 'anonymous-first' as const })), weight: 6 },
    { arbitrary: noBody.map((b) => ({ b, profile: 'anonymous-first' as const })), weight: 2 },
  );
  const createInput = createBody.chain(({ b, profile }) =>
    compose({
      method: 'POST',
      path: fixedPath(`${api}/pushes`),
      query: queryString(),
      headers: common(profile),
      body: fc.constant(b),
    }),
  );

  // ---- Download links: mostly as handed out; else tampered with.
  const link = fc.constantFrom(...fx.links);
  const linkInput = fc
    .tuple(
      link,
      fc.oneof(
        { arbitrary: fc.constant('as-is'), weight: 24 },
        {
          arbitrary: fc.constantFrom(
            'json-suffix',
            'extra-param',
            'reordered',
            'sig-truncated',
            'sig-swapped',
            'view-changed',
            'expires-changed',
            'push-changed',
            'param-missing',
            'param-repeated',
            'param-array',
            'id-hostile',
            'id-upper',
            'no-query',
          ),
          weight: 8,
        },
      ),
      shortHostileString,
    )
    .map(([l, how, junk]): PathPiece => {
      const u = new URL(l, 'http://x');
      const q = u.searchParams;
      const other = fx.links[(fx.links.indexOf(l) + 1) % fx.links.length]!;
      const otherQ = new URL(other, 'http://x').searchParams;
      let path = u.pathname;
      switch (how) {
        case 'json-suffix':
          path += '.json';
          break;
        case 'extra-param':
          q.append('x', junk);
          break;
        case 'reordered':
          q.sort();
          break;
        case 'sig-truncated':
          q.set('sig', (q.get('sig') ?? '').slice(0, -2));
          break;
        case 'sig-swapped':
          q.set('sig', otherQ.get('sig') ?? '');
          break;
        case 'view-changed':
          q.set('view', String(Number(q.get('view')) + 1));
          break;
        case 'expires-changed':
          q.set('expires', junk);
          break;
        case 'push-changed':
          q.set('push', otherQ.get('push') ?? '');
          break;
        case 'param-missing':
          q.delete('sig');
          break;
        case 'param-repeated':
          q.append('view', q.get('view') ?? '1');
          break;
        case 'param-array':
          q.append('sig[]', q.get('sig') ?? '');
          q.delete('sig');
          break;
        case 'id-hostile':
          path = `${api}/files/${percentEncode(junk)}`;
          break;
        case 'id-upper':
          path = path.toUpperCase();
          break;
        case 'no-query':
          return { text: path, tag: `link:${how}` };
        case 'as-is':
          break;
      }
      return { text: `${path}?${q.toString()}`, tag: how === 'as-is' ? 'valid' : `link:${how}` };
    });

  // ---- /webhooks: create, update, reads, actions (ids from the fixture, unknown or hostile).
  const hooks = `${api}/webhooks`;
  const idPath = (rest: fc.Arbitrary<string>, ownFirst = true): fc.Arbitrary<PathPiece> =>
    fc
      .tuple(webhookId(fx.webhooks.ids, ownFirst), rest, pathSuffix)
      .map(([id, r, suf]) => ({ text: `${hooks}/${id.text}${r}${suf.text}`, tag: `${id.tag}${suf.tag}` }));
  const msg = fc.oneof(
    { arbitrary: fc.constantFrom(...fx.webhooks.deliveries), weight: 6 },
    { arbitrary: fc.constant(`msg_${'0'.repeat(32)}`), weight: 1 },
    { arbitrary: shortHostileString.map(percentEncode), weight: 2 },
  );
  const webhookEndpoints: Endpoint[] = [
    push(
      'POST /webhooks',
      compose({
        method: 'POST',
        path: fixedPath(hooks),
        query: queryString(),
        headers: common('token-first'),
        body: webhookBodies,
      }),
      { reached: webhookReached },
    ),
    push(
      'PATCH /webhooks/:id',
      compose({
        method: 'PATCH',
        path: idPath(fc.constant('')),
        query: queryString(),
        headers: common('token-first'),
        body: webhookBodies,
      }),
      { reached: webhookReached },
    ),
    push(
      'GET /webhooks[/:id[/deliveries[/:msg]]]',
      compose({
        method: 'GET',
        path: fc.oneof(
          fixedPath(hooks),
          idPath(fc.constant('')),
          idPath(fc.constant('/deliveries')),
          idPath(msg.map((m) => `/deliveries/${m}`)),
        ),
        query: queryString(pageParam),
        headers: common('token-first'),
      }),
      { reached: webhookReached },
    ),
    push(
      'POST /webhooks/:id/(rotate|test|replay) and DELETE',
      fc.oneof(
        compose({
          method: 'POST',
          path: fc.oneof(
            idPath(fc.constant('/rotate')),
            idPath(fc.constant('/test')),
            idPath(msg.map((m) => `/deliveries/${m}/replay`)),
          ),
          query: queryString(),
          headers: common('token-first'),
          body: withBodyRarely(otherMediaBodies),
        }),
        compose({
          method: 'DELETE',
          path: idPath(fc.constant(''), false),
          query: queryString(),
          headers: common('token-first'),
        }),
      ),
      { reached: webhookReached },
    ),
  ];

  const pushEndpoints: Endpoint[] = [
    push('POST /pushes', createInput),
    push(
      'GET /pushes/:t',
      getOrHead.chain((method) =>
        compose({
          method,
          path: tokenPath(`${api}/pushes/`, pools.retrieve, ''),
          query: queryString(passphraseParam(RIGHT_PASSPHRASE)),
          headers: retrieveHeaders,
          body: withBodyRarely(otherMediaBodies),
        }),
      ),
    ),
    push(
      'POST /pushes/:t/reveal',
      compose({
        method: 'POST',
        path: tokenPath(`${api}/pushes/`, pools.retrieve, '/reveal'),
        query: queryString(passphraseParam(RIGHT_PASSPHRASE)),
        headers: retrieveHeaders,
        body: fc.oneof(
          { arbitrary: jsonBodies(revealObject), weight: 10 },
          { arbitrary: formBodies(revealPairs), weight: 5 },
          { arbitrary: otherMediaBodies, weight: 2 },
          { arbitrary: noBody, weight: 3 },
        ),
      }),
    ),
    push(
      'GET /pushes/:t/preview',
      compose({
        method: 'GET',
        path: tokenPath(`${api}/pushes/`, pools.read, '/preview'),
        query: queryString(),
        headers: common('anonymous-first'),
      }),
    ),
    push(
      'GET /pushes/:t/audit',
      compose({
        method: 'GET',
        path: tokenPath(`${api}/pushes/`, pools.read, '/audit'),
        query: queryString(pageParam),
        headers: common('token-first'),
      }),
    ),
    push(
      'POST /pushes/:t/notify_emails',
      compose({
        method: 'POST',
        path: tokenPath(`${api}/pushes/`, pools.read, '/notify_emails'),
        query: queryString(),
        headers: common('token-first'),
        body: fc.oneof(
          { arbitrary: jsonBodies(notifyObject), weight: 10 },
          { arbitrary: formBodies(notifyPairs), weight: 5 },
          { arbitrary: otherMediaBodies, weight: 2 },
          { arbitrary: noBody, weight: 2 },
        ),
      }),
    ),
    push(
      'DELETE /pushes/:t',
      compose({
        method: 'DELETE',
        path: tokenPath(`${api}/pushes/`, pools.remove, ''),
        query: queryString(),
        headers: common('anonymous-first'),
        body: withBodyRarely(otherMediaBodies),
      }),
    ),
    push(
      'GET /pushes/active',
      compose({
        method: 'GET',
        path: fixedPath(`${api}/pushes/active`),
        query: queryString(pageParam),
        headers: common('token-first'),
      }),
    ),
    push(
      'GET /pushes/expired',
      compose({
        method: 'GET',
        path: fixedPath(`${api}/pushes/expired`),
        query: queryString(pageParam),
        headers: common('token-first'),
      }),
    ),
    push(
      'GET /files/:id',
      getOrHead.chain((method) => compose({ method, path: linkInput, headers: common('anonymous-first') })),
      {
        reached: (status, body) =>
          status !== 429 && !(status === 404 && !body.toString('utf8').includes('download link')),
      },
    ),
    push(
      'GET /version',
      compose({
        method: 'GET',
        path: fixedPath(`${api}/version`),
        query: queryString(),
        headers: common('anonymous-first'),
      }),
    ),
    push(
      'GET /openapi',
      compose({
        method: 'GET',
        path: fixedPath(`${api}/openapi`),
        query: queryString(),
        headers: common('anonymous-first'),
      }),
    ),
    push(
      'GET /docs',
      compose({
        method: 'GET',
        path: fixedPath(`${api}/docs`),
        query: queryString(),
        headers: common('anonymous-first'),
      }),
    ),
    push(
      'GET /p/:t',
      getOrHead.chain((method) =>
        compose({
          method,
          path: tokenPath('/p/', pools.pageGet, '', pageSuffix),
          query: queryString(),
          headers: [forwardedFor, miscHeaders],
        }),
      ),
    ),
    push(
      'GET /p/:t/r',
      getOrHead.chain((method) =>
        compose({
          method,
          path: tokenPath('/p/', pools.pageGet, '/r', pageSuffix),
          query: queryString(),
          headers: [forwardedFor, miscHeaders],
        }),
      ),
    ),
    push(
      'POST /p/:t[/r]',
      compose({
        method: 'POST',
        path: fc.oneof(
          tokenPath('/p/', pools.pagePost, '', pageSuffix),
          tokenPath('/p/', pools.pagePost, '/r', pageSuffix),
        ),
        query: queryString(),
        headers: [formOrigin(ownOrigin), forwardedFor, miscHeaders],
        body: fc.oneof(
          { arbitrary: formBodies(revealPairs), weight: 12 },
          { arbitrary: jsonBodies(revealObject), weight: 2 },
          { arbitrary: otherMediaBodies, weight: 1 },
          { arbitrary: noBody, weight: 3 },
        ),
      }),
    ),
    push(
      'POST /p/:t/delete',
      compose({
        method: 'POST',
        path: tokenPath('/p/', pools.pageDelete, '/delete', pageSuffix),
        query: queryString(),
        headers: [formOrigin(ownOrigin), forwardedFor, miscHeaders],
        body: fc.oneof(
          { arbitrary: formBodies(revealPairs), weight: 3 },
          { arbitrary: otherMediaBodies, weight: 1 },
          { arbitrary: noBody, weight: 4 },
        ),
      }),
    ),
    push(
      'GET /f/:t, /r/:t (legacy)',
      compose({
        method: 'GET',
        path: fc
          .tuple(fc.constantFrom('/f/', '/r/'), fc.constantFrom('', '/r'))
          .chain(([prefix, rest]) => tokenPath(prefix, pools.pageGet, rest, pageSuffix)),
        query: queryString(),
        headers: [forwardedFor, miscHeaders],
      }),
    ),
  ];

  // ---- The web app's create form: `/` (hostile spellings now and then: other paths, 404).
  const rootPath: fc.Arbitrary<PathPiece> = fc.oneof(
    { arbitrary: fc.constant({ text: '/', tag: '' }), weight: 60 },
    {
      arbitrary: fc
        .constantFrom('//', '/.', '/./', '/%2F', '/%2e', '/index.html', '/;x', '/%00', '/.json')
        .map((text) => ({ text, tag: `hostile:${text}` })),
      weight: 1,
    },
  );
  const pageFormObject = pageFormPairs.map((ps) => Object.fromEntries(ps) as { [k: string]: JsonLike });
  const formEndpoints: Endpoint[] = [
    push(
      'GET /',
      compose({
        method: 'GET',
        path: rootPath,
        query: queryString(),
        headers: [forwardedFor, miscHeaders],
        body: withBodyRarely(otherMediaBodies),
      }),
    ),
    push(
      'POST /',
      compose({
        method: 'POST',
        path: rootPath,
        query: queryString(),
        headers: [formOrigin(ownOrigin), forwardedFor, miscHeaders],
        body: fc.oneof(
          { arbitrary: formBodies(pageFormPairs), weight: 40 },
          { arbitrary: pageFormOverLimit, weight: 1 },
          { arbitrary: jsonBodies(pageFormObject), weight: 4 },
          { arbitrary: multipartBodies, weight: 2 },
          { arbitrary: otherMediaBodies, weight: 2 },
          { arbitrary: noBody, weight: 2 },
        ),
      }),
      { reached: (status) => status !== 403 && notRoutingOrLimit(status) },
    ),
  ];

  // ---- /requests (issue 28): the owner's create, lists, reads and close; the responder's routes.
  const rq = `${api}/requests`;
  const rqPools = fx.requests;
  const requestCreateBody = fc.oneof(
    { arbitrary: jsonBodies(requestCreateObject), weight: 12 },
    { arbitrary: formBodies(requestFormPairs), weight: 4 },
    { arbitrary: multipartBodiesOf(partsOf('request', requestFormPairs), 'request'), weight: 4 },
    { arbitrary: otherMediaBodies, weight: 1 },
    { arbitrary: noBody, weight: 1 },
  );
  const respondBody = fc.oneof(
    { arbitrary: jsonBodies(respondObject), weight: 12 },
    { arbitrary: formBodies(responseFormPairs), weight: 4 },
    { arbitrary: multipartBodiesOf(partsOf('response', responseFormPairs), 'response'), weight: 3 },
    { arbitrary: otherMediaBodies, weight: 1 },
    { arbitrary: noBody, weight: 1 },
  );
  // Code requests: JSON or form `{email}`; each from its own address mostly (the per-IP limit).
  const codeBody = fc.oneof(
    { arbitrary: jsonBodies(codeObject), weight: 12 },
    { arbitrary: formBodies(codePairs), weight: 4 },
    { arbitrary: otherMediaBodies, weight: 1 },
    { arbitrary: noBody, weight: 1 },
  );
  const ownAddress: fc.Arbitrary<Header[]> = fc.oneof(
    { arbitrary: fc.ipV4().map((ip): Header[] => [['X-Forwarded-For', ip]]), weight: 12 },
    { arbitrary: forwardedFor, weight: 1 },
  );
  // An attachment: the request's own file mostly; else another request's, unknown, or hostile.
  const allFileIds = rqPools.files.flatMap((r) => r.fileIds);
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
    .constantFrom(...rqPools.files)
    .chain((r) => fc.tuple(urlTokenSegment([r.token]), fileIdOf(r.fileIds), pathSuffix))
    .map(([seg, id, suf]) => ({
      text: `${rq}/${seg.text}/files/${id.text}${suf.text}`,
      tag: [seg.tag, id.tag === 'valid' ? '' : id.tag, suf.tag].filter(Boolean).join(' ') || 'valid',
    }));
  const fileNotFound = (status: number, body: Buffer) =>
    status !== 429 && !(status === 404 && !body.toString('utf8').includes('File not found'));

  const requestEndpoints: Endpoint[] = [
    push(
      'POST /requests',
      compose({
        method: 'POST',
        path: fixedPath(rq),
        query: queryString(),
        headers: common('token-first'),
        body: requestCreateBody,
      }),
    ),
    push(
      'GET /requests[/active|open|answered|ready|closed]',
      fc.constantFrom('', '/active', '/open', '/answered', '/ready', '/closed').chain((which) =>
        compose({
          method: 'GET',
          path: fixedPath(`${rq}${which}`),
          query: queryString(pageParam),
          headers: common('token-first'),
        }),
      ),
    ),
    push(
      'GET /requests/:t',
      compose({
        method: 'GET',
        path: tokenPath(`${rq}/`, rqPools.read, ''),
        query: queryString(),
        headers: common('token-first'),
        body: withBodyRarely(otherMediaBodies),
      }),
    ),
    push(
      'GET /requests/:t/(preview|audit)',
      compose({
        method: 'GET',
        path: fc.oneof(
          tokenPath(`${rq}/`, rqPools.read, '/preview'),
          tokenPath(`${rq}/`, rqPools.read, '/audit'),
        ),
        query: queryString(pageParam),
        headers: common('token-first'),
      }),
    ),
    push(
      'DELETE /requests/:t',
      compose({
        method: 'DELETE',
        path: tokenPath(`${rq}/`, rqPools.close, ''),
        query: queryString(),
        headers: common('token-first'),
        body: withBodyRarely(otherMediaBodies),
      }),
    ),
    push(
      'GET /requests/:t/respond',
      getOrHead.chain((method) =>
        compose({
          method,
          path: tokenPath(`${rq}/`, rqPools.respond, '/respond'),
          query: queryString(),
          headers: common('anonymous-first'),
          body: withBodyRarely(otherMediaBodies),
        }),
      ),
    ),
    push(
      'POST|PATCH /requests/:t/respond',
      fc.constantFrom('POST', 'POST', 'PATCH').chain((method) =>
        compose({
          method,
          path: tokenPath(`${rq}/`, rqPools.respond, '/respond'),
          query: queryString(),
          headers: common('anonymous-first'),
          body: respondBody,
        }),
      ),
    ),
    push(
      'POST /requests/:t/code',
      compose({
        method: 'POST',
        path: tokenPath(`${rq}/`, rqPools.code, '/code'),
        query: queryString(),
        headers: [authorization(tokens, 'anonymous-first'), ownAddress, miscHeaders],
        body: codeBody,
      }),
    ),
    push(
      'GET /requests/:t/files/:id',
      getOrHead.chain((method) =>
        compose({
          method,
          path: attachmentPath,
          query: queryString(),
          headers: common('anonymous-first'),
          body: withBodyRarely(otherMediaBodies),
        }),
      ),
      { reached: fileNotFound },
    ),
  ];

  return [
    ...pushEndpoints,
    ...webhookEndpoints,
    ...requestEndpoints,
    ...formEndpoints,
    ...pageEndpoints(fx),
    ...authEndpoints(fx),
  ];
}

// ---------------------------------------------------------------- auth service

const basicOf = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function authEndpoints(fx: Fixture): Endpoint[] {
  const { clientA, clientB, resourceServer: rs, tokensA } = fx.authFixture;
  const auth = (name: EndpointName, input: fc.Arbitrary<FuzzInput>): Endpoint => ({
    name,
    service: 'auth',
    input,
    reached: notRoutingOrLimit,
  });

  /** Client authentication: Basic (mostly), or in the form (then no header), or broken. */
  const clientAuth = (main: { client_id: string; client_secret: string }) =>
    fc.oneof(
      {
        arbitrary: fc.constant({
          header: [['Authorization', basicOf(main.client_id, main.client_secret)]] as Header[],
          form: [] as [string, string][],
        }),
        weight: 10,
      },
      {
        arbitrary: fc.constant({
          header: [] as Header[],
          form: [
            ['client_id', main.client_id],
            ['client_secret', main.client_secret],
          ] as [string, string][],
        }),
        weight: 3,
      },
      {
        arbitrary: fc
          .constantFrom<Header[]>(
            [['Authorization', basicOf(main.client_id, 'wrong')]],
            [['Authorization', basicOf(clientB.client_id, clientB.client_secret)]],
            [['Authorization', basicOf('spc_nobody', 'x')]],
            [['Authorization', basicOf('', '')]],
            [['Authorization', `Basic ${Buffer.from(main.client_id).toString('base64')}`]],
            [['Authorization', 'Basic !!!not-base64!!!']],
            [['Authorization', 'Basic ']],
            [['Authorization', 'Basic']],
            [
              [
                'Authorization',
                `basic ${Buffer.from(`${main.client_id}:${main.client_secret}`).toString('base64')}`,
              ],
            ],
            [
              [
                'Authorization',
                basicOf(encodeURIComponent(main.client_id), encodeURIComponent(main.client_secret)),
              ],
            ],
            [['Authorization', basicOf(`${main.client_id}:x`, main.client_secret)]],
            [['Authorization', `Bearer ${fx.authFixture.tokensA[0]}`]],
            [['Authorization', basicOf('x'.repeat(5000), 'y')]],
            [
              ['Authorization', basicOf(main.client_id, main.client_secret)],
              ['Authorization', basicOf(main.client_id, 'wrong')],
            ],
          )
          .map((header) => ({ header, form: [] as [string, string][] })),
        weight: 3,
      },
      {
        arbitrary: shortHostileString.map((s) => ({
          header: [['Authorization', basicOf(asHeaderText(s), asHeaderText(s))]] as Header[],
          form: [] as [string, string][],
        })),
        weight: 1,
      },
      {
        // Both Basic and form credentials: RFC 6749 allows one method only.
        arbitrary: fc.constant({
          header: [['Authorization', basicOf(main.client_id, main.client_secret)]] as Header[],
          form: [
            ['client_id', main.client_id],
            ['client_secret', main.client_secret],
          ] as [string, string][],
        }),
        weight: 1,
      },
    );

  const hostileValue = fc.oneof(shortHostileString, fc.constantFrom(...EDGE_STRINGS));
  /** Form pairs: the endpoint's own parameters (valid mostly), mutated, repeated, or junk. */
  const oauthPairs = (own: fc.Arbitrary<[string, string][]>, names: string[]) =>
    fc
      .tuple(
        own,
        fc.array(
          fc.tuple(
            fc.constantFrom(...names, 'resource', 'audience', 'x', 'access_token', `${names[0]}[]`),
            hostileValue,
          ),
          {
            maxLength: 3,
          },
        ),
        fc.boolean(),
      )
      .map(([ps, extra, replace]) => {
        if (!replace || extra.length === 0) return [...ps, ...extra];
        const names2 = new Set(extra.map(([k]) => k));
        return [...ps.filter(([k]) => !names2.has(k)), ...extra];
      });

  const oauthBody = (pairs: fc.Arbitrary<[string, string][]>): fc.Arbitrary<BodySpec> =>
    fc.oneof(
      { arbitrary: formBodies(pairs), weight: 14 },
      {
        arbitrary: jsonBodies(pairs.map((ps) => Object.fromEntries(ps) as { [k: string]: JsonLike })),
        weight: 2,
      },
      { arbitrary: multipartBodies, weight: 1 },
      { arbitrary: otherMediaBodies, weight: 1 },
      { arbitrary: noBody, weight: 1 },
    );

  const authPath = (path: string) =>
    fc.oneof(
      { arbitrary: fc.constant({ text: path, tag: '' }), weight: 30 },
      { arbitrary: fc.constant({ text: `${path}/`, tag: '+slash' }), weight: 2 },
      {
        arbitrary: fc.constantFrom(
          { text: path.toUpperCase(), tag: 'hostile:upper' },
          { text: `${path}.json`, tag: 'hostile:json' },
          { text: `/${path}`, tag: 'hostile:double-slash' },
          { text: `${path}%00`, tag: 'hostile:nul' },
          { text: `${path};x`, tag: 'hostile:matrix' },
        ),
        weight: 1,
      },
    );

  const oauthInput = (
    path: string,
    credentials: { client_id: string; client_secret: string },
    own: fc.Arbitrary<[string, string][]>,
    names: string[],
  ) =>
    fc.tuple(clientAuth(credentials), oauthPairs(own, names)).chain(([cred, pairs]) =>
      compose({
        method: 'POST',
        path: authPath(path),
        query: queryString(),
        headers: [fc.constant(cred.header), forwardedFor, miscHeaders],
        body: oauthBody(fc.constant([...cred.form, ...pairs])),
      }),
    );

  const tokenOwn = fc
    .record(
      {
        grant_type: fc.oneof(
          { arbitrary: fc.constant('client_credentials'), weight: 8 },
          {
            arbitrary: fc.constantFrom(
              'authorization_code',
              'password',
              'refresh_token',
              'CLIENT_CREDENTIALS',
              '',
              'urn:ietf:params:oauth:grant-type:device_code',
            ),
            weight: 2,
          },
        ),
        scope: fc.constantFrom(
          'pushes:read',
          'pushes:write',
          'pushes:read pushes:write',
          'openid',
          'pushes:admin',
          '',
          ' ',
          'pushes:read  pushes:write',
        ),
        resource: fc.constantFrom('urn:secret-push:push-api', 'https://evil.test', 'push-api'),
      },
      { requiredKeys: ['grant_type'] },
    )
    .map((r) => Object.entries<string>(r));

  const tokenTarget = fc.oneof(
    { arbitrary: fc.constantFrom(...tokensA), weight: 6 },
    { arbitrary: fc.constantFrom(...EDGE_STRINGS.slice(0, 12), 'x'.repeat(5000)), weight: 2 },
    { arbitrary: fc.base64String({ minLength: 40, maxLength: 44 }), weight: 2 },
  );
  const hintOwn = (t: fc.Arbitrary<string>) =>
    fc
      .record(
        {
          token: t,
          token_type_hint: fc.constantFrom(
            'access_token',
            'refresh_token',
            'client_credentials',
            'garbage',
            '',
          ),
        },
        { requiredKeys: ['token'] },
      )
      .map((r) => Object.entries<string>(r));

  const getInput = (paths: string[]) =>
    fc.constantFrom(...paths).chain((p) =>
      compose({
        method: 'GET',
        path: authPath(p),
        query: queryString(),
        headers: [
          fc.oneof(
            fc.constant<Header[]>([]),
            fc.constant<Header[]>([['Authorization', basicOf(clientA.client_id, clientA.client_secret)]]),
          ),
          forwardedFor,
          miscHeaders,
        ],
        body: withBodyRarely(otherMediaBodies),
      }),
    );

  return [
    auth(
      'POST /connect/token',
      oauthInput('/connect/token', clientA, tokenOwn, ['grant_type', 'scope', 'client_id', 'client_secret']),
    ),
    auth(
      'POST /connect/introspect',
      oauthInput('/connect/introspect', rs, hintOwn(tokenTarget), ['token', 'token_type_hint', 'client_id']),
    ),
    auth(
      'POST /connect/revocation',
      oauthInput('/connect/revocation', clientA, hintOwn(tokenTarget), [
        'token',
        'token_type_hint',
        'client_id',
      ]),
    ),
    auth(
      'GET discovery',
      getInput(['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']),
    ),
    auth('GET /.well-known/jwks', getInput(['/.well-known/jwks'])),
  ];
}
