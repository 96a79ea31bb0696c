import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Logger } from '@secret-push/logger';
import { type ErrorBody, type ErrorCode, HttpError } from './http-error';

/** The code of a 4xx from a body parser that has no case of its own (413: too many parameters). */
const codeOfStatus = (status: number): ErrorCode =>
  status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'bad_request';

/**
 * Errors raised by Express's body parsers carry `type` and `status`. Those with a 4xx status are
 * about the request and answered as such (never a logged 500); 5xx ones stay unknown errors.
 */
function fromBodyParser(err: { type?: unknown; status?: unknown }): HttpError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'bad_request', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new HttpError(413, 'payload_too_large', 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'unsupported_media_type', 'Unsupported request body encoding.');
    case 'encoding.invalid': // a `verify` that found bytes which are not in the body's charset
      return new HttpError(400, 'bad_request', 'The request body is not valid UTF-8.');
    case 'request.aborted':
      return new HttpError(400, 'bad_request', 'The request was aborted.');
    default:
      return typeof err.status === 'number' && err.status >= 400 && err.status < 500
        ? new HttpError(err.status, codeOfStatus(err.status), 'Malformed request.')
        : undefined;
  }
}

/** The route pattern (`/api/v2/pushes/:url_token`), never the raw path: paths can hold secrets. */
const routeOf = (req: Request): string => {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  return typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : '(unmatched)';
};

const requestId = (req: Request): string => {
  const id = (req as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
};

/**
 * The one error middleware: renders `{error, code, request_id[, fields]}`. Messages of 4xx errors
 * are shown; anything else becomes a generic 500 (never internals) and is logged with the request id.
 * Mount it at the end of each router whose errors it should log by their full route pattern:
 * Express resets `req.baseUrl` when an error leaves a router, so an app-level handler logs the
 * pattern without the router's mount path.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let httpErr =
      err instanceof HttpError ? err : fromBodyParser(err as { type?: unknown; status?: unknown });
    if (!httpErr) {
      logger.error({ err, request_id: requestId(req), route: routeOf(req) }, 'unhandled error');
      httpErr = new HttpError(500, 'internal_error', 'Internal server error.');
    } else if (httpErr.status >= 500) {
      const cause = httpErr.cause instanceof Error ? httpErr.cause.message : undefined;
      logger.warn(
        { code: httpErr.code, cause, request_id: requestId(req), route: routeOf(req) },
        httpErr.message,
      );
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body: ErrorBody = { error: httpErr.message, code: httpErr.code, request_id: requestId(req) };
    if (httpErr.options.fields) body.fields = httpErr.options.fields;
    Object.assign(body, httpErr.options.extra);
    res.status(httpErr.status).set(httpErr.options.headers ?? {});
    res.json(body);
  };
}

export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(new HttpError(404, 'not_found', 'Not found.'));
};
