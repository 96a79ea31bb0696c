/*
 * The errors the SDK throws. Every failure of a call is a SecretPushError (or one of its
 * subclasses), except an abort by the caller's own AbortSignal, which rejects with the signal's
 * reason as fetch does. Branch on `kind` or `code`; show `message` to people.
 */

/** What went wrong, coarsely: the cases a program usually handles differently. */
export type ErrorKind =
  | 'not_found'
  | 'expired'
  | 'unauthorized'
  | 'forbidden'
  | 'passphrase_required'
  | 'validation'
  | 'rate_limited'
  | 'conflict'
  | 'gone'
  | 'unavailable'
  | 'timeout'
  | 'network'
  | 'other';

export interface SecretPushErrorInit {
  status: number;
  code: string;
  message: string;
  requestId?: string | undefined;
  retryAfter?: number | undefined;
  fields?: Record<string, string[]> | undefined;
  cause?: unknown;
}

export class SecretPushError extends Error {
  override name = 'SecretPushError';
  /** The HTTP status; 0 when no answer arrived (connection error or timeout). */
  readonly status: number;
  /** The API's `code` (`not_found`, `rate_limited`, …), or `timeout` / `connection_error`. */
  readonly code: string;
  readonly kind: ErrorKind;
  /** The API's `error` sentence, meant for people (also the `message`). */
  readonly error: string;
  /** The API's `request_id`: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Seconds to wait before trying again, from `Retry-After` (429 and 503). */
  readonly retryAfter: number | undefined;
  /** Messages by field name (422 only). */
  readonly fields: Record<string, string[]> | undefined;

  constructor(init: SecretPushErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.error = init.message;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.fields = init.fields;
    this.kind = kindOf(init.status, init.code);
  }
}

/** 404: an unknown push token, an unknown path, or a download link that is bad or used up. */
export class NotFoundError extends SecretPushError {
  override name = 'NotFoundError';
}
/** A retrieve of a push that can no longer be viewed (the API answers 200 with `expired: true`). */
export class PushExpiredError extends SecretPushError {
  override name = 'PushExpiredError';
}
/** 401 and 403: no token where one is needed, an invalid token, a missing scope, another owner. */
export class UnauthorizedError extends SecretPushError {
  override name = 'UnauthorizedError';
}
/** 429: a rate limit. `retryAfter` says when to try again. */
export class RateLimitedError extends SecretPushError {
  override name = 'RateLimitedError';
}
/** 502, 503 and 504: the service or a dependency of it is down. */
export class UnavailableError extends SecretPushError {
  override name = 'UnavailableError';
}
/** No answer: the connection failed, or the call ran past its timeout. */
export class ConnectionError extends SecretPushError {
  override name = 'ConnectionError';
}

function kindOf(status: number, code: string): ErrorKind {
  if (code === 'timeout') return 'timeout';
  if (status === 0) return 'network';
  if (code === 'expired') return 'expired';
  if (code === 'passphrase_required') return 'passphrase_required';
  if (status === 404) return 'not_found';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 409) return 'conflict';
  if (status === 410) return 'gone';
  if (status === 422) return 'validation';
  if (status === 429) return 'rate_limited';
  if (status === 502 || status === 503 || status === 504) return 'unavailable';
  return 'other';
}

/**
 * A plain `http://` URL that is not on this machine, given without `allowInsecureHttp`: anything
 * sent there (client secrets, tokens, passphrases, payloads) could be read on the way.
 */
export class InsecureUrlError extends TypeError {
  override name = 'InsecureUrlError';
  constructor(readonly url: string) {
    super(
      `Refusing ${url}: a plain http:// URL sends secrets unencrypted. Use https://, ` +
        'or set allowInsecureHttp: true if this network is trusted',
    );
  }
}

/** Loopback hosts, where plain http never leaves the machine: localhost, 127.0.0.0/8, ::1. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/**
 * `url` itself when it may carry secrets: https, or http to a loopback host, or any http when
 * `allowInsecureHttp`. Otherwise an InsecureUrlError (the URL shown by its origin only).
 */
export function secureUrl(url: string, allowInsecureHttp: boolean | undefined): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'http:' && !isLoopback(parsed.hostname) && !allowInsecureHttp) {
    throw new InsecureUrlError(parsed.origin);
  }
  return url;
}

/** The lists, which are kept in a masked path (no token). */
const LISTS = new Set(['active', 'expired', 'open', 'answered', 'ready', 'closed']);

/**
 * The path of `url` as error messages show it: the segment after `/pushes/`, `/requests/` or
 * `/files/` (a push's or a request's token, a file's id: what makes a link work) becomes `…`, and
 * the query (a download link's signature) is left out. The lists (`/pushes/active`,
 * `/requests/closed`, …) are kept.
 */
export function maskedPath(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/)[0] ?? '';
  }
  return path.replace(/\/(pushes|requests|files)\/([^/]+)/g, (whole, kind: string, segment: string) =>
    kind !== 'files' && LISTS.has(segment) ? whole : `/${kind}/…`,
  );
}

/** The error for an HTTP answer, of the subclass that matches its status. */
export function errorForStatus(init: SecretPushErrorInit): SecretPushError {
  const { status } = init;
  if (status === 404) return new NotFoundError(init);
  if (status === 401 || status === 403) return new UnauthorizedError(init);
  if (status === 429) return new RateLimitedError(init);
  if (status === 502 || status === 503 || status === 504) return new UnavailableError(init);
  return new SecretPushError(init);
}

/**
 * `Retry-After` in seconds: a number of seconds or an HTTP date (RFC 9110). Undefined when absent
 * or unreadable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** Reads an error answer's body (JSON `{error, code, request_id, fields?}`) into an error. */
export async function errorFromResponse(res: Response): Promise<SecretPushError> {
  let body: { error?: unknown; code?: unknown; request_id?: unknown; fields?: unknown } = {};
  try {
    const text = await res.text();
    if (text) body = JSON.parse(text) as typeof body;
  } catch {
    // Not JSON (a proxy's page, a cut connection): the status alone describes the error.
  }
  const code = typeof body.code === 'string' ? body.code : `http_${res.status}`;
  const message =
    typeof body.error === 'string'
      ? body.error
      : `The server answered ${res.status} ${res.statusText}`.trim();
  const requestId =
    typeof body.request_id === 'string' ? body.request_id : (res.headers.get('x-request-id') ?? undefined);
  return errorForStatus({
    status: res.status,
    code,
    message,
    requestId,
    retryAfter: parseRetryAfter(res.headers.get('retry-after')),
    fields:
      body.fields && typeof body.fields === 'object' ? (body.fields as Record<string, string[]>) : undefined,
  });
}
