import { randomBytes, randomFillSync } from 'node:crypto';

/*
 * Small random values (nonces, link tokens) from a pool the CSPRNG fills 4 KiB at a time, as Node
 * does for randomUUID: a call into the CSPRNG per value cost up to 7% of the push API's CPU on a
 * create (three calls each). Each value is copied out and its bytes in the pool are zeroed, so the
 * pool holds no value that was handed out; larger requests go to the CSPRNG directly.
 */
const POOL_BYTES = 4096;
const MAX_POOLED = 64;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

export function pooledRandomBytes(size: number): Buffer {
  if (size > MAX_POOLED) return randomBytes(size);
  if (offset + size > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = Buffer.from(pool.subarray(offset, offset + size));
  pool.fill(0, offset, offset + size);
  offset += size;
  return out;
}
