import type { Readable } from 'node:stream';

/*
 * A multipart/form-data body (RFC 7578) built while it is sent: each file is read chunk by chunk
 * as the connection takes it, so a file of any size is never held in memory. Files given by path
 * are opened again for each attempt, so such a body can be sent again; a stream given by the
 * caller can be read only once.
 *
 * Node's modules are loaded only for a file given by path: the SDK also runs in browsers, with
 * Blobs and web streams.
 */

/** A file to attach to a push. */
export type FileInput =
  /** A file on disk, streamed with fs.createReadStream. */
  | { path: string; filename?: string; contentType?: string }
  /** A Node Readable or a web ReadableStream; it can be sent once only (no retry after it was read). */
  | { stream: Readable | ReadableStream<Uint8Array>; filename: string; contentType?: string }
  /** A Blob (or a File, whose name is used when `filename` is absent). */
  | { blob: Blob; filename?: string; contentType?: string }
  | Blob;

export interface MultipartField {
  name: string;
  value: string;
}

interface NormalizedFile {
  filename: string;
  contentType: string;
  open: () => AsyncIterable<Uint8Array | string>;
  replayable: boolean;
  /** The file as a Blob, when it was given as one. */
  blob?: Blob;
}

const encoder = new TextEncoder();

function normalize(input: FileInput): NormalizedFile {
  if (input instanceof Blob) {
    return fromBlob(input, undefined, undefined);
  }
  if ('blob' in input) return fromBlob(input.blob, input.filename, input.contentType);
  if ('path' in input) {
    const { path } = input;
    return {
      filename: input.filename ?? baseName(path),
      contentType: input.contentType ?? 'application/octet-stream',
      open: async function* () {
        const { createReadStream } = await import('node:fs');
        yield* createReadStream(path, { highWaterMark: 64 * 1024 }) as AsyncIterable<Uint8Array>;
      },
      replayable: true,
    };
  }
  const { stream } = input;
  return {
    filename: input.filename,
    contentType: input.contentType ?? 'application/octet-stream',
    open: () => stream as AsyncIterable<Uint8Array | string>,
    replayable: false,
  };
}

function fromBlob(blob: Blob, filename: string | undefined, contentType: string | undefined): NormalizedFile {
  const name = filename ?? (typeof File !== 'undefined' && blob instanceof File ? blob.name : 'blob');
  return {
    filename: name,
    contentType: contentType ?? (blob.type || 'application/octet-stream'),
    open: () => blob.stream(),
    replayable: true,
    blob,
  };
}

/** The last segment of a path, as node:path's basename gives it (POSIX or Windows separators). */
const baseName = (path: string) => path.split(/[\\/]/).filter(Boolean).pop() ?? path;

/** Checks that every path names a readable file before anything is sent. */
export async function checkFiles(files: readonly FileInput[]): Promise<void> {
  for (const file of files) {
    if (!(file instanceof Blob) && 'path' in file) {
      const { stat } = await import('node:fs/promises');
      const info = await stat(file.path);
      if (!info.isFile()) throw new TypeError(`${file.path} is not a file`);
    }
  }
}

/** Quotes a name for a Content-Disposition parameter the way browsers do (WHATWG FormData). */
const quote = (value: string) => value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');

export interface MultipartBody {
  contentType: string;
  replayable: boolean;
  /** A new stream of the whole body; `onProgress` gets the bytes handed to the connection so far. */
  stream(onProgress?: (bytesSent: number) => void): ReadableStream<Uint8Array>;
  /**
   * The whole body as one Blob, when every file is a Blob (its parts refer to the files' Blobs:
   * nothing is read or copied), else undefined. For browsers, whose fetch streams a request body
   * only over HTTP/2 or later.
   */
  blob(): Blob | undefined;
}

export function multipartBody(
  fields: readonly MultipartField[],
  fileField: string,
  files: readonly FileInput[],
): MultipartBody {
  const boundary = `----secret-push-${crypto.randomUUID()}`;
  const normalized = files.map(normalize);

  /** The body in order: the encoded text around the files, and the files. */
  function* segments(): Generator<Uint8Array | NormalizedFile> {
    for (const field of fields) {
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(field.name)}"\r\n\r\n${field.value}\r\n`,
      );
    }
    for (const file of normalized) {
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(fileField)}"; filename="${quote(file.filename)}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      );
      yield file;
      yield encoder.encode('\r\n');
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }

  async function* parts(): AsyncGenerator<Uint8Array> {
    for (const segment of segments()) {
      if (segment instanceof Uint8Array) {
        yield segment;
        continue;
      }
      for await (const chunk of segment.open()) {
        yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      }
    }
  }

  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    replayable: normalized.every((f) => f.replayable),
    stream(onProgress) {
      const source = parts();
      let sent = 0;
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const next = await source.next();
            if (next.done) {
              controller.close();
              return;
            }
            controller.enqueue(next.value);
            sent += next.value.byteLength;
            onProgress?.(sent);
          },
          async cancel() {
            await source.return(undefined);
          },
        },
        { highWaterMark: 0 },
      );
    },
    blob() {
      if (!normalized.every((f) => f.blob)) return undefined;
      return new Blob(
        [...segments()].map((segment) => (segment instanceof Uint8Array ? segment : segment.blob!)),
        { type: `multipart/form-data; boundary=${boundary}` },
      );
    },
  };
}
