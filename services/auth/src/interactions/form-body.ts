import type { Context } from 'koa';

/** The login form is an email and a password (≤ 1024 bytes, URL-encoded ≤ 3 KiB) and a token. */
export const FORM_LIMIT_BYTES = 8 * 1024;

export class FormError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The POSTed form (`application/x-www-form-urlencoded`), read whole only up to `limit` bytes. Our
 * own routes read it; oidc-provider's routes are never given a parsed body (they parse their own).
 */
export async function readForm(ctx: Context, limit = FORM_LIMIT_BYTES): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw new FormError(415, 'The form must be sent as application/x-www-form-urlencoded.');
  }
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > limit) throw new FormError(413, 'The form is too large.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > limit) throw new FormError(413, 'The form is too large.');
    chunks.push(bytes);
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new FormError(400, 'The form is not valid UTF-8.');
  }
  return new URLSearchParams(text);
}

/** A field sent exactly once, or undefined (absent, or sent twice). */
export function single(form: URLSearchParams, name: string): string | undefined {
  const values = form.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}
