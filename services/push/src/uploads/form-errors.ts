import type { Request } from 'express';
import { MulterError } from 'multer';
import { HttpError } from '@secret-push/http-kit';
import { toHttpError } from '../http/error-map';
import { FORM_LIMITS, type UploadForm, type UploadLimits, fmtBytes } from './form';
import type { UploadState } from './upload-state';

/** Busboy's errors for a body that is not a well-formed form, as the API words them. */
const MALFORMED: Record<string, string> = {
  'Unexpected end of form': 'the body ends before the closing boundary',
  'Unexpected end of file': 'the body ends inside a file',
  'Malformed part header': 'a part header is malformed',
  'Multipart: Boundary not found': 'the Content-Type has no boundary',
  'Malformed content type': 'the Content-Type is malformed',
};

export const malformed = (reason: string) =>
  new HttpError(400, 'bad_request', `Malformed multipart form: ${reason}.`);

export const tooLarge = (message: string) => new HttpError(413, 'payload_too_large', message);

/** A field's name for a message: the client's own, unless it is longer than any name we take. */
const fieldLabel = (name: string) => (name.length <= FORM_LIMITS.nameLength ? name : 'a form field');

/**
 * The per-field bounds, checked as each field arrives. Multer (busboy) has one `fieldSize` for
 * every field, so it is set to the largest field (`push[payload]`, 4 MiB) and this layer holds
 * every other field to 64 KiB and all of them to 16 MiB together: a field over its own bound is
 * refused as soon as it ends, having cost at most the parser's 4 MiB. It also refuses text sent
 * where files go, and values that are not text: busboy decodes a value by the charset its part
 * declares (UTF-8 by default), gives nothing for a charset it cannot decode, and replaces bytes
 * that are not valid in it with U+FFFD, which therefore marks a value that was not valid text.
 */
export function checkField(
  form: UploadForm,
  state: UploadState,
  name: unknown,
  value: unknown,
): HttpError | undefined {
  if (typeof name !== 'string') return undefined; // multer refuses a part without a name
  if (form.fileFields.includes(name)) {
    return HttpError.validation({
      files: [`Send each file as a file part (with a filename) named ${form.fileFields[0]}.`],
    });
  }
  if (typeof value !== 'string') {
    return new HttpError(
      415,
      'unsupported_media_type',
      `The form field ${fieldLabel(name)} declares a charset that cannot be read; send UTF-8.`,
    );
  }
  const bytes = Buffer.byteLength(value, 'utf8');
  const bound = name === form.payloadField ? FORM_LIMITS.payloadBytes : FORM_LIMITS.fieldBytes;
  if (bytes > bound) return tooLarge(`The form field ${fieldLabel(name)} exceeds ${fmtBytes(bound)}.`);
  state.fieldBytes += bytes;
  if (state.fieldBytes > FORM_LIMITS.totalFieldBytes) {
    return tooLarge(`The form fields together exceed ${fmtBytes(FORM_LIMITS.totalFieldBytes)}.`);
  }
  if (value.includes('\uFFFD')) return malformed(`the field ${fieldLabel(name)} is not valid text`);
  return undefined;
}

/** The files together are over the instance's limit (the storage engine counts them as they stream). */
export function filesTooLarge(limits: UploadLimits): HttpError {
  const message = `The files together exceed ${fmtBytes(limits.maxTotalBytes)}.`;
  return new HttpError(413, 'payload_too_large', message, { fields: { files: [message] } });
}

/** Multer's errors as the API reports them: limits (413, or 422 for the file count), malformed forms (400). */
function multerError(err: MulterError, limits: UploadLimits, form: UploadForm): HttpError {
  // Multer 2.5 has codes @types/multer 2.3 does not list (nesting, array index, invalid name).
  switch (err.code as string) {
    case 'LIMIT_FILE_SIZE': {
      const message = `A file exceeds the limit of ${fmtBytes(limits.maxFileBytes)}.`;
      return new HttpError(413, 'payload_too_large', message, { fields: { files: [message] } });
    }
    case 'LIMIT_FILE_COUNT':
      return HttpError.validation({
        files: [`You can only attach up to ${limits.maxCount} files per ${form.filesPer ?? 'push'}.`],
      });
    case 'LIMIT_FIELD_VALUE': {
      const name = err.field ?? 'a form field';
      const bound = name === form.payloadField ? FORM_LIMITS.payloadBytes : FORM_LIMITS.fieldBytes;
      return tooLarge(`The form field ${fieldLabel(name)} exceeds ${fmtBytes(bound)}.`);
    }
    case 'LIMIT_FIELD_COUNT':
      return tooLarge(`The form has more than ${form.maxFields ?? FORM_LIMITS.fields} fields.`);
    case 'LIMIT_PART_COUNT':
      return tooLarge('The form has too many parts.');
    case 'LIMIT_FIELD_KEY':
      return tooLarge(`A form field name is longer than ${FORM_LIMITS.nameLength} characters.`);
    case 'MISSING_FIELD_NAME':
      return malformed('a part has no name');
    case 'LIMIT_FIELD_NESTING':
    case 'LIMIT_FIELD_ARRAY_INDEX':
    case 'INVALID_FIELD_NAME':
      return malformed(`a field name is not accepted (${err.message.toLowerCase()})`);
    default:
      return malformed(err.message.toLowerCase());
  }
}

/**
 * Any failure of the upload step as the API answers it. Everything the client's body can cause is
 * a 4xx: the limits, a malformed form (what the parser or its file streams raised, or a
 * Content-Type the parser refused before starting), a request that ended early. What remains
 * (the database, the object store) is mapped as everywhere else.
 */
export function uploadError(
  err: unknown,
  req: Request,
  state: UploadState,
  limits: UploadLimits,
  form: UploadForm,
): unknown {
  if (err instanceof HttpError) return err;
  if (err instanceof MulterError) return multerError(err, limits, form);
  const parserError = err instanceof Error && (!state.parsing || state.parseErrors.has(err));
  if (parserError) return malformed(MALFORMED[err.message] ?? 'the body is not a form');
  if (!req.complete && (req.destroyed || req.readableAborted)) {
    return new HttpError(400, 'bad_request', 'The request was aborted.');
  }
  return toHttpError(err);
}
