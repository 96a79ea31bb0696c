import { z } from 'zod';

/** RFC 5321's limit on a forward path, which every address we store must fit in. */
export const EMAIL_MAX_LENGTH = 254;

/**
 * What a browser's `<input type="email">` accepts (one @, no spaces, a dotted or single-label
 * domain), so that the sign-in page and the operator CLI agree on what an email address is.
 * Deliverability is not checked: the operator vouches for the addresses they create.
 */
const emailSchema = z.email({ pattern: z.regexes.html5Email });

/** The one spelling an address is stored and looked up in: trimmed, NFC, lower-cased. */
export function normaliseEmail(input: string): string {
  return input.trim().normalize('NFC').toLowerCase();
}

/** Why a normalised `email` is not an acceptable address, or undefined when it is. */
export function emailProblem(email: string): string | undefined {
  if (email.length > EMAIL_MAX_LENGTH) return `an email address is at most ${EMAIL_MAX_LENGTH} characters`;
  if (!emailSchema.safeParse(email).success) return `${JSON.stringify(email)} is not a valid email address`;
  return undefined;
}
