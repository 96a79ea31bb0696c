import { createHash, randomBytes } from 'node:crypto';

/**
 * Personal API tokens: `spu_` and 256 bits from the CSPRNG in base64url (43 characters), 47
 * characters in all. The prefix tells them apart from the auth service's access tokens at a glance
 * (and to secret scanners); the database keeps only their SHA-256.
 */
export const PERSONAL_TOKEN_PREFIX = 'spu_';

const SHAPE = /^spu_[A-Za-z0-9_-]{43}$/;

export function generatePersonalToken(): string {
  return `${PERSONAL_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The lookup key: SHA-256 of the whole token string, prefix included. */
export function hashPersonalToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Anything presented with the prefix is a personal token, valid or not: never an access token. */
export const isPersonalToken = (token: string): boolean => token.startsWith(PERSONAL_TOKEN_PREFIX);

/** A personal token of the shape this service issues; anything else cannot exist here. */
export const isWellFormedPersonalToken = (token: string): boolean => SHAPE.test(token);
