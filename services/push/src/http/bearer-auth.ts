import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Authenticator } from 'passport';
import { Strategy as BearerStrategy, type VerifyFunctionWithRequest } from 'passport-http-bearer';
import { HttpError } from '@secret-push/http-kit';
import { AuthServiceUnavailable, type Principal, type TokenVerifier } from './introspection-client';

const INVALID_TOKEN_MESSAGE = 'The access token is invalid or has expired.';

/** The RFC 6750 challenge of every 401/403 of the API, with optional error parameters. */
export const bearerChallenge = (params?: string): string =>
  `Bearer realm="secret-push"${params ? `, ${params}` : ''}`;

/** 401 `unauthorized` with the bare challenge: the caller must authenticate. */
export const authenticationRequired = (message = 'Authentication required.'): HttpError =>
  new HttpError(401, 'unauthorized', message, { headers: { 'WWW-Authenticate': bearerChallenge() } });

/** 403 `insufficient_scope` naming the scope the token lacks. */
export const insufficientScope = (scope: string): HttpError =>
  new HttpError(403, 'insufficient_scope', `This token lacks the ${scope} scope.`, {
    headers: { 'WWW-Authenticate': bearerChallenge(`error="insufficient_scope", scope="${scope}"`) },
  });

const principals = new WeakMap<Request, Principal>();

/** Counts invalid tokens per caller IP; over its limit, `assertAllowed` throws a 429 HttpError. */
export interface InvalidTokenLimiter {
  assertAllowed(ip: string | null): Promise<void>;
  recordInvalid(ip: string | null): Promise<void>;
}

/** The principal {@link authenticate} established for this request; `undefined` when anonymous. */
export function principalOf(req: Request): Principal | undefined {
  return principals.get(req);
}

const tokenOutsideHeader = (): HttpError =>
  new HttpError(400, 'bad_request', 'Access tokens are accepted only in the Authorization header.');

const invalidToken = (): HttpError =>
  new HttpError(401, 'invalid_token', INVALID_TOKEN_MESSAGE, {
    headers: {
      'WWW-Authenticate': bearerChallenge(
        `error="invalid_token", error_description="${INVALID_TOKEN_MESSAGE}"`,
      ),
    },
  });

function hasOwnAccessToken(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, 'access_token');
}

/** After a body parser: a token in the parsed body is refused like one in the query string. */
export const tokensOnlyInHeader: RequestHandler = (req, _res, next) =>
  next(hasOwnAccessToken(req.body) ? tokenOutsideHeader() : undefined);

/**
 * Establishes who is calling, without deciding what they may do (see {@link requireScope}).
 *
 * - No `Authorization` header: the request continues anonymously.
 * - A valid bearer token: the request continues with its principal (see {@link principalOf}).
 * - Any other `Authorization` header, or a token that is invalid, revoked or expired:
 *   401 `invalid_token` with an RFC 6750 challenge.
 * - `access_token` in the query string or the parsed body: 400 `bad_request` (RFC 6750 §5.3:
 *   tokens in URLs get logged). The body is checked only if a body parser ran before.
 * - The auth service is unavailable: 503 `dependency_unavailable`, never a 401.
 *
 * Errors go to `next(err)` as {@link HttpError}s.
 */
export function authenticate(verifier: TokenVerifier, invalidTokens?: InvalidTokenLimiter): RequestHandler {
  const verify: VerifyFunctionWithRequest = (req, token, done) => {
    const ip = req.ip ?? null;
    // A token that needs the auth service is looked up only if this caller has not been sending
    // invalid tokens: random tokens cannot hammer the auth service.
    const allowed = verifier.isCached(token)
      ? Promise.resolve()
      : (invalidTokens?.assertAllowed(ip) ?? Promise.resolve());
    allowed
      .then(() => verifier.verify(token))
      .then(async (principal) => {
        if (!principal) await invalidTokens?.recordInvalid(ip);
        done(null, principal ?? false);
      })
      .catch((err: unknown) => done(err));
  };
  const authenticator = new Authenticator();
  authenticator.use(new BearerStrategy({ passReqToCallback: true }, verify)); // its own challenge is never sent: refusals are ours

  return (req, res, next) => {
    if (hasOwnAccessToken(req.query) || hasOwnAccessToken(req.body)) {
      next(tokenOutsideHeader());
      return;
    }
    if (req.headers.authorization === undefined) {
      next();
      return;
    }
    const finish = (err: unknown, user?: Express.User | false | null): void => {
      if (err instanceof AuthServiceUnavailable) return next(HttpError.unavailable('auth service', err));
      if (err) return next(err);
      if (!user) return next(invalidToken());
      principals.set(req, user as Principal);
      next();
    };
    const run = authenticator.authenticate('bearer', { session: false }, finish) as (
      req: Request,
      res: Response,
      next: NextFunction,
    ) => void;
    run(req, res, next);
  };
}

/**
 * Lets the request through only if {@link authenticate} established a principal holding
 * `scope`: otherwise 401 `unauthorized` (anonymous) or 403 `insufficient_scope`, each with an
 * RFC 6750 challenge, passed to `next(err)` as an {@link HttpError}.
 */
export function requireScope(scope: 'pushes:read' | 'pushes:write'): RequestHandler {
  return (req, _res, next) => {
    const principal = principalOf(req);
    if (!principal) return next(authenticationRequired());
    if (!principal.scopes.has(scope)) return next(insufficientScope(scope));
    next();
  };
}
