import cors from 'cors';
import type { RequestHandler } from 'express';

/** Request headers a page may send: what the API reads (the browser adds the safelisted ones). */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Passphrase',
  'X-User-Email', // Password Pusher's legacy pair, with X-User-Token (bearer-auth.ts)
  'X-User-Token',
];

/** Response headers a page may read besides the safelisted ones: each is one the API sends. */
export const CORS_EXPOSED_HEADERS = [
  'Retry-After', // 429 and 503
  'Link', // the next page of /pushes/active and /expired
  'X-Request-Id', // every answer (the HTTP logger)
  'Idempotent-Replayed', // a create answered from its Idempotency-Key
  'Content-Disposition', // a download link's file name
  'WWW-Authenticate', // 401 and 403
];

/**
 * CORS for the API under /api/v2, for pages of the `origins` listed in PUSH_CORS_ORIGINS (exact
 * origins; config.ts checked their form). `undefined` when the list is empty: nothing is mounted,
 * no CORS header is ever sent, and only pages of the API's own origin can read its answers.
 *
 * - A request whose `Origin` is listed gets `Access-Control-Allow-Origin` echoing it and
 *   `Access-Control-Expose-Headers`, on errors too (they are set before anything else runs). Its
 *   preflight (OPTIONS) is answered 204 here, before authentication, rate limits and the anonymous
 *   access gate: a preflight never carries the token, so those would refuse it.
 * - A request from any other origin, or with no `Origin`, passes through untouched (an OPTIONS
 *   gets whatever it got without CORS): no CORS header says anything to a page that may not call.
 * - No credentials: the API takes bearer tokens in `Authorization`, never cookies.
 * - `Vary: Origin` on every answer, so that a cache never hands one origin's answer to another.
 *
 * The security headers' `Cross-Origin-Resource-Policy: same-origin` stays: browsers apply it to
 * no-cors requests only (Fetch standard, "cross-origin resource policy check"); a fetch in cors
 * mode is governed by these headers alone.
 */
export function apiCors(origins: readonly string[]): RequestHandler | undefined {
  if (origins.length === 0) return undefined;
  const allowed = new Set(origins);
  const handle = cors({
    // `false` skips the package entirely: no CORS header, and a foreign preflight is not answered.
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST', 'PATCH', 'DELETE'], // HEAD is a simple method: it is never preflighted
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600, // seconds a browser may reuse a preflight's answer (Chromium caps it at 7200)
  });
  return (req, res, next) => {
    res.vary('Origin');
    handle(req, res, next);
  };
}
