/*
 * Errors as the logs show them. Drivers hang what they were given on their errors: ioredis puts
 * the command's arguments on a reply error (for a session write, the session JSON with its
 * tokens), HTTP clients the request and the response, database drivers the statement's
 * parameters. pino's default serializer copies every property, and redaction paths cannot reach
 * inside them nor inside a wrapped `cause`. So an error is logged by an allow-list: its type,
 * message, code, stack and a few plain scalar fields that describe a failure without carrying
 * data, recursively for `cause` and an AggregateError's `errors`. Everything else is dropped.
 */

/** An error as written to the log. */
export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  code?: string | number;
  cause?: LoggedError | LoggedValue;
  errors?: (LoggedError | LoggedValue)[];
  [field: string]: unknown;
}

/** What a value that is not an error becomes under an error key: its kind, never its content. */
export interface LoggedValue {
  type: string;
}

/**
 * Scalar fields kept besides `code`: where and how a system call, an HTTP exchange, a PostgreSQL
 * statement or an OAuth exchange failed, never what was sent. (`detail`, `where`, `hint`,
 * `command`, `args`, `parameters`, `request`, `response`, `body`, `headers`, `config`, … are not.)
 */
const KEPT_FIELDS = [
  'errno',
  'syscall',
  'status',
  'statusCode',
  'severity',
  'routine',
  'constraint',
  'table',
  'column',
  'error',
  'error_description',
] as const;

/** How many levels of `cause` (and nested `errors`) are followed. */
const MAX_DEPTH = 8;
/** At most this many of an AggregateError's errors are logged. */
const MAX_ERRORS = 20;
/** Longest kept string field (messages and stacks excepted). */
const MAX_FIELD = 200;

function isErrorLike(value: unknown): value is Error {
  if (value instanceof Error) return true;
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { message?: unknown; stack?: unknown };
  return typeof v.message === 'string' && typeof v.stack === 'string';
}

/**
 * V8's JSON.parse messages quote the text they failed on (`Unexpected token 'x', "{"refresh_t"...
 * is not valid JSON`): the quote goes, the position stays.
 */
export function withoutQuotedInput(message: string): string {
  return message.replace(/, (?:\.\.\.)?".*?"(?:\.\.\.)? is not valid JSON/s, ' is not valid JSON');
}

function typeOf(value: object): string {
  const ctor = (value as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' && ctor.name !== '' ? ctor.name : 'Object';
}

function scalar(value: unknown): string | number | boolean | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > MAX_FIELD ? `${value.slice(0, MAX_FIELD)}…` : value;
  return undefined;
}

function loggedError(err: Error, depth: number, seen: WeakSet<object>): LoggedError {
  seen.add(err);
  const name = typeof err.name === 'string' && err.name !== '' ? err.name : typeOf(err);
  const message = withoutQuotedInput(String(err.message));
  const out: LoggedError = { type: name, message };
  if (typeof err.stack === 'string') {
    // The stack's first line repeats the message as it was.
    out.stack = message === err.message ? err.stack : err.stack.replace(String(err.message), message);
  }
  const fields = err as unknown as Record<string, unknown>;
  const code = fields.code;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  for (const key of KEPT_FIELDS) {
    const value = scalar(fields[key]);
    if (value !== undefined) out[key] = value;
  }
  if (depth < MAX_DEPTH) {
    if (err.cause !== undefined) out.cause = logged(err.cause, depth + 1, seen);
    const errors = fields.errors;
    if (Array.isArray(errors)) {
      out.errors = errors.slice(0, MAX_ERRORS).map((e: unknown) => logged(e, depth + 1, seen));
    }
  }
  return out;
}

function logged(value: unknown, depth: number, seen: WeakSet<object>): LoggedError | LoggedValue {
  if (isErrorLike(value)) {
    if (seen.has(value)) return { type: 'Circular' };
    return loggedError(value, depth, seen);
  }
  if (value === null) return { type: 'null' };
  return { type: typeof value === 'object' ? typeOf(value) : typeof value };
}

/**
 * The serializer of every key an error is logged under (`err`, `error`, `cause`, `reason`): an
 * error by the allow-list above; a string (`err: e.message`, as many sites log) or a number as
 * given; anything else as its type alone.
 */
export function serializeError(value: unknown): unknown {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === undefined) return undefined;
  return logged(value, 0, new WeakSet());
}

/** The keys errors are logged under: each gets `serializeError`. */
export const ERROR_KEYS = ['err', 'error', 'cause', 'reason'] as const;
const ERROR_KEY_SET: ReadonlySet<string> = new Set(ERROR_KEYS);

/**
 * pino's `formatters.log`: an error logged under any other key (`{ failure: err }`), or one level
 * down (`{ job: { err } }`), is serialized the same way; the object itself is not changed.
 */
export function errorsSerialized(object: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(object)) {
    if (ERROR_KEY_SET.has(key)) continue; // pino applies their serializer itself
    let next = value;
    if (isErrorLike(value)) next = serializeError(value);
    else if (isPlainObject(value) && Object.values(value).some(isErrorLike)) {
      next = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, isErrorLike(v) ? serializeError(v) : v]),
      );
    }
    if (next !== value) {
      out ??= { ...object };
      out[key] = next;
    }
  }
  return out ?? object;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
