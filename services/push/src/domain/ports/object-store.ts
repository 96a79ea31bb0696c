import type { Readable } from 'node:stream';

/** The object store as the files feature needs it; any S3-compatible server (files/object-store.ts). */
export interface ObjectStore {
  /** Streams `body` into `key` (multipart for large bodies); `abort()` stops it and drops its parts. */
  upload(key: string, body: Readable): { done: Promise<void>; abort(): Promise<void> };
  /** The object's bytes as a stream; undefined if there is no such object. */
  download(key: string): Promise<Readable | undefined>;
  /** Deletes the objects; objects already gone are fine (purges are idempotent). */
  delete(keys: string[]): Promise<void>;
  /** Throws unless the bucket is reachable (readiness). */
  check(): Promise<void>;
  close(): void;
}
