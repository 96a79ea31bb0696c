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

/**
 * Incoming buffers as a queue of slices: `take(n)` hands out the next `n` bytes as slices of the
 * buffers that arrived (no copy), so a chunk that spans several socket reads is fed to the cipher
 * piece by piece instead of being joined first. Joining cost a copy and an allocation of every
 * byte, garbage that kept the push process's memory high during large transfers.
 */
class SliceQueue {
  private slices: Buffer[] = [];
  length = 0;

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.slices.push(chunk);
    this.length += chunk.length;
  }

  take(n: number): Buffer[] {
    const out: Buffer[] = [];
    let wanted = n;
    while (wanted > 0) {
      const head = this.slices[0]!;
      if (head.length <= wanted) {
        out.push(head);
        this.slices.shift();
        wanted -= head.length;
      } else {
        out.push(head.subarray(0, wanted));
        this.slices[0] = head.subarray(wanted);
        wanted = 0;
      }
    }
    this.length -= n;
    return out;
  }

  takeAll(): Buffer[] {
    return this.take(this.length);
  }
}

export function encryptStream(rawKey: Buffer, fileId: string): Transform {
  const key: KeyObject = createSecretKey(rawKey); // imported once, not per chunk
  const queue = new SliceQueue();
  let counter = 0;
  /** Pushes the chunk's ciphertext slice by slice, then its tag (no copy to join them). */
  const seal = (stream: Transform, plain: Buffer[], last: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', key, nonce(counter));
    cipher.setAAD(aad(fileId, counter, last));
    counter++;
    for (const slice of plain) stream.push(cipher.update(slice));
    cipher.final();
    stream.push(cipher.getAuthTag());
  };
  return new Transform({
    // Hands out the ciphertext pieces one by one: in byte mode, a reader that calls read() (an
    // async iterator does) gets everything buffered joined into a new buffer, a copy of each byte.
    readableObjectMode: true,
    readableHighWaterMark: 16, // pieces: at most 1 MiB waiting
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      queue.push(chunk);
      // A full chunk is sealed only once a byte beyond it has arrived: the last chunk is marked.
      while (queue.length > CHUNK_BYTES) seal(this, queue.take(CHUNK_BYTES), false);
      done();
    },
    flush(done: TransformCallback) {
      seal(this, queue.takeAll(), true);
      done();
    },
  });
}

/** The record's ciphertext slices and its tag (the last TAG_BYTES, which may span slices). */
function splitTag(record: Buffer[], size: number): { body: Buffer[]; tag: Buffer } {
  const bodyBytes = size - TAG_BYTES;
  const body: Buffer[] = [];
  const tagParts: Buffer[] = [];
  let offset = 0;
  for (const slice of record) {
    const end = offset + slice.length;
    if (end <= bodyBytes) body.push(slice);
    else if (offset >= bodyBytes) tagParts.push(slice);
    else {
      body.push(slice.subarray(0, bodyBytes - offset));
      tagParts.push(slice.subarray(bodyBytes - offset));
    }
    offset = end;
  }
  return { body, tag: tagParts.length === 1 ? tagParts[0]! : Buffer.concat(tagParts) };
}

export function decryptStream(rawKey: Buffer, fileId: string): Transform {
  const key: KeyObject = createSecretKey(rawKey);
  const queue = new SliceQueue();
  let counter = 0;
  /** Opens one record; its plaintext is released only after its tag has been verified. */
  const open = (stream: Transform, record: Buffer[], size: number, last: boolean) => {
    if (size < TAG_BYTES) throw new FileIntegrityError('truncated file');
    const { body, tag } = splitTag(record, size);
    const decipher = createDecipheriv('aes-256-gcm', key, nonce(counter));
    decipher.setAAD(aad(fileId, counter, last));
    decipher.setAuthTag(tag);
    counter++;
    const plain: Buffer[] = [];
    try {
      for (const slice of body) plain.push(decipher.update(slice));
      decipher.final(); // verifies the tag; GCM has no bytes left to return
    } catch {
      throw new FileIntegrityError('file failed authentication');
    }
    for (const p of plain) stream.push(p);
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      try {
        queue.push(chunk);
        while (queue.length > RECORD_BYTES) open(this, queue.take(RECORD_BYTES), RECORD_BYTES, false);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done: TransformCallback) {
      try {
        const size = queue.length;
        open(this, queue.takeAll(), size, true);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
}
