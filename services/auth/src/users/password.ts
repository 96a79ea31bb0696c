import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/*
 * Passwords are people's secrets, so unlike client secrets (random, SHA-256) they get a slow hash:
 * scrypt N=2^15, r=8, p=1 (32 MiB, roughly 50-100 ms per hash), always through the asynchronous
 * scrypt, which runs on the libuv thread pool and leaves the event loop free. Stored as
 * `scrypt$N$r$p$salt$hash` (salt and hash base64url), the parameters with each hash so that they can
 * be raised later without invalidating the hashes already stored.
 */
const N = 2 ** 15;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** The memory scrypt needs for these parameters (OpenSSL's own count: V is 128·r·(N+2), B is 128·r·p). */
const memoryFor = (n: number, r: number, p: number): number => 128 * r * (n + 2 + p);

/**
 * A stored hash asking for more than this is refused by `verifyPassword`, so that a tampered row
 * cannot make one verification allocate gigabytes.
 */
const MAX_MEMORY = 4 * memoryFor(N, R, P);

/** At least this many characters (Unicode code points) … */
export const PASSWORD_MIN_CHARACTERS = 12;
/** … and at most this many bytes (UTF-8): bounds the work a hash does before it is done. */
export const PASSWORD_MAX_BYTES = 1024;

/** Generated passwords: 24 base64url characters, i.e. 18 random bytes (144 bits). */
const GENERATED_BYTES = 18;

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The form every password is hashed, checked and measured in: one Unicode spelling of each text. */
const normalise = (password: string): string => password.normalize('NFC');

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_BYTES, { N: n, r, p, maxmem: memoryFor(n, r, p) }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (base64url) of the password; a fresh salt every time. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(normalise(password), salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

const integer = (v: string | undefined): number =>
  v !== undefined && /^[1-9][0-9]{0,9}$/.test(v) ? Number(v) : NaN;

/** The scrypt parameters of a stored hash, or undefined when it is malformed or asks too much. */
function parseHash(stored: string) {
  const [scheme, nText, rText, pText, salt, hash, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || salt === undefined || hash === undefined) return undefined;
  const [n, r, p] = [integer(nText), integer(rText), integer(pText)] as const;
  const powerOfTwo = n > 1 && (n & (n - 1)) === 0;
  if (!powerOfTwo || !(r >= 1 && r <= 64) || !(p >= 1 && p <= 16)) return undefined;
  if (memoryFor(n, r, p) > MAX_MEMORY) return undefined;
  if (!BASE64URL.test(salt) || !BASE64URL.test(hash)) return undefined;
  const expected = Buffer.from(hash, 'base64url');
  const saltBytes = Buffer.from(salt, 'base64url');
  if (expected.length !== KEY_BYTES || saltBytes.length < SALT_BYTES) return undefined;
  return { n, r, p, salt: saltBytes, expected };
}

/**
 * Whether `candidate` is the password of `stored`, compared in constant time. False for a malformed
 * hash, and for a candidate longer than any password we accept (no work is done for it).
 */
export async function verifyPassword(stored: string, candidate: string): Promise<boolean> {
  const parsed = parseHash(stored);
  const password = normalise(candidate);
  if (!parsed || Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) return false;
  const actual = await derive(password, parsed.salt, parsed.n, parsed.r, parsed.p);
  return timingSafeEqual(parsed.expected, actual);
}

let dummyHash: Promise<string> | undefined;

/**
 * As slow as `verifyPassword` and always false: a sign-in for an email that has no account calls
 * it, so that the answer does not come back measurably sooner than for a wrong password.
 */
export async function verifyDummy(candidate: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(GENERATED_BYTES).toString('base64url'));
  await verifyPassword(await dummyHash, candidate);
  return false;
}

/** A new random password: 24 URL-safe characters (144 bits), for people to store in a manager. */
export function generatePassword(): string {
  return randomBytes(GENERATED_BYTES).toString('base64url');
}

/**
 * Why `password` may not be the password of the account `email` (normalised), or undefined when
 * it may. Length is the rule that matters (NIST SP 800-63B): no composition rules.
 */
export function passwordRuleViolation(password: string, email: string): string | undefined {
  const rule = brokenPasswordRule(password, email);
  if (rule === 'too_long') return `the password must be at most ${PASSWORD_MAX_BYTES} bytes`;
  if (rule === 'too_short') return `the password must be at least ${PASSWORD_MIN_CHARACTERS} characters`;
  if (rule === 'is_email') return 'the password must not be the email address';
  return undefined;
}

/** The rule `password` breaks (pages word it in their language), or undefined: the same checks. */
export type PasswordRule = 'too_long' | 'too_short' | 'is_email';

export function brokenPasswordRule(password: string, email: string): PasswordRule | undefined {
  const normalised = normalise(password);
  if (Buffer.byteLength(normalised, 'utf8') > PASSWORD_MAX_BYTES) return 'too_long';
  if ([...normalised].length < PASSWORD_MIN_CHARACTERS) return 'too_short';
  if (normalised.trim().toLowerCase() === email) return 'is_email';
  return undefined;
}
