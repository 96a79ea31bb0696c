import type { ClientOptions } from './client-types.ts';
import { secureUrl } from './errors.ts';
import { TokenCache } from './token-cache.ts';
import { type CallOptions, Transport, retryDelay, sleep } from './transport.ts';

/*
 * The base of every call: the API's URL, the transport (authentication, timeout, retries) and the
 * client's settings, made once by createClient and passed to the modules of each group of calls.
 */

const API_PATH = '/api/v2';

export interface Api {
  /** The API's base URL (ending in `/api/v2`). */
  readonly apiUrl: string;
  /** Its origin: download links are followed only there. */
  readonly apiOrigin: string;
  readonly transport: Transport;
  /** The client's options as given (its own fetch, the user agent, the credentials). */
  readonly options: ClientOptions;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly maxRetryDelayMs: number;
}

/** The base of a client; an InsecureUrlError for a plain-http URL off this machine (see secureUrl). */
export function createApi(options: ClientOptions): Api {
  secureUrl(options.baseUrl, options.allowInsecureHttp);
  if (options.auth && 'tokenUrl' in options.auth) secureUrl(options.auth.tokenUrl, options.allowInsecureHttp);
  const trimmed = options.baseUrl.replace(/\/+$/, '');
  const apiUrl = trimmed.endsWith(API_PATH) ? trimmed : `${trimmed}${API_PATH}`;
  const apiOrigin = new URL(apiUrl).origin;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.retries ?? 3;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;

  const auth = options.auth;
  const tokens =
    auth && 'clientId' in auth
      ? new TokenCache(auth, {
          fetch: doFetch,
          timeoutMs,
          retries,
          sleep,
          backoff: (attempt, retryAfter) => retryDelay(attempt, retryAfter, maxRetryDelayMs),
        })
      : undefined;
  const transport = new Transport({
    fetch: doFetch,
    timeoutMs,
    retries,
    maxRetryDelayMs,
    tokens,
    staticToken: auth && 'token' in auth ? auth.token : undefined,
    userAgent: options.userAgent,
  });
  return { apiUrl, apiOrigin, transport, options, timeoutMs, retries, maxRetryDelayMs };
}

/** The URL of `path` under the API, with `query` as its search parameters. */
export function apiUrlOf(api: Api, path: string, query?: Record<string, string | number>): string {
  const u = new URL(`${api.apiUrl}${path}`);
  for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, String(v));
  return u.toString();
}

/** `/pushes/:token`; a TypeError for anything that is not a push token (nothing else reaches the URL). */
export function pushPath(urlToken: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(urlToken)) throw new TypeError('not a push token');
  return `/pushes/${urlToken}`;
}

export const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

/** An authenticated GET of `path`, repeated as a safe call, and its JSON body. */
export async function getJson<T>(
  api: Api,
  path: string,
  call: CallOptions = {},
  query?: Record<string, string | number>,
): Promise<T> {
  const res = await api.transport.send({
    ...call,
    method: 'GET',
    url: apiUrlOf(api, path, query),
    retry: 'safe',
    authenticate: true,
  });
  return json<T>(res);
}
