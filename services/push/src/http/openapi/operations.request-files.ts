import { PUBLIC, errors, schemaRef } from './operations.shared';
import { fileDownloadResponse } from './operations.files';
import type { MediaTypeObject, OperationObject } from './types';

/*
 * Files in requests: the multipart bodies of a create (the requester's attachments) and of an
 * answer (the answer's files), and the responder's download of an attachment.
 */

/** `multipart/form-data` of `POST /requests`: the create's fields as `request[…]`, files as `request[files][]`. */
export const requestCreateMultipart = (schema: string): Record<string, MediaTypeObject> => ({
  'multipart/form-data': {
    schema: schemaRef(schema),
    encoding: { request: { style: 'deepObject', explode: true } },
  },
});

/** `multipart/form-data` of `POST|PATCH /requests/{url_token}/respond`: `response[…]`, files as `response[files][]`. */
export const respondMultipart = (schema: string): Record<string, MediaTypeObject> => ({
  'multipart/form-data': {
    schema: schemaRef(schema),
    encoding: { response: { style: 'deepObject', explode: true } },
  },
});

/** What the multipart bodies take, for the operations' descriptions. */
export const REQUEST_FILES_NOTE =
  "Files by `multipart/form-data` only (streamed encrypted into the object store): the instance's file count and per-file limits apply (422, 413), and the files of one request, or of one answer, are at most `PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES` together (413). A refused upload leaves nothing behind.";

export function requestFileDownloadOperation(anonymous: boolean): OperationObject {
  return {
    operationId: 'downloadRequestFile',
    tags: ['Requests'],
    summary: "Download a requester's attachment (the responder)",
    description:
      "The responder downloads a file the requester attached (`files[].id` of the responder's view). The same rules as the responder's view: no scope needed (anonymous callers while `features.anonymous_access` is true), a person's token for a request answerable by `users`. Each file can be downloaded `attachment_downloads` times (3 by default), counted atomically; after that 410 `gone`. A download whose read from the object store does not start (503) is given back. Audited `attachment_download`. Served as a download whatever its type: `Content-Type: application/octet-stream`, `Content-Disposition: attachment`, `Content-Security-Policy: sandbox; default-src 'none'`, `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `Cache-Control: no-store`.",
    security: anonymous ? PUBLIC : [{ bearer: [] }, { personalToken: [] }],
    parameters: [
      {
        name: 'url_token',
        in: 'path',
        required: true,
        description: "The request's token (the responder's link).",
        schema: { type: 'string' },
      },
      {
        name: 'file_id',
        in: 'path',
        required: true,
        description: "The attachment (`files[].id` of the responder's view).",
        schema: { type: 'string', format: 'uuid' },
      },
    ],
    responses: {
      200: fileDownloadResponse('The file, streamed and decrypted.'),
      ...errors({
        401: ['unauthorized', 'invalid_token'],
        403: {
          codes: ['forbidden'],
          description: 'The request is answerable by users, and this is a client token.',
        },
        404: {
          codes: ['not_found'],
          description: 'Unknown, closed or past its window, or not one of its attachments.',
        },
        409: { codes: ['already_answered'], description: 'The request was answered.' },
        410: {
          codes: ['gone'],
          description: 'This file was downloaded as many times as the request allows.',
        },
        429: ['rate_limited'],
        503: {
          codes: ['dependency_unavailable'],
          description: 'The database or the object store is unavailable; retry after `Retry-After` seconds.',
        },
      }),
    },
  };
}
