import type { Redis } from 'ioredis';
import type { Logger } from '@secret-push/logger';
import type { StoredFile } from '../domain/ports/file-store';
import type { RememberedReveal, RevealClaim, RevealMemory } from '../domain/ports/reveal-memory';

/** A reveal in flight, while its id is held. */
const PENDING = 'pending';
/** How long a claim waits for a reveal in flight with the same id to finish, and how often it looks. */
const WAIT_MS = 2_000;
const POLL_MS = 100;

type Json<T> = {
  [K in keyof T]: T[K] extends Buffer ? string : T[K] extends Buffer | null ? string | null : T[K];
};

const b64 = (b: Buffer) => b.toString('base64');
const buf = (s: string) => Buffer.from(s, 'base64');

function encode(r: RememberedReveal): string {
  const files: Json<StoredFile>[] = r.files.map((f) => ({
    ...f,
    filenameSealed: b64(f.filenameSealed),
    keySealed: b64(f.keySealed),
  }));
  return JSON.stringify({
    ...r,
    payloadSealed: r.payloadSealed && b64(r.payloadSealed),
    fingerprint: b64(r.fingerprint),
    files,
  });
}

function decode(text: string): RememberedReveal {
  const r = JSON.parse(text) as Omit<Json<RememberedReveal>, 'files'> & { files: Json<StoredFile>[] };
  return {
    ...r,
    payloadSealed: r.payloadSealed === null ? null : buf(r.payloadSealed),
    fingerprint: buf(r.fingerprint),
    files: r.files.map((f) => ({ ...f, filenameSealed: buf(f.filenameSealed), keySealed: buf(f.keySealed) })),
  };
}

/**
 * The reveal memory over Redis (`<prefix>reveal:<key>`): a claim is `SET NX` of a pending marker,
 * a remembered reveal replaces it for the window, and Redis forgets both by themselves (PX). It
 * holds only sealed values and hashes. Without Redis a claim is `unavailable`: the reveal goes on
 * as one without an id (it spends its view), logged.
 */
export function createRevealMemory(redis: Redis, prefix: string, logger: Logger): RevealMemory {
  const keyOf = (key: string) => `${prefix}reveal:${key}`;
  const unavailable = (err: unknown): RevealClaim => {
    logger.warn({ err: (err as Error).message }, 'reveal memory unavailable: a reveal id is not honoured');
    return { state: 'unavailable' };
  };
  return {
    async claim(key, pendingMs) {
      try {
        for (let waited = 0; ; waited += POLL_MS) {
          if ((await redis.set(keyOf(key), PENDING, 'PX', pendingMs, 'NX')) === 'OK') {
            return { state: 'claimed' };
          }
          const held = await redis.get(keyOf(key));
          if (held !== null && held !== PENDING) return { state: 'remembered', reveal: decode(held) };
          if (held === PENDING && waited >= WAIT_MS) return { state: 'busy' };
          if (held === PENDING) await new Promise((r) => setTimeout(r, POLL_MS));
        }
      } catch (err) {
        return unavailable(err);
      }
    },
    async remember(key, reveal, ttlMs) {
      await redis.set(keyOf(key), encode(reveal), 'PX', ttlMs).catch((err: unknown) => {
        logger.warn({ err: (err as Error).message }, 'reveal memory unavailable: a reveal is not remembered');
      });
    },
    async release(key) {
      await redis.del(keyOf(key)).catch(() => undefined);
    },
  };
}
