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
