import type { Download, DownloadOptions, NodeDownload } from './client-types.ts';
import { nodeDownload } from './node-download.ts';
import type { Api } from './request.ts';
import type { PushFile } from './types.ts';

/*
 * The files of a retrieved push, by their download links. A link is the credential: it is
 * followed only on the API's own origin, and without the client's token.
 */

/** The link of `file`, checked to be on the API's own origin. */
function checkedLink(api: Api, file: PushFile | string): string {
  const link = typeof file === 'string' ? file : file.url;
  if (new URL(link).origin !== api.apiOrigin) {
    throw new TypeError(`The download link is not on ${api.apiOrigin}`);
  }
  return link;
}

/** Downloads a file of a retrieved push as a web ReadableStream. Uses a download. */
export async function download(
  api: Api,
  file: PushFile | string,
  call: DownloadOptions = {},
): Promise<Download> {
  const link = checkedLink(api, file);
  const res = await api.transport.send({
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
    contentType: contentTypeOf(file, res.headers.get('content-type') ?? undefined),
    size: length === null ? undefined : Number(length),
  };
}

/** The same as `download`, as a Node Readable (through node:http unless the client has its own fetch). */
export async function downloadNode(
  api: Api,
  file: PushFile | string,
  call: DownloadOptions = {},
): Promise<NodeDownload> {
  if (api.options.fetch) {
    // A fetch of the caller's own (a proxy, logging): every request goes through it.
    // Loaded here, not at the top: the rest of the SDK also runs in browsers.
    const { Readable: NodeReadable } = await import('node:stream');
    const { body, ...rest } = await download(api, file, call);
    return { ...rest, body: NodeReadable.fromWeb(body) };
  }
  const link = checkedLink(api, file);
  const { body, headers } = await nodeDownload({
    url: link,
    userAgent: api.options.userAgent,
    timeoutMs: call.timeoutMs ?? api.timeoutMs,
    signal: call.signal,
    retries: api.retries,
    maxRetryDelayMs: api.maxRetryDelayMs,
    onProgress: call.onProgress,
  });
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const length = one(headers['content-length']);
  return {
    body,
    filename: filenameOf(one(headers['content-disposition']) ?? null),
    contentType: contentTypeOf(file, one(headers['content-type'])),
    size: length === undefined ? undefined : Number(length),
  };
}

/**
 * The file's type: as uploaded (`content_type`) for a PushFile; for a bare link, the header, which
 * the API sends as `application/octet-stream` whatever the file (downloads are never rendered).
 */
function contentTypeOf(file: PushFile | string, header: string | undefined): string | undefined {
  return typeof file === 'string' ? header : file.content_type;
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
