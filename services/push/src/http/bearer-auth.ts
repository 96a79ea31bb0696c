import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Authenticator } from 'passport';
import { Strategy as BearerStrategy, type VerifyFunctionWithRequest } from 'passport-http-bearer';
import { HttpError } from '@secret-push/http-kit';
import { isVerifiedEmailOf } from '../domain/user';
import { isPersonalToken } from '../security/personal-token';
import { AuthServiceUnavailable } from './introspection-client';
import type { Principal, TokenVerifier } from './principal';
import { need } from './context-guard';

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

/**
 * Counts invalid tokens per caller IP, atomically: a lookup is taken from the count *before* the
 * token is looked up (`take`, which throws a 429 HttpError past the limit) and given back when the
 * token was valid (`giveBack`), so a burst of parallel lookups cannot outrun the limit.
 */
export interface InvalidTokenLimiter {
  /** Takes one lookup for `ip`; a 429 HttpError when its invalid tokens have reached the limit. */
  take(ip: string | null): Promise<void>;
  /**
   * The token looked up was valid (or its lookup failed on our side): the lookup is given back.
   * Never rejects (fails open), so callers need not wait for it.
   */
  giveBack(ip: string | null): Promise<void>;
  /** An invalid token that needed no lookup (a cached refusal, legacy headers that break their rules). */
  recordInvalid(ip: string | null): Promise<void>;
}

/**
 * The principal {@link authenticate} established for this request; `undefined` when anonymous, or
 * where no authentication runs (the web app's pages share the create rate limit). A step that
 * relies on authentication reads `need(res, 'principal')` instead.
 */
export function principalOf(res: Response): Principal | undefined {
  return res.locals.principal ?? undefined;
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

/** Password Pusher's legacy credentials: a user's email and token, sent as a pair. */
interface LegacyPair {
  email: string | undefined;
  token: string | undefined;
}

const legacyPairOf = (req: Request): LegacyPair => ({
  email: req.get('x-user-email'),
  token: req.get('x-user-token'),
});

/**
 * What the legacy headers require before any lookup; `bearer` is the token of the Authorization
 * header, if any.
 * - They come as a pair: `X-User-Email` without `X-User-Token`, or the reverse, is refused.
 * - Without an Authorization header, the pair authenticates with the personal token in
 *   `X-User-Token` (an access token of the auth service is refused there: the pair is a user's).
 * - With one, `X-User-Token` must be the same token (Password Pusher let the legacy token win
 *   over Bearer; two different tokens in one request are refused rather than one picked).
 */
function legacyPairAcceptable(bearer: string | undefined, pair: LegacyPair): boolean {
  if (pair.email === undefined && pair.token === undefined) return true;
  if (pair.email === undefined || pair.token === undefined) return false;
  return bearer === undefined ? isPersonalToken(pair.token) : pair.token === bearer;
}

/**
 * With a personal token, `X-User-Email` must be its user's verified email (**differs** from
 * Password Pusher, which does not check it when both headers are sent). An OAuth client has no
 * email: with an access token, `X-User-Email` is not checked (only `X-User-Token`, above).
 */
const legacyEmailAcceptable = (principal: Principal, email: string | undefined): boolean =>
  email === undefined || principal.kind === 'client' || isVerifiedEmailOf(principal, email);

/**
 * Establishes who is calling, without deciding what they may do (see {@link requireScope}).
 *
 * - No `Authorization` header and no legacy headers: the request continues anonymously.
 * - A valid bearer token (an access token of the auth service, or a personal API token `spu_…`),
 *   or Password Pusher's legacy pair `X-User-Email` + `X-User-Token` (a personal token): the
 *   request continues with its principal (see {@link principalOf}). The legacy headers' rules are
 *   {@link legacyPairAcceptable} and {@link legacyEmailAcceptable}.
 * - Any other `Authorization` header, a token that is invalid, revoked or expired, or legacy
 *   headers that break their rules: 401 `invalid_token` with an RFC 6750 challenge; the caller's
 *   IP is counted by `invalidTokens`, which refuses (429) further lookups past its limit.
 * - `access_token` in the query string or the parsed body: 400 `bad_request` (RFC 6750 §5.3:
 *   tokens in URLs get logged). The body is checked only if a body parser ran before.
 * - The auth service is unavailable: 503 `dependency_unavailable`, never a 401; so is the
 *   database for a personal token (its connection error goes on to the error map).
 *
 * Errors go to `next(err)` as {@link HttpError}s, or as the database's errors.
 */
export function authenticate(verifier: TokenVerifier, invalidTokens?: InvalidTokenLimiter): RequestHandler {
  /** The principal of the credentials presented, or null when they are refused. */
  async function establish(
    req: Request,
    bearer: string | undefined,
    pair: LegacyPair,
  ): Promise<Principal | null> {
    const ip = req.ip ?? null;
    if (!legacyPairAcceptable(bearer, pair)) {
      await invalidTokens?.recordInvalid(ip);
      return null;
    }
    const token = bearer ?? pair.token ?? '';
    // A token that needs a lookup (the auth service, or the database for a personal token) is
    // looked up only if this caller has not been sending invalid tokens: random tokens cannot
    // hammer either. The lookup is counted before it starts (and given back when the token is
    // valid), so parallel lookups cannot outrun the limit.
    const lookup = verifier.isCached(token) ? undefined : invalidTokens;
    await lookup?.take(ip);
    let principal: Principal | null;
    try {
      principal = await verifier.verify(token);
    } catch (err) {
      // The auth service or the database failed, not the caller. Given back without waiting (it
      // never rejects): a frozen Redis must not add its deadline to every answer a second time.
      void lookup?.giveBack(ip);
      throw err;
    }
    const valid = principal !== null && legacyEmailAcceptable(principal, pair.email);
    if (valid) void lookup?.giveBack(ip);
    else if (!lookup) await invalidTokens?.recordInvalid(ip);
    return valid ? principal : null;
  }

  const verify: VerifyFunctionWithRequest = (req, token, done) => {
    establish(req, token, legacyPairOf(req)).then(
      (principal) => done(null, principal ?? false),
      (err: unknown) => done(err),
    );
  };
  const authenticator = new Authenticator();
  authenticator.use(new BearerStrategy({ passReqToCallback: true }, verify)); // its own challenge is never sent: refusals are ours

  return (req, res, next) => {
    if (hasOwnAccessToken(req.query) || hasOwnAccessToken(req.body)) {
      next(tokenOutsideHeader());
      return;
    }
    const finish = (err: unknown, user?: Express.User | false | null): void => {
      if (err instanceof AuthServiceUnavailable) return next(HttpError.unavailable('auth service', err));
      if (err) return next(err);
      if (!user) return next(invalidToken());
      res.locals.principal = user as Principal;
      next();
    };
    if (req.headers.authorization === undefined) {
      const pair = legacyPairOf(req);
      if (pair.email === undefined && pair.token === undefined) {
        res.locals.principal = null; // anonymous
        next();
        return;
      }
      // The legacy pair alone: no Authorization header for passport to read.
      establish(req, undefined, pair).then((principal) => finish(null, principal ?? false), finish);
      return;
    }
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
  return (_req, res, next) => {
    const principal = need(res, 'principal');
    if (!principal) return next(authenticationRequired());
    if (!principal.scopes.has(scope)) return next(insufficientScope(scope));
    next();
  };
}

/** The principal of a request that {@link requireScope} let through. */
export function scopedPrincipal(res: Response): Principal {
  const principal = need(res, 'principal');
  if (!principal) throw new Error('unreachable: requireScope admits authenticated callers only');
  return principal;
}
