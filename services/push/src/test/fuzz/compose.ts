import fc from 'fast-check';
import { type BodySpec, noBody } from './bodies.arbitraries';
import type { FuzzInput } from './catalogue';
import type { Header } from './headers.arbitraries';
import { type PathPiece, pathSuffix, urlTokenSegment } from './paths.arbitraries';

/*
 * How the endpoints' inputs are put together (endpoints.ts, page-endpoints.ts): a method, a path,
 * a query string, header groups and a body, each from its own generator, with the family that
 * tells failures apart; and the path shapes the endpoints share.
 */

export const notRoutingOrLimit = (status: number) => status !== 404 && status !== 429;

export interface RequestParts {
  method: string;
  path: fc.Arbitrary<PathPiece>;
  query?: fc.Arbitrary<PathPiece>;
  headers: fc.Arbitrary<Header[]>[];
  body?: fc.Arbitrary<BodySpec>;
}

export function compose(parts: RequestParts): fc.Arbitrary<FuzzInput> {
  return fc
    .record({
      path: parts.path,
      query: parts.query ?? fc.constant({ text: '', tag: 'q:none' }),
      headers: fc.tuple(...parts.headers),
      body: parts.body ?? noBody,
    })
    .map(({ path, query, headers, body }) => {
      const family = [
        body.tag !== 'none' ? body.tag : undefined,
        path.tag.startsWith('valid') || path.tag === '' ? undefined : path.tag,
        query.tag === 'q:none' || query.tag === 'q:own' ? undefined : query.tag,
      ]
        .filter(Boolean)
        .join(' ');
      return {
        family: family || 'plain',
        request: {
          method: parts.method,
          target: `${path.text}${query.text}`,
          headers: [...body.headers, ...headers.flat()],
          body: body.body,
          chunked: body.chunked,
        },
      };
    });
}

/** `prefix + url_token + rest + suffix`: the token spelled as generated, then the API's suffixes. */
export const tokenPath = (
  prefix: string,
  pool: readonly string[],
  rest: string,
  suffix: fc.Arbitrary<PathPiece> = pathSuffix,
): fc.Arbitrary<PathPiece> =>
  fc
    .tuple(urlTokenSegment(pool), suffix)
    .map(([seg, suf]) => ({ text: `${prefix}${seg.text}${rest}${suf.text}`, tag: `${seg.tag}${suf.tag}` }));

/** A fixed path with the API's suffixes, and now and then a spelling that is another path. */
export const fixedPath = (
  path: string,
  suffix: fc.Arbitrary<PathPiece> = pathSuffix,
): fc.Arbitrary<PathPiece> =>
  fc.oneof(
    { arbitrary: suffix.map((s) => ({ text: `${path}${s.text}`, tag: s.tag })), weight: 30 },
    {
      arbitrary: fc.constantFrom(
        { text: path.toUpperCase(), tag: 'hostile:upper' },
        { text: path.replace(/\/([^/]+)$/, '//$1'), tag: 'hostile:double-slash' },
        {
          text: path.replace(
            /\/([a-z])([^/]*)$/,
            (_m, c: string, r: string) => `/%${c.charCodeAt(0).toString(16)}${r}`,
          ),
          tag: 'hostile:encoded',
        },
      ),
      weight: 1,
    },
  );

/** Pages do not take the API's `.json` suffix: only a trailing slash, or hostile spellings. */
export const pageSuffix: fc.Arbitrary<PathPiece> = fc.oneof(
  { arbitrary: fc.constant({ text: '', tag: '' }), weight: 40 },
  { arbitrary: fc.constant({ text: '/', tag: '+slash' }), weight: 4 },
  {
    arbitrary: fc.constantFrom('.json', '//', ';x', '/..').map((s) => ({ text: s, tag: `+hostile:${s}` })),
    weight: 1,
  },
);

export const withBodyRarely = (body: fc.Arbitrary<BodySpec>): fc.Arbitrary<BodySpec> =>
  fc.oneof({ arbitrary: noBody, weight: 12 }, { arbitrary: body, weight: 1 });

/**
 * GET mostly, HEAD now and then: where a GET spends something (a download, an audited opening),
 * HEAD must not (the runner checks that a HEAD changes nothing).
 */
export const getOrHead: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant('GET'), weight: 7 },
  { arbitrary: fc.constant('HEAD'), weight: 1 },
);
