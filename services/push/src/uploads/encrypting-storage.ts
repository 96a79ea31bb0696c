import { createHash } from 'node:crypto';
import { Transform, pipeline } from 'node:stream';
import { MulterError, type StorageEngine } from 'multer';
import { HttpError } from '@secret-push/http-kit';
import type { FileService } from '../domain/file-service';
import { safeContentType, safeFilename } from '../domain/file-names';
import type { ObjectStore } from '../domain/ports/object-store';
import { responseOf } from '../http/context-guard';
import { encryptStream } from '../security/file-cipher';
import { discardStored } from './cleanup';
import type { UploadForm, UploadLimits } from './form';
import { filesTooLarge, malformed } from './form-errors';
import { uploadStateOf } from './upload-state';

/**
 * A multer storage engine that streams each file, encrypted (security/file-cipher.ts), straight
 * into the object store: nothing is buffered whole, nothing touches local disk. An upload intent
 * is recorded before the first byte goes out. On a size limit, a client abort or a store failure,
 * the store upload is aborted *and* its body destroyed (abort alone leaves the multipart upload
 * hanging), and what was stored is deleted.
 */
export function encryptingStorage(
  files: FileService,
  store: ObjectStore,
  limits: UploadLimits,
  form: UploadForm,
): StorageEngine {
  return {
    _handleFile(req, file, cb) {
      const state = uploadStateOf(req); // the parser set it before multer saw the request
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
      let refused: Error | undefined;
      try {
        refused = form.admitFiles(req, responseOf(req));
      } catch (err) {
        refused = err as Error; // a chain without the steps it reads: a programming error, a 500
      }
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
                done(filesTooLarge(limits));
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
      const state = req.res?.locals.uploads;
      if (state) state.stored = state.stored.filter((s) => s.objectKey !== file.path);
      void discardStored(files, [file.path], state?.failed).then(() => cb(null));
    },
  };
}
