import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { NewPush } from './push';

/*
 * Idempotent creates. A client may send an Idempotency-Key with a create and retry it with the same
 * key: the key is remembered for a while (24 hours by default) within a scope, with a fingerprint of
 * the request and the push it made. A retry of the same request gets that push again, as it is now;
 * another request under the same key is refused. Keys are kept only as SHA-256.
 */

/** How long a key is remembered unless configured otherwise: 24 hours. */
export const IDEMPOTENCY_TTL_SECONDS = 86_400;

/** An Idempotency-Key is 1 to 255 visible ASCII characters (0x21 to 0x7E). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export const isValidIdempotencyKey = (key: string): boolean => IDEMPOTENCY_KEY_PATTERN.test(key);

/**
 * The shortest key an anonymous caller may send: their scope is their IP, which others may share
 * (a NAT, a proxy), and whoever sends the same key from it with the same request gets the push. A
 * random UUID (36 characters) or 32 random hex digits qualify.
 */
export const MIN_ANONYMOUS_KEY_LENGTH = 32;

/** A new random key (32 bytes, base64url: 43 characters), as the web app's create form carries. */
export const newIdempotencyKey = (): string => randomBytes(32).toString('base64url');

/** Whether `key` may be used by a caller of this kind (anonymous callers need long keys). */
export const isAcceptableKey = (key: string, anonymous: boolean): boolean =>
  isValidIdempotencyKey(key) && (!anonymous || key.length >= MIN_ANONYMOUS_KEY_LENGTH);

/**
 * Whose keys these are: an authenticated caller's principal (`client:<id>`), or the client IP for
 * anonymous creates (the address the rate limiter counts), so two callers never share a key.
 */
export function idempotencyScope(principal: string | null, ip: string | null): string {
  return principal ?? `ip:${ip ?? 'unknown'}`;
}

/** A file of a create as the fingerprint sees it: its name, its size and the SHA-256 of its bytes. */
export interface FileFingerprint {
  filename: string;
  size: number;
  sha256?: Buffer;
}

/** The key as stored: its SHA-256, never the key itself. */
export function idempotencyKeyHash(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/**
 * The fingerprint of a create: SHA-256 (as an HMAC keyed by the idempotency key, so that the stored
 * value tells nothing about the payload to whoever does not hold the key) over the validated input
 * in a fixed field order, so that neither the order of the JSON keys nor the way a value was spelled
 * (`"5"` or `5`, `yes` or `true`) matters. A file create adds each file's name, size and SHA-256, in
 * the order of the parts.
 */
export function requestFingerprint(key: string, input: NewPush, files: readonly FileFingerprint[]): Buffer {
  const canonical = JSON.stringify([
    input.kind,
    input.payload,
    input.ttlSeconds,
    input.expireAfterDays,
    input.expireAfterViews,
    input.deletableByViewer,
    input.retrievalStep,
    input.passphrase,
    input.name,
    input.note,
    files.map((f) => [f.filename, f.size, f.sha256?.toString('hex') ?? null]),
    // Only when sent: the fingerprints of creates without email stay what they were.
    ...(input.email ? [input.email] : []),
  ]);
  return createHmac('sha256', key).update(canonical, 'utf8').digest();
}

/** Whether a retry is the request its key was first used with (constant time). */
export function isSameRequest(stored: Buffer, given: Buffer): boolean {
  return stored.length === given.length && timingSafeEqual(stored, given);
}
