import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * One-time codes for requests answerable only by listed addresses (`answerable_by: emails`, issue
 * 28): the responder asks for a code (`POST /requests/:t/code`), receives it by email, and answers
 * with the address and the code. The rules, without I/O:
 *
 * - a code is 6 digits from the CSPRNG, valid `CODE_TTL_SECONDS` (15 min) and for one answer;
 *   the validity, attempts, resend interval and rates are the defaults of RequestCodeLimits
 *   (operators tune them: config/request-codes.ts);
 * - it is stored only as a hash bound to its request and address (and, for the email, sealed with
 *   the key ring: storage/request-code.repository.ts), one per (request, address): asking again
 *   replaces it, at most once per `CODE_RESEND_SECONDS`;
 * - `CODE_MAX_ATTEMPTS` wrong codes for an address spend its code (a new one must be asked for);
 * - asking always gets the same answer, listed or not, open or not (no enumeration of addresses).
 */

export const CODE_DIGITS = 6;
export const CODE_TTL_SECONDS = 15 * 60;
export const CODE_MAX_ATTEMPTS = 5;
/** A new code for the same request and address at most this often (the inbox is not flooded). */
export const CODE_RESEND_SECONDS = 60;

/** What `POST /requests/:t/code` always says, for codes valid `ttlSeconds`. */
export const codeSentMessage = (ttlSeconds: number): string =>
  `If this address may answer the request, a code is on its way to it. It is valid for ${codeValidMinutes(ttlSeconds)} minutes.`;

/** A validity in whole minutes, as the email and the API say it (rounded up, at least 1). */
export const codeValidMinutes = (seconds: number): number => Math.max(1, Math.ceil(seconds / 60));

/** What `POST /requests/:t/code` says with the default validity. */
export const CODE_SENT_MESSAGE = codeSentMessage(CODE_TTL_SECONDS);

/** A new code: `CODE_DIGITS` decimal digits, uniformly drawn. */
export function generateAnswerCode(): string {
  return String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
}

/** Addresses compare without regard to case or surrounding spaces (the request stores them lower-cased). */
export const normalizeAddress = (address: string): string => address.trim().toLowerCase();

/** A code as typed: digits, spaces and dashes ignored; null when it cannot be a code. */
export function parseAnswerCode(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 20) return null;
  const digits = raw.replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${CODE_DIGITS}}$`).test(digits) ? digits : null;
}

/** The stored form of a code, bound to its request and address (a hash moved to another row never matches). */
export function hashAnswerCode(requestId: string, address: string, code: string): Buffer {
  return createHash('sha256')
    .update(`secret-push request answer code v1\0${requestId}\0${normalizeAddress(address)}\0${code}`)
    .digest();
}

export const sameCodeHash = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

/** The request facts that decide whether an address may ask for a code, or answer with one. */
export interface CodeSubject {
  state: 'open' | 'answered' | 'closed';
  answerableBy: 'anyone' | 'users' | 'emails';
  answerableEmails: readonly string[];
  closeAfterAt: Date;
}

/** Whether a code is sent to `address` for this request (else nothing happens, silently). */
export function mayReceiveCode(request: CodeSubject, address: string, now: Date): boolean {
  return (
    request.state === 'open' &&
    request.answerableBy === 'emails' &&
    request.closeAfterAt.getTime() > now.getTime() &&
    request.answerableEmails.includes(normalizeAddress(address))
  );
}

/** A stored code as read back. */
export interface StoredAnswerCode {
  codeHash: Buffer;
  expiresAt: Date;
  attempts: number;
  usedAt: Date | null;
}

export type CodeVerdict = 'ok' | 'missing' | 'wrong' | 'expired' | 'used' | 'exhausted';

/** What a code given with an answer is worth against the stored one (the store counts `wrong`). */
export function judgeAnswerCode(
  stored: StoredAnswerCode | undefined,
  given: Buffer,
  now: Date,
  maxAttempts: number = CODE_MAX_ATTEMPTS,
): CodeVerdict {
  if (!stored) return 'missing';
  if (stored.usedAt) return 'used';
  if (stored.attempts >= maxAttempts) return 'exhausted';
  if (stored.expiresAt.getTime() <= now.getTime()) return 'expired';
  return sameCodeHash(stored.codeHash, given) ? 'ok' : 'wrong';
}

/** Code requests (`POST /requests/:t/code`) per IP and per request in `CODE_RATE_WINDOW_SECONDS`. */
export const CODE_RATE_WINDOW_SECONDS = 600;
export const CODE_REQUESTS_PER_IP = 10;
export const CODE_REQUESTS_PER_REQUEST = 15;

/**
 * The operator-tunable limits of the codes (config/request-codes.ts, `PUSH_REQUEST_CODE_*`); the
 * code's length is not one of them. Every user of a limit takes this object, defaulting to
 * DEFAULT_CODE_LIMITS (the constants above).
 */
export interface RequestCodeLimits {
  ttlSeconds: number;
  maxAttempts: number;
  resendSeconds: number;
  requestsPerIp: number;
  requestsPerRequest: number;
  rateWindowSeconds: number;
}

export const DEFAULT_CODE_LIMITS: Readonly<RequestCodeLimits> = Object.freeze({
  ttlSeconds: CODE_TTL_SECONDS,
  maxAttempts: CODE_MAX_ATTEMPTS,
  resendSeconds: CODE_RESEND_SECONDS,
  requestsPerIp: CODE_REQUESTS_PER_IP,
  requestsPerRequest: CODE_REQUESTS_PER_REQUEST,
  rateWindowSeconds: CODE_RATE_WINDOW_SECONDS,
});
