import { Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import { HttpError } from '@secret-push/http-kit';
import { type CreateFeatures, mayCreate } from '../domain/create-policy';
import type { FileService, StoredUpload } from '../domain/file-service';
import { safeContentType, safeFilename } from '../domain/file-names';
import type { ObjectStore } from '../domain/ports';
import { encryptStream } from '../security/file-cipher';
import { principalOf } from './bearer-auth';
import { createRefusal, toHttpError } from './error-map';

export interface UploadLimits {
  maxCount: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

/** The field clients send files in (`push[files][]`, repeated; `push[files]` is accepted too). */
const FILE_FIELDS = new Set(['push[files][]', 'push[files]']);
const MIB = 1024 * 1024;

const fmtBytes = (n: number) => (n % MIB === 0 ? `${n / MIB} MiB` : `${n} bytes`);

interface UploadState {
  pushId: string;
  totalBytes: number;
  /** Files in the order their parts arrived (uploads may finish in another order). */
  parts: number;
  stored: (StoredUpload & { part: number })[];
  /** Cancels the uploads in flight (a client that goes away). */
  inFlight: Set<(why: Error) => void>;
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
  features: CreateFeatures,
): StorageEngine {
  return {
    _handleFile(req, file, cb) {
      const state = states.get(req)!;
      if (!FILE_FIELDS.has(file.fieldname)) {
        cb(
          HttpError.validation({ files: [`Send files in the field push[files][], not ${file.fieldname}.`] }),
        );
        return;
      }
      const allowed = mayCreate(principalOf(req), 'file', features);
      if (!allowed.ok) {
        cb(createRefusal(allowed));
        return;
      }
      let failure: Error | undefined;
      let size = 0;
      const part = state.parts++;
      files.prepareUpload(state.pushId).then(
        (prepared) => {
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
              });
              cb(null, { path: prepared.objectKey, size });
              return Promise.resolve();
            })
            .catch(async (err: Error) => {
              await files.discard([prepared.objectKey]);
              cb(failure ?? err);
            });
        },
        (err: Error) => cb(err),
      );
    },

    _removeFile(req, file, cb) {
      const state = states.get(req);
      if (state) state.stored = state.stored.filter((s) => s.objectKey !== file.path);
      void files.discard([file.path]).then(() => cb(null));
    },
  };
}

/** Multer's limit errors as the API reports them (a file too large or too many files). */
function uploadError(err: unknown, limits: UploadLimits): unknown {
  if (!(err instanceof MulterError)) return toHttpError(err);
  switch (err.code) {
    case 'LIMIT_FILE_SIZE': {
      const message = `A file exceeds the limit of ${fmtBytes(limits.maxFileBytes)}.`;
      return new HttpError(413, 'payload_too_large', message, { fields: { files: [message] } });
    }
    case 'LIMIT_FILE_COUNT':
      return HttpError.validation({
        files: [`You can only attach up to ${limits.maxCount} files per push.`],
      });
    case 'LIMIT_FIELD_VALUE':
    case 'LIMIT_PART_COUNT':
    case 'LIMIT_FIELD_COUNT':
    case 'LIMIT_FIELD_KEY':
      return new HttpError(413, 'payload_too_large', `The form is too large (${err.message}).`);
    case 'LIMIT_UNEXPECTED_FILE':
    case 'MISSING_FIELD_NAME':
      return new HttpError(400, 'bad_request', `Malformed multipart form: ${err.message}.`);
  }
}

/**
 * Parses a `multipart/form-data` create: fields into `req.body` (`push[payload]` → body.push.payload),
 * files streamed to the store under a push id chosen now. Anything else passes through untouched.
 */
export function uploadFiles(
  files: FileService,
  store: ObjectStore,
  limits: UploadLimits,
  features: CreateFeatures,
  newPushId: () => string,
): RequestHandler {
  const parse = multer({
    // Browsers send file names as raw UTF-8 (busboy would read them as latin1).
    defParamCharset: 'utf8',
    storage: encryptingStorage(files, store, limits, features),
    limits: {
      files: limits.maxCount,
      fileSize: limits.maxFileBytes,
      fieldSize: 16 * MIB,
      fields: 100,
      parts: limits.maxCount + 100,
    },
  }).any();
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return next();
    const state: UploadState = {
      pushId: newPushId(),
      totalBytes: 0,
      parts: 0,
      stored: [],
      inFlight: new Set(),
    };
    states.set(req, state);
    req.once('close', () => {
      if (!req.readableEnded) for (const cancel of state.inFlight) cancel(new Error('Request aborted'));
    });
    parse(req, res, (err: unknown) => next(err ? uploadError(err, limits) : undefined));
  };
}
