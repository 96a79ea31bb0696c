import { createHash } from 'node:crypto';
import { type Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import { HttpError } from '@secret-push/http-kit';
import { type CreateFeatures, mayCreate } from '../domain/create-policy';
import { DependencyDown } from '../domain/errors';
import type { FileService, StoredUpload } from '../domain/file-service';
import { safeContentType, safeFilename } from '../domain/file-names';
import type { ObjectStore } from '../domain/ports/object-store';
import { encryptStream } from '../security/file-cipher';
import { principalOf } from './bearer-auth';
import { createRefusal, toHttpError } from './error-map';
import { MAX_BODY_BYTES, MAX_TEXT_PAYLOAD } from './push.schemas';

export interface UploadLimits {
  maxCount: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

/**
 * Deletes what a create stored before it failed, and says when to answer. A refused create (a
 * limit, a bad field, a client that went away) waits for the cleanup, so that when it is answered
 * it has left nothing; each store call is bounded by the store's own deadlines. A create that
 * failed because a dependency is down or frozen (the object store, the database) does not wait for
 * a second deadline: the deletion goes on after the answer, and whatever it cannot delete keeps
 * its upload intent, which the worker's stale-upload sweep deletes later.
 */
export async function discardStored(
  files: Pick<FileService, 'discard'>,
  keys: string[],
  cause: unknown,
): Promise<void> {
  if (keys.length === 0) return;
  const cleanup = files.discard(keys); // never rejects
  if (!(cause instanceof DependencyDown)) await cleanup;
}

/**
 * The shape of a multipart create, for the one pipeline that reads both the API's form
 * (`push[payload]`, files in `push[files][]`) and the web app's (`payload`, files in `files`).
 */
export interface UploadForm {
  /** The names file parts may have; the first is the one messages give. */
  fileFields: readonly string[];
  /** The text payload's field, held to the payload's bound (every other field: 64 KiB). */
  payloadField: string;
  /**
   * Whether this request may store files, asked when each file part begins, before any of its
   * bytes are read or stored: an error refuses the whole form, and nothing of it is kept. It sees
   * the fields that came before the file part in `req.body` (a form's CSRF token, sent first).
   */
  admitFiles(req: Request): Error | undefined;
}

/**
 * The API's form: files in `push[files][]` (repeated; `push[files]` is accepted too), the other
 * fields as `push[…]`; who may store files is the create policy's answer for the token's principal.
 */
export function apiUploadForm(features: CreateFeatures): UploadForm {
  return {
    fileFields: ['push[files][]', 'push[files]'],
    payloadField: 'push[payload]',
    admitFiles(req) {
      const allowed = mayCreate(principalOf(req), 'file', features);
      return allowed.ok ? undefined : createRefusal(allowed);
    },
  };
}

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

/** A size as the limits are worded: `1 GiB`, `5 MiB`, `64 KiB`, `100 bytes`. */
export const fmtBytes = (n: number) =>
  n % GIB === 0
    ? `${n / GIB} GiB`
    : n % MIB === 0
      ? `${n / MIB} MiB`
      : n % KIB === 0
        ? `${n / KIB} KiB`
        : `${n} bytes`;

/**
 * Bounds of a multipart create's non-file fields, so that what a form can make the service hold
 * is about what a JSON body can (MAX_BODY_BYTES), whoever sends it (anonymous callers included).
 */
export const FORM_LIMITS = {
  /** `push[payload]`: the text payload's limit (code points), each at most 4 bytes of UTF-8. */
  payloadBytes: 4 * MAX_TEXT_PAYLOAD,
  /** Any other field: name, note and passphrase are at most 1024 characters, the rest are words. */
  fieldBytes: 64 * KIB,
  /** All fields together: what a JSON or urlencoded create body may carry. */
  totalFieldBytes: MAX_BODY_BYTES,
  /** Non-file fields (a create has 11). */
  fields: 20,
  /** Field names (`push[expire_after_duration]` is the longest), their nesting and array indexes. */
  nameLength: 100,
  nestingDepth: 4,
  arrayIndex: 20,
};

/** Part headers, boundaries and parts the parser skips: room on top of the files and fields. */
const FORM_OVERHEAD_BYTES = MIB;

/** Busboy's errors for a body that is not a well-formed form, as the API words them. */
const MALFORMED: Record<string, string> = {
  'Unexpected end of form': 'the body ends before the closing boundary',
  'Unexpected end of file': 'the body ends inside a file',
  'Malformed part header': 'a part header is malformed',
  'Multipart: Boundary not found': 'the Content-Type has no boundary',
  'Malformed content type': 'the Content-Type is malformed',
};

const malformed = (reason: string) =>
  new HttpError(400, 'bad_request', `Malformed multipart form: ${reason}.`);

interface UploadState {
  pushId: string;
  totalBytes: number;
  /** Files in the order their parts arrived (uploads may finish in another order). */
  parts: number;
  stored: (StoredUpload & { part: number })[];
  /** Cancels the uploads in flight (a client that goes away). */
  inFlight: Set<(why: Error) => void>;
  /** Bytes of the non-file fields so far (UTF-8). */
  fieldBytes: number;
  /** The parser was created (it refuses a Content-Type without a boundary before that). */
  parsing: boolean;
  /** Errors the parser or its file streams raised: the form is malformed, not the service. */
  parseErrors: WeakSet<Error>;
  /** One per file handed to the store, resolved once it is stored or cleaned up. */
  settling: Promise<void>[];
  /** Why the form failed, once it has (files still being prepared give up). */
  failed?: Error;
}

const states = new WeakMap<Request, UploadState>();

/** What a multipart create stored, and under which push id, for the route to commit or discard. */
export function uploadsOf(req: Request): { pushId: string; uploads: StoredUpload[] } | undefined {
  const state = states.get(req);
  return state && { pushId: state.pushId, uploads: [...state.stored].sort((a, b) => a.part - b.part) };
}

/**
 * A multer storage engine that streams each file, encrypted (security/file-cipher.ts), straight
 * into the object store: nothing is buffered whole, nothing touches local disk. An upload intent
 * is recorded before the first byte goes out. On a size limit, a client abort or a store failure,
 * the store upload is aborted *and* its body destroyed (abort alone leaves the multipart upload
 * hanging), and what was stored is deleted.
 */
function encryptingStorage(
  files: FileService,
  store: ObjectStore,
  limits: UploadLimits,
  form: UploadForm,
): StorageEngine {
  return {
    _handleFile(req, file, cb) {
      const state = states.get(req)!;
      if (!form.fileFields.includes(file.fieldname)) {
        cb(
          HttpError.validation({
            files: [`Send files in the field ${form.fileFields[0]}, not ${file.fieldname}.`],
          }),
        );
        return;
      }
      // Names are read as UTF-8: a replacement character means bytes that are not (see checkField).
      if (file.originalname.includes('\uFFFD')) {
        cb(malformed('a file name is not valid UTF-8'));
        return;
      }
      const refused = form.admitFiles(req);
      if (refused) {
        cb(refused);
        return;
      }
      let failure: Error | undefined;
      let size = 0;
      const part = state.parts++;
      // A create that may be retried (Idempotency-Key) is matched on its files' bytes too.
      const digest = req.headers['idempotency-key'] === undefined ? undefined : createHash('sha256');
      // The answer waits for this file's cleanup: a refused create has left nothing when it is sent.
      let settled!: () => void;
      state.settling.push(new Promise<void>((resolve) => (settled = resolve)));
      const finish: typeof cb = (err, info) => {
        settled();
        cb(err, info);
      };
      files.prepareUpload(state.pushId).then(
        (prepared) => {
          if (state.failed) {
            // The form failed while the intent was recorded: this file's stream may never end.
            void discardStored(files, [prepared.objectKey], state.failed).then(() => finish(state.failed!));
            return;
          }
          const counter = new Transform({
            transform(chunk: Buffer, _enc, done) {
              size += chunk.length;
              state.totalBytes += chunk.length;
              if (state.totalBytes > limits.maxTotalBytes) {
                done(
                  new HttpError(
                    413,
                    'payload_too_large',
                    `The files together exceed ${fmtBytes(limits.maxTotalBytes)}.`,
                    {
                      fields: { files: [`The files together exceed ${fmtBytes(limits.maxTotalBytes)}.`] },
                    },
                  ),
                );
                return;
              }
              digest?.update(chunk);
              done(null, chunk);
            },
          });
          const body = encryptStream(prepared.key, prepared.fileId);
          const upload = store.upload(prepared.objectKey, body);
          const cancel = (why: Error) => {
            failure ??= why;
            body.destroy();
            void upload.abort();
          };
          state.inFlight.add(cancel);
          pipeline(file.stream, counter, body, (err) => {
            if (err) cancel(err);
          });
          file.stream.once('limit', () => cancel(new MulterError('LIMIT_FILE_SIZE', file.fieldname)));
          upload.done
            .finally(() => state.inFlight.delete(cancel))
            .then(() => {
              if (failure) return Promise.reject(failure);
              state.stored.push({
                part,
                fileId: prepared.fileId,
                objectKey: prepared.objectKey,
                filename: safeFilename(file.originalname),
                contentType: safeContentType(file.mimetype),
                size,
                key: prepared.key,
                ...(digest ? { sha256: digest.digest() } : {}),
              });
              finish(null, { path: prepared.objectKey, size });
              return Promise.resolve();
            })
            .catch(async (err: Error) => {
              await discardStored(files, [prepared.objectKey], failure ?? err);
              finish(failure ?? err);
            });
        },
        (err: Error) => finish(err),
      );
    },

    _removeFile(req, file, cb) {
      const state = states.get(req);
      if (state) state.stored = state.stored.filter((s) => s.objectKey !== file.path);
      void discardStored(files, [file.path], states.get(req)?.failed).then(() => cb(null));
    },
  };
}

const tooLarge = (message: string) => new HttpError(413, 'payload_too_large', message);

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
function checkField(
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
        files: [`You can only attach up to ${limits.maxCount} files per push.`],
      });
    case 'LIMIT_FIELD_VALUE': {
      const name = err.field ?? 'a form field';
      const bound = name === form.payloadField ? FORM_LIMITS.payloadBytes : FORM_LIMITS.fieldBytes;
      return tooLarge(`The form field ${fieldLabel(name)} exceeds ${fmtBytes(bound)}.`);
    }
    case 'LIMIT_FIELD_COUNT':
      return tooLarge(`The form has more than ${FORM_LIMITS.fields} fields.`);
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
function uploadError(
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
   * under a push id chosen now ({@link uploadsOf}). Anything else passes through untouched.
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

function uploadParser(
  files: FileService,
  store: ObjectStore,
  limits: UploadLimits,
  form: UploadForm,
  newPushId: () => string,
): RequestHandler {
  /** The whole body: files, fields and the form's own bytes (checked before and while reading). */
  const maxBodyBytes = limits.maxTotalBytes + FORM_LIMITS.totalFieldBytes + FORM_OVERHEAD_BYTES;
  const formTooLarge = () => tooLarge(`The form exceeds ${fmtBytes(maxBodyBytes)}.`);
  const options: multer.Options & {
    /** Multer 2.5 feeds busboy through this when given (not in @types/multer 2.3). */
    streamHandler: (req: Request, busboy: Writable) => void;
  } = {
    // Browsers send file names as raw UTF-8 (busboy would read them as latin1).
    defParamCharset: 'utf8',
    storage: encryptingStorage(files, store, limits, form),
    limits: {
      files: limits.maxCount,
      fileSize: limits.maxFileBytes,
      fieldSize: FORM_LIMITS.payloadBytes, // the largest field; the others: checkField
      fields: FORM_LIMITS.fields,
      fieldNameSize: FORM_LIMITS.nameLength,
      fieldNestingDepth: FORM_LIMITS.nestingDepth,
      fieldArrayIndexLimit: FORM_LIMITS.arrayIndex,
      parts: limits.maxCount + FORM_LIMITS.fields,
    },
    streamHandler(req, busboy) {
      const state = states.get(req)!;
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
        if (received > maxBodyBytes && !busboy.destroyed) busboy.destroy(formTooLarge());
      });
    },
  };
  const parse = multer(options).any();
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return next();
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      return next(
        new HttpError(415, 'unsupported_media_type', 'Send multipart forms without Content-Encoding.'),
      );
    }
    if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) return next(formTooLarge());
    const state: UploadState = {
      pushId: newPushId(),
      totalBytes: 0,
      parts: 0,
      stored: [],
      inFlight: new Set(),
      fieldBytes: 0,
      parsing: false,
      parseErrors: new WeakSet(),
      settling: [],
    };
    states.set(req, state);
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
