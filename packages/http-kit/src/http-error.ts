/** The fixed set of error codes (listed with their statuses in docs/api.md). Programs branch on these. */
export const ERROR_CODES = [
  'bad_request',
  'invalid_page',
  'unauthorized',
  'invalid_token',
  'insufficient_scope',
  'forbidden',
  'not_found',
  'passphrase_required',
  'payload_too_large',
  'unsupported_media_type',
  'method_not_allowed',
  'validation_failed',
  'idempotency_key_reused',
  'already_answered',
  'code_required',
  'gone',
  'rate_limited',
  'dependency_unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  error: string;
  code: ErrorCode;
  request_id: string;
  fields?: Record<string, string[]>;
  [extra: string]: unknown;
}

/**
 * An error that is the response: status, code, a human sentence, and optionally headers, the
 * field map of a validation failure, and extra body members kept for existing clients.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly options: {
      headers?: Record<string, string>;
      fields?: Record<string, string[]>;
      extra?: Record<string, unknown>;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
  }

  static validation(fields: Record<string, string[]>): HttpError {
    const first = Object.entries(fields)[0];
    const summary = first ? `${first[0]} ${first[1][0] ?? 'is invalid'}` : 'invalid input';
    return new HttpError(422, 'validation_failed', `Validation failed: ${summary}`, { fields });
  }

  static unavailable(dependency: string, cause?: unknown): HttpError {
    return new HttpError(
      503,
      'dependency_unavailable',
      `The ${dependency} is unavailable. Please retry shortly.`,
      {
        headers: { 'Retry-After': '5' },
        cause,
      },
    );
  }
}
