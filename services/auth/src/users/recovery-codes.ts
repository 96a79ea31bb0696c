import { createHash, randomInt } from 'node:crypto';

/*
 * Recovery codes: the way back in without the authenticator. A set is 10 codes, each 10 random
 * base32 characters (50 bits; shown as `xxxxx-xxxxx`), generated together and shown once. Only
 * their SHA-256 hashes are stored (a plain hash is enough: the codes are random and long, not
 * people's choices); each works once (its hash is removed when used), and generating a new set
 * replaces the whole old one. What people type is normalised first: case, spaces and dashes do not
 * matter.
 */
export const RECOVERY_CODES_PER_SET = 10;
const CODE_CHARACTERS = 10;
/** RFC 4648 base32, lower-case: no 0/1/8/9, so nothing to confuse with o/l/b/g. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const NORMALISED = /^[a-z2-7]{10}$/;

function generateCode(): string {
  let code = '';
  for (let i = 0; i < CODE_CHARACTERS; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A new set of recovery codes, as shown to the person (`xxxxx-xxxxx`). */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES_PER_SET }, generateCode);
}

/** A recovery code as typed, in its one stored spelling; undefined when it cannot be one. */
export function normaliseRecoveryCode(input: string): string | undefined {
  const code = input.replace(/[\s-]+/g, '').toLowerCase();
  return NORMALISED.test(code) ? code : undefined;
}

/** The stored form of a (normalised) recovery code: SHA-256, hex. */
export function hashRecoveryCode(normalised: string): string {
  return createHash('sha256').update(normalised, 'utf8').digest('hex');
}

/** The hashes of a set of codes as shown. */
export function hashRecoveryCodes(codes: readonly string[]): string[] {
  return codes.map((c) => hashRecoveryCode(normaliseRecoveryCode(c)!));
}
