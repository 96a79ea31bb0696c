import { type KeyObject, createCipheriv, createDecipheriv, createSecretKey } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Streaming encryption of stored files: AES-256-GCM over 64 KiB chunks (the STREAM construction).
 * Each file has its own random key, so the nonce is the chunk counter; every chunk carries its tag,
 * and the additional data binds the file, the chunk's position and whether it is the last one, so
 * chunks cannot be reordered, moved between files, or cut off at a chunk boundary unnoticed.
 * Memory stays at about two chunks per stream, whatever the file size.
 *
 * App-level rather than S3 server-side encryption: it works the same on AWS S3, MinIO and s3rver
 * (which ignores SSE), the object store's operator never sees plaintext, and a file's key lives in
 * the push database sealed by the key ring, so wiping it makes the object unreadable at once.
 */
export const CHUNK_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const RECORD_BYTES = CHUNK_BYTES + TAG_BYTES;

export class FileIntegrityError extends Error {
  override readonly name = 'FileIntegrityError';
}

/** Stored size of a file of `plainBytes` bytes: one tag per chunk (an empty file is one empty chunk). */
export const encryptedSize = (plainBytes: number) =>
  plainBytes + TAG_BYTES * Math.max(1, Math.ceil(plainBytes / CHUNK_BYTES));

function nonce(counter: number): Buffer {
  const n = Buffer.alloc(12);
  n.writeBigUInt64BE(BigInt(counter), 4);
  return n;
}

const aad = (fileId: string, counter: number, last: boolean) =>
  Buffer.from(`${fileId}|${counter}|${last ? 1 : 0}`, 'utf8');

/** Collects incoming buffers and hands out fixed-size pieces, keeping at most one piece back. */
class Pieces {
  private parts: Buffer[] = [];
  private length = 0;

  push(chunk: Buffer): void {
    this.parts.push(chunk);
    this.length += chunk.length;
  }

  /** The next `size` bytes, only while more than `size` are held (so the last piece stays back). */
  takeIfMoreThan(size: number): Buffer | undefined {
    if (this.length <= size) return undefined;
    const all = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.length);
    const piece = all.subarray(0, size);
    const rest = all.subarray(size);
    this.parts = [rest];
    this.length = rest.length;
    return piece;
  }

  rest(): Buffer {
    const all = Buffer.concat(this.parts, this.length);
    this.parts = [];
    this.length = 0;
    return all;
  }
}

export function encryptStream(rawKey: Buffer, fileId: string): Transform {
  const key: KeyObject = createSecretKey(rawKey); // imported once, not per chunk
  const pieces = new Pieces();
  let counter = 0;
  /** Pushes the chunk's ciphertext, then its tag (no copy to join them). */
  const seal = (stream: Transform, plain: Buffer, last: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', key, nonce(counter));
    cipher.setAAD(aad(fileId, counter, last));
    counter++;
    stream.push(cipher.update(plain));
    cipher.final();
    stream.push(cipher.getAuthTag());
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      pieces.push(chunk);
      for (let p = pieces.takeIfMoreThan(CHUNK_BYTES); p; p = pieces.takeIfMoreThan(CHUNK_BYTES)) {
        seal(this, p, false);
      }
      done();
    },
    flush(done: TransformCallback) {
      seal(this, pieces.rest(), true);
      done();
    },
  });
}

export function decryptStream(rawKey: Buffer, fileId: string): Transform {
  const key: KeyObject = createSecretKey(rawKey);
  const pieces = new Pieces();
  let counter = 0;
  const open = (record: Buffer, last: boolean) => {
    if (record.length < TAG_BYTES) throw new FileIntegrityError('truncated file');
    const decipher = createDecipheriv('aes-256-gcm', key, nonce(counter));
    decipher.setAAD(aad(fileId, counter, last));
    decipher.setAuthTag(record.subarray(record.length - TAG_BYTES));
    counter++;
    try {
      const plain = decipher.update(record.subarray(0, record.length - TAG_BYTES));
      decipher.final(); // verifies the tag; GCM has no bytes left to return
      return plain;
    } catch {
      throw new FileIntegrityError('file failed authentication');
    }
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      try {
        pieces.push(chunk);
        for (let r = pieces.takeIfMoreThan(RECORD_BYTES); r; r = pieces.takeIfMoreThan(RECORD_BYTES)) {
          this.push(open(r, false));
        }
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done: TransformCallback) {
      try {
        done(null, open(pieces.rest(), true));
      } catch (err) {
        done(err as Error);
      }
    },
  });
}
