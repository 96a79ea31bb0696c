/*
 * What `get`, `preview`, `expire` and `audit` accept: a recipient link (`…/p/TOKEN`,
 * `…/p/TOKEN/r`), the JSON URL (`…/api/v2/pushes/TOKEN`, with or without `.json`), or a bare
 * url_token.
 */

const TOKEN = /^[A-Za-z0-9_-]+$/;

export interface PushRef {
  urlToken: string;
  /** The instance the link points at (its origin plus any path prefix), when a link was given. */
  baseUrl?: string;
}

export class BadLinkError extends Error {
  override name = 'BadLinkError';
}

export function parsePushRef(input: string): PushRef {
  const trimmed = input.trim();
  if (TOKEN.test(trimmed)) return { urlToken: trimmed };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new BadLinkError(`Not a push link or token: ${JSON.stringify(input)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadLinkError(`Not a push link (http or https): ${JSON.stringify(input)}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  const match =
    /^(.*)\/p\/([A-Za-z0-9_-]+)(?:\/r)?$/.exec(path) ??
    /^(.*)\/api\/v2\/pushes\/([A-Za-z0-9_-]+?)(?:\.json)?$/.exec(path);
  if (!match?.[2]) throw new BadLinkError(`Not a push link: ${JSON.stringify(input)}`);
  return { urlToken: match[2], baseUrl: `${url.origin}${match[1] ?? ''}` };
}

/**
 * A request given by its responder link (`…/respond/TOKEN`), the owner's page (`…/requests/TOKEN`),
 * the JSON URL (`…/api/v2/requests/TOKEN`, with or without `.json`), or a bare url_token.
 */
export function parseRequestRef(input: string): PushRef {
  const trimmed = input.trim();
  if (TOKEN.test(trimmed)) return { urlToken: trimmed };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new BadLinkError(`Not a request link or token: ${JSON.stringify(input)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadLinkError(`Not a request link (http or https): ${JSON.stringify(input)}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  const match =
    /^(.*)\/api\/v2\/requests\/([A-Za-z0-9_-]+?)(?:\.json)?$/.exec(path) ??
    /^(.*)\/(?:respond|requests)\/([A-Za-z0-9_-]+)$/.exec(path);
  if (!match?.[2]) throw new BadLinkError(`Not a request link: ${JSON.stringify(input)}`);
  return { urlToken: match[2], baseUrl: `${url.origin}${match[1] ?? ''}` };
}
