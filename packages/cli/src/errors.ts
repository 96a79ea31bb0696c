import { InsecureUrlError, SecretPushError } from '@secret-push/client';
import { ConfigError } from './config.ts';
import { BadLinkError } from './links.ts';

/** The exit codes (the usage text lists them). */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  unavailable: 5,
} as const;

/** A command line that does not make sense: exits 2 with a hint to --help. */
export class UsageError extends Error {
  override name = 'UsageError';
}
/** No credentials, or credentials refused outside the API (the token endpoint). */
export class AuthError extends Error {
  override name = 'AuthError';
}

/** The exit code and the one line to print for an error. */
export function describeError(err: unknown): { code: number; message: string } {
  if (err instanceof UsageError || err instanceof BadLinkError) {
    return { code: EXIT.usage, message: err.message };
  }
  if ((err as { code?: unknown } | null)?.code?.toString().startsWith('ERR_PARSE_ARGS')) {
    return { code: EXIT.usage, message: (err as Error).message };
  }
  if (err instanceof InsecureUrlError) {
    return {
      code: EXIT.usage,
      message:
        `Refusing ${err.url}: a plain http:// URL sends secrets unencrypted. ` +
        'Use https://, or pass --insecure if this network is trusted',
    };
  }
  if (err instanceof AuthError) return { code: EXIT.auth, message: err.message };
  if (err instanceof ConfigError) return { code: EXIT.error, message: err.message };
  if (err instanceof SecretPushError) {
    let message = err.error || err.message;
    if (err.fields) {
      const details = Object.entries(err.fields).map(([k, v]) => `${k} ${v.join(', ')}`);
      if (details.length > 0) message += ` (${details.join('; ')})`;
    }
    if (err.retryAfter !== undefined) message += ` Try again in ${err.retryAfter} s.`;
    if (err.requestId) message += ` [request id ${err.requestId}]`;
    return { code: exitCodeOf(err), message };
  }
  if (err instanceof TypeError && err.message === 'not a push token') {
    return { code: EXIT.usage, message: 'Not a push link or token' };
  }
  if (err instanceof TypeError && err.message === 'not a request token') {
    return { code: EXIT.usage, message: 'Not a request link or token' };
  }
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string' && typeof e.path === 'string') {
    return { code: EXIT.error, message: `${e.path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}` };
  }
  return { code: EXIT.error, message: e instanceof Error ? e.message : String(err) };
}

function exitCodeOf(err: SecretPushError): number {
  switch (err.kind) {
    case 'unauthorized':
    case 'forbidden':
    case 'passphrase_required':
      return EXIT.auth;
    case 'not_found':
    case 'expired':
    case 'gone':
      return EXIT.notFound;
    case 'conflict':
      return EXIT.error;
    case 'rate_limited':
    case 'unavailable':
    case 'timeout':
    case 'network':
      return EXIT.unavailable;
    case 'validation':
    case 'other':
      // The token endpoint refuses bad credentials with 400 or 401 (RFC 6749 §5.2).
      return ['invalid_client', 'unauthorized_client', 'invalid_grant'].includes(err.code)
        ? EXIT.auth
        : EXIT.error;
  }
}
