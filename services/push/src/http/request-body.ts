import { isUtf8 } from 'node:buffer';
import express, { type Request, type RequestHandler } from 'express';
import { HttpError } from '@secret-push/http-kit';
import { tokensOnlyInHeader } from './bearer-auth';
import { MAX_BODY_BYTES } from './push.schemas';

/**
 * JSON is UTF-8 (RFC 8259 §8.1): another declared charset is a 415 before the body is read, and
 * bytes that are not UTF-8 are a 400 (body-parser would otherwise decode them as U+FFFD).
 * The check is native and runs once over the raw body, which the limit already bounds.
 */
const parseJson = express.json({
  limit: MAX_BODY_BYTES,
  verify: (_req, _res, body: Buffer) => {
    if (!isUtf8(body)) {
      throw Object.assign(new Error('The request body is not valid UTF-8.'), {
        status: 400,
        type: 'encoding.invalid',
      });
    }
  },
});
const parseForm = express.urlencoded({ extended: true, limit: MAX_BODY_BYTES });

/** The `charset` parameter of the Content-Type, lower-cased; undefined when none is given. */
function declaredCharset(req: Request): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(req.headers['content-type'] ?? '');
  return match ? (match[1] ?? match[2] ?? '').toLowerCase() : undefined;
}

const jsonCharsetIsUtf8: RequestHandler = (req, _res, next) => {
  const charset = req.is('application/json') ? declaredCharset(req) : undefined;
  if (charset === undefined || charset === 'utf-8') return next();
  next(new HttpError(415, 'unsupported_media_type', 'Send JSON bodies as UTF-8 (charset=utf-8).'));
};

/** Create and reveal take JSON or form bodies (multipart arrives with file pushes); anything else is 415. */
export const acceptFormOrJson: RequestHandler = (req, _res, next) => {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody || req.is(['application/json', 'application/x-www-form-urlencoded'])) return next();
  const multipart = req.is('multipart/form-data');
  next(
    new HttpError(
      415,
      'unsupported_media_type',
      multipart
        ? 'multipart/form-data is for file pushes, which are disabled on this instance.'
        : 'Send the body as application/json or application/x-www-form-urlencoded.',
    ),
  );
};

/** With an object store, multipart forms carry file pushes (parsed by the upload step). */
export const acceptFormJsonOrMultipart: RequestHandler = (req, res, next) =>
  req.is('multipart/form-data') ? next() : acceptFormOrJson(req, res, next);

/** JSON and urlencoded bodies (a multipart one is the upload step's); a token in them is refused. */
export const readBody: RequestHandler[] = [jsonCharsetIsUtf8, parseJson, parseForm, tokensOnlyInHeader];

/**
 * Leaves a chain that is for multipart bodies (a file create) when this body is not one: Express
 * goes on with the next route of the same method and path, whose chain runs no file step.
 */
export const onlyMultipart: RequestHandler = (req, _res, next) =>
  next(req.is('multipart/form-data') ? undefined : 'route');
