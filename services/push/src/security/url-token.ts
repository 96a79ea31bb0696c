import { createHash } from 'node:crypto';
import { pooledRandomBytes } from '@secret-push/key-ring';

/** 128 bits from the CSPRNG, base64url: 22 characters of `[A-Za-z0-9_-]`. */
export function generateUrlToken(): string {
  return pooledRandomBytes(16).toString('base64url');
}

/** The lookup key: the database holds only this and an encrypted copy, never the token itself. */
export function hashUrlToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Tokens of other implementations are shorter; anything outside this shape cannot exist here. */
export function isWellFormedUrlToken(token: string): boolean {
  return /^[\w-]{8,64}$/.test(token);
}
