import { type RequestHandler, Router } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '@secret-push/http-kit';
import type { Logger } from '@secret-push/logger';
import type { AuditContext } from '../domain/push';
import { DEFAULT_CODE_LIMITS, type RequestCodeLimits, codeSentMessage } from '../domain/request-codes';
import { hashUrlToken } from '../security/url-token';
import { auditContext } from './audit-context';
import { acceptFormOrJson, readBody } from './request-body';

export interface RequestCodeRouteDeps {
  /** Sends a code when the address may answer the request (else nothing, silently). */
  sendCode(urlToken: string, email: string, ctx: AuditContext): Promise<unknown>;
  /** Who may call the responder's routes (anonymous while `features.anonymous_access`, else a token). */
  responderAccess: RequestHandler;
  rateLimit: RequestHandler;
  /** How long a code is valid (PUSH_REQUEST_CODE_TTL_SECONDS), said in the answer; default 15 minutes. */
  codeTtlSeconds?: number;
}

/**
 * Code requests per IP and per request (PUSH_REQUEST_CODE_REQUESTS_PER_IP and _PER_REQUEST in
 * PUSH_REQUEST_CODE_RATE_WINDOW_SECONDS: 10 and 15 in 10 minutes by default), counted in Redis before anything is looked up; 429 past them. Without Redis it fails
 * open (logged): the database still sends at most one code per address and minute.
 */
export function requestCodeRateLimit(
  redis: Redis,
  prefix: string,
  logger: Logger,
  limits: Pick<
    RequestCodeLimits,
    'requestsPerIp' | 'requestsPerRequest' | 'rateWindowSeconds'
  > = DEFAULT_CODE_LIMITS,
): RequestHandler {
  const limiter = (name: string, points: number) =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${prefix}rl:request-code:${name}`,
      points,
      duration: limits.rateWindowSeconds,
    });
  const perIp = limiter('ip', limits.requestsPerIp);
  const perRequest = limiter('request', limits.requestsPerRequest);
  return async (req, _res, next) => {
    try {
      await perIp.consume(req.ip ?? 'unknown');
      // Keyed by the token's hash: the token itself never reaches Redis.
      await perRequest.consume(hashUrlToken(String(req.params.url_token)).toString('base64url'));
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        const wait = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw new HttpError(429, 'rate_limited', `Too many code requests. Please retry in ${wait} seconds.`, {
          headers: { 'Retry-After': String(wait) },
        });
      }
      logger.warn(
        { limiter: 'request-code', err: (err as Error).message },
        'rate limiter unavailable, failing open',
      );
    }
    next();
  };
}

/** `email`: a string of at most 254 characters (else 422); whether it is listed is never told. */
function emailOf(body: unknown): string {
  const email = (body as { email?: unknown } | undefined)?.email;
  if (typeof email !== 'string' || email.trim() === '' || email.length > 254) {
    throw HttpError.validation({
      email: [typeof email === 'string' && email.trim() !== '' ? 'is too long' : "can't be blank"],
    });
  }
  return email;
}

/**
 * `POST /requests/:url_token/code` (also `.json`, stripped by the app) `{"email": …}`: a one-time code for a responder of a
 * request answerable by listed addresses. Always 202 with the same message, whether the address is
 * listed, the request exists or is open (no enumeration); the code goes only to a listed address.
 */
export function requestCodeRoutes(deps: RequestCodeRouteDeps): Router {
  const router = Router();
  const message = codeSentMessage(deps.codeTtlSeconds ?? DEFAULT_CODE_LIMITS.ttlSeconds);
  const send: RequestHandler = async (req, res) => {
    const email = emailOf(req.body);
    await deps.sendCode(String(req.params.url_token), email, auditContext(req));
    res.status(202).json({ message });
  };
  router.post(
    '/requests/:url_token/code',
    deps.responderAccess,
    deps.rateLimit,
    acceptFormOrJson,
    ...readBody,
    send,
  );
  return router;
}
