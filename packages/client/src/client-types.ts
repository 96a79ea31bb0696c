import type { Readable } from 'node:stream';
import { PushExpiredError } from './errors.ts';
import { type FileInput, checkFiles, multipartBody } from './multipart.ts';
import { nodeDownload } from './node-download.ts';
import { type AccessToken, type ClientCredentialsAuth, TokenCache } from './token-cache.ts';
import { type CallOptions, Transport, retryDelay, sleep } from './transport.ts';
import type {
  AuditEntry,
  AuditLog,
  OwnedPush,
  Preview,
  Push,
  PushFile,
  PushSettings,
  RetrievedPush,
  Version,
} from './types.ts';

/** A static bearer token, e.g. one fetched by another program. It is never refreshed. */
export interface StaticTokenAuth {
  token: string;
}

export interface ClientOptions {
  /** The instance's public URL (`https://push.example.com`); `/api/v2` is added unless present. */
  baseUrl: string;
  /** Client credentials, a static token, or nothing for anonymous calls. */
  auth?: ClientCredentialsAuth | StaticTokenAuth;
  /** The fetch to use (the global one by default), e.g. to add logging or a proxy. */
  fetch?: typeof fetch;
  /** How long one call may take in all, retries and waits included. Default 30 000 ms. */
  timeoutMs?: number;
  /** How many times a failed call may be repeated (see "Retries" in the README). Default 3. */
  retries?: number;
  /** The longest wait between attempts; a longer Retry-After fails the call at once. Default 30 000 ms. */
  maxRetryDelayMs?: number;
  /** Sent as User-Agent. */
  userAgent?: string;
}

export type TextPushInput = PushSettings & { kind?: 'text' | 'url' | 'qr'; payload: string };
export type FilePushInput = PushSettings & {
  kind?: 'file';
  /** Optional text sent along with the files. */
  payload?: string;
  files: readonly FileInput[];
};
export type CreatePushInput = TextPushInput | FilePushInput;

export interface CreateOptions extends CallOptions {
  /** For file pushes: called with the number of bytes of the request body sent so far. */
  onProgress?: (bytesSent: number) => void;
  /** The Idempotency-Key to send; a new random UUID by default. */
  idempotencyKey?: string;
}

export interface RetrieveOptions extends CallOptions {
  /** Sent in the body of `POST …/reveal`, never in the URL. */
  passphrase?: string;
  /**
   * What to do when the push can no longer be viewed: throw a PushExpiredError (the default), or
   * return the API's answer (`expired: true`, `payload: null`).
   */
  expired?: 'throw' | 'return';
}

export interface PageOptions extends CallOptions {
  /** The first page to read (1 to 200). Default 1. */
  startPage?: number;
}

export interface DownloadOptions extends CallOptions {
  /** Called with the number of bytes received so far. */
  onProgress?: (bytesReceived: number) => void;
}

export interface Download {
  /** The file's bytes; read it to the end (or cancel it) to release the connection. */
  body: ReadableStream<Uint8Array>;
  /** The file name from Content-Disposition, when given. */
  filename: string | undefined;
  contentType: string | undefined;
  /** Content-Length, when given. */
  size: number | undefined;
}

export interface NodeDownload extends Omit<Download, 'body'> {
  body: Readable;
}

/**
 * A list of the caller's pushes, read page by page as it is iterated. `for await (const push of
 * list)` gives the pushes; `list.pages()` gives the pages (arrays of up to 50).
 */
export interface PushList extends AsyncIterable<OwnedPush> {
  pages(): AsyncIterable<OwnedPush[]>;
}

export interface SecretPushClient {
  /** The API's base URL (ending in `/api/v2`). */
  readonly apiUrl: string;
  /** `GET /version`: the server's version and the features it enables. */
  version(options?: CallOptions): Promise<Version>;
  /**
   * The access token the client sends: with client credentials, the cached one (fetched when
   * missing or about to expire; `fresh: true` fetches a new one, e.g. to check the credentials);
   * a static token as given. Throws a TypeError for a client without credentials.
   */
  accessToken(options?: CallOptions & { fresh?: boolean }): Promise<AccessToken>;
  /** `POST /pushes`: a text, URL, QR or file push. Sends an Idempotency-Key. */
  create(input: CreatePushInput, options?: CreateOptions): Promise<OwnedPush>;
  /** `GET /pushes/:token` (or `POST …/reveal` with a passphrase). **Uses a view.** */
  retrieve(urlToken: string, options?: RetrieveOptions): Promise<RetrievedPush>;
  /** `GET /pushes/:token/preview`: the recipient page's URL; uses no view. */
  preview(urlToken: string, options?: CallOptions): Promise<Preview>;
  /** `GET /pushes/:token/audit`: one page (50 entries) of the owner's audit log. */
  audit(urlToken: string, options?: CallOptions & { page?: number }): Promise<AuditLog>;
  /** Every entry of the audit log, page after page. */
  auditEntries(urlToken: string, options?: PageOptions): AsyncIterable<AuditEntry>;
  /** `DELETE /pushes/:token`: expires the push now. */
  expire(urlToken: string, options?: CallOptions): Promise<Push>;
  /** `GET /pushes/active`: the caller's pushes that can still be viewed, newest first. */
  active(options?: PageOptions): PushList;
  /** `GET /pushes/expired`: the caller's expired pushes, newest first. */
  expired(options?: PageOptions): PushList;
  /** Downloads a file of a retrieved push (its `url`) as a web ReadableStream. Uses a download. */
  download(file: PushFile | string, options?: DownloadOptions): Promise<Download>;
  /** The same as `download`, as a Node Readable. */
  downloadNode(file: PushFile | string, options?: DownloadOptions): Promise<NodeDownload>;
}

