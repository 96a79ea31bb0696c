import { PUBLIC, errors } from './operations.shared';
import type { OperationObject, ParameterObject, ResponseObject } from './types';

/* The Files operation: the download links that a retrieval of a file push hands out. */

const query = (name: string, description: string, pattern: string): ParameterObject => ({
  name,
  in: 'query',
  required: true,
  description,
  schema: { type: 'string', pattern },
});

/** The 200 of a file download (a push's link, a request's attachment): the headers every download has. */
export const fileDownloadResponse = (description: string): ResponseObject => ({
  description,
  headers: {
    'Content-Disposition': {
      description: '`attachment` with the file name (RFC 6266, `filename*` for non-ASCII names).',
      required: true,
      schema: { type: 'string' },
    },
    'Content-Security-Policy': {
      description: "Always `sandbox; default-src 'none'`.",
      required: true,
      schema: { type: 'string', const: "sandbox; default-src 'none'" },
    },
    'Cache-Control': {
      description: 'Always `no-store`.',
      required: true,
      schema: { type: 'string', const: 'no-store' },
    },
  },
  content: {
    'application/octet-stream': {
      schema: { type: 'string', contentMediaType: 'application/octet-stream' },
    },
  },
});

export function downloadOperation(): OperationObject {
  return {
    operationId: 'downloadFile',
    tags: ['Files'],
    summary: 'Download a file of a file push',
    description:
      "Follow a `files[].url` from a retrieval as it is: the link is the credential (no token needed) and is signed for one file, one push, the view that was counted and an expiry equal to the grace period. Each (view, file) pair can be downloaded a few times (3 by default); after the last view of the push its files stay downloadable for the grace period, never after a DELETE or a time expiry. Any link that is not good now → 404, whatever the reason. Every download is audited `file_download`. The file is streamed as a download whatever its type: `Content-Type: application/octet-stream` (its declared type is the `content_type` of the retrieval), `Content-Disposition: attachment`, `Content-Security-Policy: sandbox; default-src 'none'`, `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`.",
    security: PUBLIC,
    parameters: [
      {
        name: 'file_id',
        in: 'path',
        required: true,
        description: 'The file (from the link).',
        schema: { type: 'string', format: 'uuid' },
      },
      query('push', 'The push the link was issued for.', '^[0-9a-f-]{36}$'),
      query('view', 'The counted view the link is bound to.', '^\\d{1,18}$'),
      query('expires', 'Expiry of the link, in seconds since the epoch.', '^\\d{1,12}$'),
      query('sig', 'The signature of the link.', '^[A-Za-z0-9_-]+$'),
    ],
    responses: {
      200: fileDownloadResponse('The file, streamed.'),
      ...errors({
        404: { codes: ['not_found'], description: 'The link is invalid, used up or expired.' },
        429: ['rate_limited'],
        503: {
          codes: ['dependency_unavailable'],
          description: 'The database or the object store is unavailable; retry after `Retry-After` seconds.',
        },
      }),
    },
  };
}

/** "Download all": the files of a view as one zip (the recipient page's link; http/file-archive.ts). */
export function archiveOperation(): OperationObject {
  return {
    operationId: 'downloadAllFiles',
    tags: ['Files'],
    summary: 'Download all files of a file push as one zip',
    description:
      "The recipient page's \"Download all\" link, built from the `files[].url` of one retrieval: the view's `push`, `view` and `expires`, then `file=<file_id>.<sig>` for each file (each link's own signature). Nothing new is signed: each file is verified, counted and audited (`file_download`) exactly as if its own link were opened, when its turn in the archive comes, under the same per-view limit; a file whose link is not good now (no downloads left) is left out. The zip is streamed (`Content-Type: application/zip`, no `Content-Length`), each file read from the object store and decrypted as it is written, so memory stays bounded. No file can be opened → 404; the object store down before the first byte → 503 (nothing spent); a failure after it cuts the download. Browsers asking for HTML get the same statuses as pages.",
    security: PUBLIC,
    parameters: [
      query('push', 'The push the links were issued for.', '^[0-9a-f-]{36}$'),
      query('view', 'The counted view the links are bound to.', '^\\d{1,18}$'),
      query('expires', 'Expiry of the links, in seconds since the epoch.', '^\\d{1,12}$'),
      {
        name: 'file',
        in: 'query',
        required: true,
        description: "Each file as `<file_id>.<sig>` (its own link's `sig`), once; at most 100.",
        schema: { type: 'array', items: { type: 'string', pattern: '^[0-9a-f-]{36}\\.[A-Za-z0-9_-]+$' } },
      },
    ],
    responses: {
      200: {
        description: 'The zip, streamed; names inside are unique ("a (2).txt" for a second "a.txt").',
        headers: {
          'Content-Disposition': {
            description: 'Always `attachment; filename=files.zip`.',
            required: true,
            schema: { type: 'string', const: 'attachment; filename=files.zip' },
          },
          'Content-Security-Policy': {
            description: "Always `sandbox; default-src 'none'`.",
            required: true,
            schema: { type: 'string', const: "sandbox; default-src 'none'" },
          },
          'Cache-Control': {
            description: 'Always `no-store`.',
            required: true,
            schema: { type: 'string', const: 'no-store' },
          },
        },
        content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
      },
      ...errors({
        404: { codes: ['not_found'], description: 'No file of the link can be downloaded now.' },
        429: ['rate_limited'],
        503: {
          codes: ['dependency_unavailable'],
          description: 'The database or the object store is unavailable; retry after `Retry-After` seconds.',
        },
      }),
    },
  };
}
