import type { Download, DownloadOptions } from './client-types.ts';
import { filenameOf } from './downloads.ts';
import { type Api, apiUrlOf } from './request.ts';

/*
 * A file the requester attached, downloaded by the responder: `GET /requests/:t/files/:id`,
 * streamed and counted (each download spends one of the file's `downloads_left`; a spent file is a
 * 410 `gone`). It is repeated only where it used nothing (a 503 `dependency_unavailable`), like a
 * push's file. The client's token is sent when it has one (an instance without anonymous access
 * asks for one).
 */

export async function attachmentDownload(
  api: Api,
  requestPath: string,
  fileId: string,
  call: DownloadOptions = {},
): Promise<Download> {
  if (typeof fileId !== 'string' || !/^[A-Za-z0-9_-]+$/.test(fileId)) throw new TypeError('not a file id');
  const { onProgress, ...rest } = call;
  const res = await api.transport.send({
    ...rest,
    method: 'GET',
    url: apiUrlOf(api, `${requestPath}/files/${fileId}`),
    retry: 'retrieve',
    authenticate: true,
    headers: { accept: '*/*' },
  });
  const length = res.headers.get('content-length');
  let received = 0;
  const progress = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      received += chunk.byteLength;
      onProgress?.(received);
      controller.enqueue(chunk);
    },
  });
  return {
    body: res.body ? res.body.pipeThrough(progress) : new ReadableStream({ start: (c) => c.close() }),
    filename: filenameOf(res.headers.get('content-disposition')),
    contentType: res.headers.get('content-type') ?? undefined,
    size: length === null ? undefined : Number(length),
  };
}