const API_PATH = '/api/v2';

/** Whether this is Node (path and Readable inputs, streamed uploads), not a browser. */
const IS_NODE = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

export function createClient(options: ClientOptions): SecretPushClient {
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

  const url = (path: string, query?: Record<string, string | number>) => {
    const u = new URL(`${apiUrl}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, String(v));
    return u.toString();
  };
  const pushPath = (urlToken: string) => {
    if (!/^[A-Za-z0-9_-]+$/.test(urlToken)) throw new TypeError('not a push token');
    return `/pushes/${urlToken}`;
  };
  const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

  async function getJson<T>(path: string, call: CallOptions = {}, query?: Record<string, string | number>) {
    const res = await transport.send({
      ...call,
      method: 'GET',
      url: url(path, query),
      retry: 'safe',
      authenticate: true,
    });
    return json<T>(res);
  }

  /** Pages of `path`, following `?page=N` while the server's Link header says there is a next page. */
  function paged<T>(path: string, call: PageOptions, pick: (body: unknown) => T[]): AsyncIterable<T[]> {
    return {
      async *[Symbol.asyncIterator]() {
        let page = call.startPage ?? 1;
        for (;;) {
          const res = await transport.send({
            ...call,
            method: 'GET',
            url: url(path, { page }),
            retry: 'safe',
            authenticate: true,
          });
          const items = pick(await res.json());
          if (items.length > 0) yield items;
          const next = nextPage(res.headers.get('link'));
          if (next === undefined || next <= page) return;
          page = next;
        }
      },
    };
  }

  function pushList(path: string, call: PageOptions = {}): PushList {
    const pages = () => paged<OwnedPush>(path, call, (body) => body as OwnedPush[]);
    return {
      pages,
      async *[Symbol.asyncIterator]() {
        for await (const page of pages()) yield* page;
      },
    };
  }

  /** The link is the credential: it is fetched only from the API's own origin, and without the token. */
  function checkedLink(file: PushFile | string): string {
    const link = typeof file === 'string' ? file : file.url;
    if (new URL(link).origin !== apiOrigin) {
      throw new TypeError(`The download link is not on ${apiOrigin}`);
    }
    return link;
  }

  async function download(file: PushFile | string, call: DownloadOptions = {}): Promise<Download> {
    const link = checkedLink(file);
    const res = await transport.send({
      ...call,
      method: 'GET',
      url: link,
      retry: 'retrieve',
      authenticate: false,
      headers: { accept: '*/*' },
    });
    const length = res.headers.get('content-length');
    let received = 0;
    const progress = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        call.onProgress?.(received);
        controller.enqueue(chunk);
      },
    });
    const body = res.body
      ? res.body.pipeThrough(progress)
      : new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    return {
      body,
      filename: filenameOf(res.headers.get('content-disposition')),
      contentType: res.headers.get('content-type') ?? undefined,
      size: length === null ? undefined : Number(length),
    };
  }

  return {
    apiUrl,
    async version(call = {}) {
      const res = await transport.send({
        ...call,
        method: 'GET',
        url: url('/version'),
        retry: 'safe',
        authenticate: false,
      });
      return json<Version>(res);
    },

    async accessToken(call = {}) {
      if (auth && 'token' in auth) return { token: auth.token };
      const { token, expiresAt, scope } = await transport.currentToken(call, call.fresh ?? false);
      return { token, ...(expiresAt && { expiresAt }), ...(scope !== undefined && { scope }) };
    },

    async create(input, call = {}) {
      // A JSON body, or (with files) a multipart body streamed from the files; either is sent once
      // per attempt, with one Idempotency-Key for all of them.
      let body: () => { body: NonNullable<RequestInit['body']>; headers: Record<string, string> };
      let replayable: boolean | undefined;
      let sentWhole: number | undefined;
      if (!('files' in input)) {
        const { kind, payload, ...settings } = input;
        const text = JSON.stringify({ push: { kind: kind ?? 'text', payload, ...settings } });
        body = () => ({ body: text, headers: { 'content-type': 'application/json' } });
      } else {
        const { files, payload, kind, ...settings } = input;
        if (files.length === 0) throw new TypeError('A file push needs at least one file');
        await checkFiles(files);
        const fields = Object.entries({ kind: kind ?? 'file', payload, ...settings })
          .filter(([, v]) => v !== undefined && v !== null)
          .map(([k, v]) => ({ name: `push[${k}]`, value: String(v) }));
        const multipart = multipartBody(fields, 'push[files][]', files);
        replayable = multipart.replayable;
        const headers = { 'content-type': multipart.contentType };
        // Outside Node (a browser) a body of Blobs is sent as one Blob: browsers stream a request
        // body only over HTTP/2, and report no upload progress for it (onProgress is then called
        // once, when the answer has come).
        const whole = IS_NODE ? undefined : multipart.blob();
        if (whole) {
          body = () => ({ body: whole, headers });
          sentWhole = whole.size;
        } else body = () => ({ body: multipart.stream(call.onProgress), headers });
      }
      const res = await transport.send({
        ...call,
        method: 'POST',
        url: url('/pushes'),
        retry: 'safe',
        authenticate: true,
        headers: { 'idempotency-key': call.idempotencyKey ?? crypto.randomUUID() },
        ...(replayable !== undefined && { replayable }),
        body,
      });
      if (sentWhole !== undefined) call.onProgress?.(sentWhole);
      return json<OwnedPush>(res);
    },

    async retrieve(urlToken, call = {}) {
      const path = pushPath(urlToken);
      const { passphrase } = call;
      const res =
        passphrase === undefined
          ? await transport.send({
              ...call,
              method: 'GET',
              url: url(path),
              retry: 'retrieve',
              authenticate: true,
            })
          : await transport.send({
              ...call,
              method: 'POST',
              url: url(`${path}/reveal`),
              retry: 'retrieve',
              authenticate: true,
              body: () => ({
                body: JSON.stringify({ passphrase }),
                headers: { 'content-type': 'application/json' },
              }),
            });
      const push = await json<RetrievedPush>(res);
      // The expired answer is a 200 with no payload and no files; the last view has them.
      if (
        (call.expired ?? 'throw') === 'throw' &&
        push.expired &&
        push.payload === null &&
        push.files.length === 0
      ) {
        throw new PushExpiredError({
          status: res.status,
          code: 'expired',
          message: 'The push has expired: it can no longer be viewed.',
          requestId: res.headers.get('x-request-id') ?? undefined,
        });
      }
      return push;
    },

    preview: (urlToken, call) => getJson<Preview>(`${pushPath(urlToken)}/preview`, call),
    audit: (urlToken, call = {}) =>
      getJson<AuditLog>(`${pushPath(urlToken)}/audit`, call, { page: call.page ?? 1 }),
    auditEntries(urlToken, call = {}) {
      const pages = paged<AuditEntry>(`${pushPath(urlToken)}/audit`, call, (body) => (body as AuditLog).logs);
      return {
        async *[Symbol.asyncIterator]() {
          for await (const page of pages) yield* page;
        },
      };
    },
    async expire(urlToken, call = {}) {
      const res = await transport.send({
        ...call,
        method: 'DELETE',
        url: url(pushPath(urlToken)),
        retry: 'safe',
        authenticate: true,
      });
      return json<Push>(res);
    },
    active: (call) => pushList('/pushes/active', call),
    expired: (call) => pushList('/pushes/expired', call),
    download,
    async downloadNode(file, call = {}) {
      if (options.fetch) {
        // A fetch of the caller's own (a proxy, logging): every request goes through it.
        // Loaded here, not at the top: the rest of the SDK also runs in browsers.
        const { Readable: NodeReadable } = await import('node:stream');
        const { body, ...rest } = await download(file, call);
        return { ...rest, body: NodeReadable.fromWeb(body) };
      }
      const link = checkedLink(file);
      const { body, headers } = await nodeDownload({
        url: link,
        userAgent: options.userAgent,
        timeoutMs: call.timeoutMs ?? timeoutMs,
        signal: call.signal,
        retries,
        maxRetryDelayMs,
        onProgress: call.onProgress,
      });
      const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
      const length = one(headers['content-length']);
      return {
        body,
        filename: filenameOf(one(headers['content-disposition']) ?? null),
        contentType: one(headers['content-type']),
        size: length === undefined ? undefined : Number(length),
      };
    },
  };
}

/** The page number of the `rel="next"` link of an RFC 8288 Link header, if any. */
export function nextPage(link: string | null): number | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (!match || !/(^|;)\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/.test(match[2] ?? '')) continue;
    try {
      const page = Number(new URL(match[1] ?? '', 'http://x').searchParams.get('page'));
      if (Number.isInteger(page) && page > 0) return page;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The file name of a Content-Disposition header (`filename*` preferred, RFC 6266). */
export function filenameOf(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // fall back to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/.exec(header);
  if (!plain) return undefined;
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]?.trim();
}
