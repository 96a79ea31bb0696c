import type { Readable, Writable } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { HttpError } from '@secret-push/http-kit';
import type { FileService } from '../domain/file-service';
import type { ObjectStore } from '../domain/ports/object-store';
import { encryptingStorage } from './encrypting-storage';
import { FORM_LIMITS, type UploadForm, type UploadLimits, fmtBytes, maxFormBytes } from './form';
import { checkField, malformed, tooLarge, uploadError } from './form-errors';
import { newUploadState, uploadStateOf } from './upload-state';

/**
 * The streaming upload pipeline of file pushes, one per instance (its object store, file service
 * and limits), read by both creates: the API's and the web app's form. {@link UploadPipeline.parser}
 * gives a form's parser.
 */
export interface UploadPipeline {
  limits: UploadLimits;
  /**
   * Parses a `multipart/form-data` create of this form's shape: fields into `req.body`
   * (`push[payload]` → body.push.payload, `payload` → body.payload), files streamed to the store
   * under a push id chosen now (`res.locals.uploads`, read with `uploadsOf`). Anything else passes
   * through untouched.
   */
  parser(form: UploadForm): RequestHandler;
}

export function uploadPipeline(
  files: FileService,
  store: ObjectStore,
  limits: UploadLimits,
  newPushId: () => string,
): UploadPipeline {
  return { limits, parser: (form) => uploadParser(files, store, limits, form, newPushId) };
}

type ParserOptions = multer.Options & {
  /** Multer 2.5 feeds busboy through this when given (not in @types/multer 2.3). */
  streamHandler: (req: Request, busboy: Writable) => void;
};

/** Multer's options for this form: its limits, the encrypting engine, and busboy's wiring. */
function parserOptions(
  files: FileService,
  store: ObjectStore,
  limits: UploadLimits,
  form: UploadForm,
): ParserOptions {
  const maxBodyBytes = maxFormBytes(limits);
  const fields = form.maxFields ?? FORM_LIMITS.fields;
  return {
    // Browsers send file names as raw UTF-8 (busboy would read them as latin1).
    defParamCharset: 'utf8',
    storage: encryptingStorage(files, store, limits, form),
    limits: {
      files: limits.maxCount,
      fileSize: limits.maxFileBytes,
      fieldSize: FORM_LIMITS.payloadBytes, // the largest field; the others: checkField
      fields,
      fieldNameSize: FORM_LIMITS.nameLength,
      fieldNestingDepth: FORM_LIMITS.nestingDepth,
      fieldArrayIndexLimit: FORM_LIMITS.arrayIndex,
      parts: limits.maxCount + fields,
    },
    streamHandler(req, busboy) {
      const state = uploadStateOf(req);
      state.parsing = true;
      const fromParser = (err: unknown) => {
        if (err instanceof Error) state.parseErrors.add(err);
      };
      // Prepended: multer may answer synchronously from its own listener.
      busboy.prependListener('error', fromParser);
      busboy.prependListener('file', (_name: unknown, stream: Readable) => {
        stream.prependListener('error', fromParser);
      });
      // A form that fails (refused field, unexpected end, size limit) may leave a file part's stream
      // neither ended nor destroyed (busboy destroyed between parts), and multer waits for every
      // file in flight before it answers: stop them now, so that each settles and cleans up.
      busboy.once('error', (err: unknown) => {
        state.failed ??= err instanceof Error ? err : new Error('The form failed.');
        for (const cancel of state.inFlight) cancel(state.failed);
      });
      // After multer's own listener (its name checks come first).
      busboy.on('field', (name: unknown, value: unknown) => {
        const refused = checkField(form, state, name, value);
        if (refused && !busboy.destroyed) busboy.destroy(refused);
      });
      req.pipe(busboy);
      let received = 0; // a body sent without Content-Length (chunked) is bounded as it arrives
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBodyBytes && !busboy.destroyed) busboy.destroy(formTooLarge(limits));
      });
    },
  };
}

const formTooLarge = (limits: UploadLimits) =>
  tooLarge(`The form exceeds ${fmtBytes(maxFormBytes(limits))}.`);

function uploadParser(
  files: FileService,
  store: ObjectStore,
  limits: UploadLimits,
  form: UploadForm,
  newPushId: () => string,
): RequestHandler {
  /** The whole body: files, fields and the form's own bytes (checked before and while reading). */
  const maxBodyBytes = maxFormBytes(limits);
  const parse = multer(parserOptions(files, store, limits, form)).any();
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return next();
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      return next(
        new HttpError(415, 'unsupported_media_type', 'Send multipart forms without Content-Encoding.'),
      );
    }
    if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) return next(formTooLarge(limits));
    const state = newUploadState(newPushId());
    res.locals.uploads = state;
    req.once('close', () => {
      if (!req.readableEnded) for (const cancel of state.inFlight) cancel(new Error('Request aborted'));
    });
    parse(req, res, (err: unknown) => {
      // Multer skips a Content-Type it cannot parse (`boundary=`): nothing was read, nothing is taken.
      if (!err && !state.parsing) return next(malformed('the Content-Type is malformed'));
      if (!err) return next();
      // Multer answers once its own bookkeeping is done, which for a file whose stream failed is
      // before the store's cleanup: stop what is in flight, and answer when every file has settled.
      state.failed = err instanceof Error ? err : new Error('The form failed.');
      for (const cancel of state.inFlight) cancel(state.failed);
      void Promise.allSettled(state.settling).then(() => next(uploadError(err, req, state, limits, form)));
    });
  };
}
