import type { Response } from 'express';
import { HttpError } from '@secret-push/http-kit';
import type { UploadForm } from '../uploads/form';

/*
 * The multipart forms of requests (issue 28), for the upload pipeline (uploads/pipeline.ts) with
 * the request limits (PUSH_FILES_MAX_COUNT, PUSH_FILES_MAX_FILE_BYTES, and the smaller of
 * PUSH_FILES_MAX_TOTAL_BYTES and PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES).
 */

/**
 * `POST /requests`: fields as `request[…]`, the requester's attachments as `request[files][]`
 * (the Password Pusher CLI's `--attach-file`; `request[files]` is accepted too). The caller was
 * checked before the body is read (a token with `pushes:write`): whoever may create a request may
 * attach files to it. A create has more fields than a push's (up to five `answerable_emails[]`).
 */
export const requestCreateForm: UploadForm = {
  fileFields: ['request[files][]', 'request[files]'],
  payloadField: 'request[request]',
  filesPer: 'request',
  maxFields: 32,
  admitFiles: () => undefined,
};

/** What the responder's chain found before the body is read: whether the request takes files. */
export interface RespondTarget {
  responseFileAttachments: boolean;
}

/**
 * `POST|PATCH /requests/:t/respond`: fields as `response[…]`, files as `response[files][]`.
 * Files are taken only when the request asked for them (`response_file_attachments`), whoever
 * answers: an anonymous responder too, whatever PUSH_FILE_PUSHES_REQUIRE_AUTH says (the request's
 * total cap bounds them). Refused when the first file part begins, before any byte is stored.
 */
export function respondForm(targetOf: (res: Response) => RespondTarget): UploadForm {
  return {
    fileFields: ['response[files][]', 'response[files]'],
    payloadField: 'response[payload]',
    filesPer: 'answer',
    admitFiles(_req, res) {
      return targetOf(res).responseFileAttachments
        ? undefined
        : HttpError.validation({ files: ['This request does not accept files: answer with text.'] });
    },
  };
}
