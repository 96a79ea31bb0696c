import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256:';

/**
 * Client secrets are 256-bit random values, so a plain SHA-256 is as good as a slow hash here and
 * keeps the token and introspection endpoints fast (a slow hash would cost every token request
 * its CPU time). base64url has no `+ / % =`, which naive Basic-auth clients mishandle.
 */
export function generateClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Random 128-bit ids: never reused, and no client can be guessed from another. */
export function generateClientId(): string {
  return `spc_${randomBytes(16).toString('base64url')}`;
}

export function hashClientSecret(secret: string): string {
  return PREFIX + hash('sha256', secret, 'hex');
}

export function clientSecretMatches(stored: string | undefined, presented: string | undefined): boolean {
  if (!stored?.startsWith(PREFIX) || presented === undefined) return false;
  const expected = Buffer.from(stored.slice(PREFIX.length), 'hex');
  const actual = hash('sha256', presented, 'buffer');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
