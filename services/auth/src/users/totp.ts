import { Secret, TOTP } from 'otpauth';

/*
 * The time-based one-time password (TOTP, RFC 6238) of the second factor, with the `otpauth`
 * library (maintained, RFC-tested) rather than hand-written HMAC truncation. The parameters are
 * the ones every authenticator app understands by default: HMAC-SHA-1, 6 digits, 30-second steps,
 * a 160-bit secret (RFC 4226 §4 recommends it), shown base32.
 *
 * A code is accepted for the previous, current or next step (one step of clock drift either way),
 * and only for a step later than the last one the account used (kept in `totp_last_step`): a code
 * cannot be used twice, nor an older one after a newer.
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
const ALGORITHM = 'SHA1';
const SECRET_BYTES = 20;
/** Steps either side of now that a code may be for. */
const WINDOW = 1;

const CODE = /^[0-9]{6}$/;

/** A new random secret, base32 (what authenticator apps take when typed in). */
export function generateTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

function totp(secret: string, label = 'account', issuer = 'secret-push'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/**
 * The `otpauth://totp/…` URI an authenticator app scans (Key Uri Format): the issuer (e.g.
 * "secret-push") names the service in the app, the email the account.
 */
export function totpUri(secret: string, email: string, issuer: string): string {
  return totp(secret, email, issuer).toString();
}

/** A code as typed, without spaces (apps show "123 456"); undefined unless it is 6 digits. */
export function normaliseTotpCode(input: string): string | undefined {
  const code = input.replace(/\s+/g, '');
  return CODE.test(code) ? code : undefined;
}

/**
 * The time step `code` is the code of for `secret`, within one step of `nowMs`, or undefined when
 * it is none of them. Whether the step was already used is the caller's check (`totp_last_step`).
 */
export function totpCodeStep(secret: string, code: string, nowMs = Date.now()): number | undefined {
  const normalised = normaliseTotpCode(code);
  if (normalised === undefined) return undefined;
  const delta = totp(secret).validate({ token: normalised, timestamp: nowMs, window: WINDOW });
  if (delta === null) return undefined;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: nowMs }) + delta;
}

/** Whether a step may be accepted after `lastStep` (the last accepted one, or null for none). */
export function isLaterStep(step: number, lastStep: string | number | null): boolean {
  return lastStep === null || step > Number(lastStep);
}

/** The code of `secret` for the step at `nowMs` (for tests and the browser test's authenticator). */
export function totpCodeAt(secret: string, nowMs = Date.now()): string {
  return totp(secret).generate({ timestamp: nowMs });
}
