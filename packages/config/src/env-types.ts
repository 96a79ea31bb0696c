import { z } from 'zod';

/** An integer variable with bounds; the message names the allowed range. */
export function envInt(min: number, max: number) {
  return z
    .string()
    .regex(/^-?\d+$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/** `true/false/1/0/yes/no/on/off`, case-insensitive. */
export function envBoolean() {
  return z
    .string()
    .transform((v) => v.toLowerCase())
    .refine((v) => TRUE.includes(v) || FALSE.includes(v), 'must be true or false')
    .transform((v) => TRUE.includes(v));
}

/** A comma-separated list; blanks dropped. */
export function envCsv() {
  return z.string().transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
}

/** A JSON document validated by `inner`. */
export function envJson<T extends z.ZodType>(inner: T) {
  return z
    .string()
    .transform((v, ctx) => {
      try {
        return JSON.parse(v) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(inner);
}
