import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '@secret-push/http-kit';
import type { Logger } from '@secret-push/logger';
import { DependencyDown, TooManyAttempts } from '../domain/errors';
import type { AttemptLimiter } from '../domain/ports/attempt-limiter';
import { type InvalidTokenLimiter, principalOf } from './bearer-auth';
import { SharedWindowCounter } from './shared-window-counter';

const retryAfter = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/** The caller a general limit counts: the principal when a token was presented, else the client IP. */
const callerKey = (req: Request, res: Response) => principalOf(res)?.id ?? `ip:${req.ip ?? 'unknown'}`;

const tooMany = (wait: number) =>
  new HttpError(429, 'rate_limited', `Too many requests. Please retry in ${wait} seconds.`, {
    headers: { 'Retry-After': String(wait) },
  });

/**
 * Passphrase attempts per push and per IP, counted atomically in Redis *before* verification, so
 * the limit holds across replicas however parallel the guesses. Required: if Redis is down the
 * attempt is refused (DependencyDown → 503), never let through.
 */
export function createPassphraseLimiter(
  redis: Redis,
  options: { prefix: string; perPush: number; perIp: number },
): AttemptLimiter {
  const perPush = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${options.prefix}pp:push`,
    points: options.perPush,
    duration: 60,
  });
  const perIp = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${options.prefix}pp:ip`,
    points: options.perIp,
    duration: 60,
  });
  return {
    async consume(pushKey, ip) {
      try {
        await perPush.consume(pushKey);
        if (ip) await perIp.consume(ip);
      } catch (err) {
        if (err instanceof RateLimiterRes) throw new TooManyAttempts(retryAfter(err));
        throw new DependencyDown('redis', { cause: err });
      }
    },
  };
}

/**
 * A general per-caller limit (create, retrieve): per principal when a token was presented, per IP
 * otherwise (so one pipeline behind a NAT is not throttled with everyone else). It fails open when
 * Redis is down, with a log line: these limits protect capacity, not secrets.
 */
export function perIpRateLimit(
  redis: Redis,
  options: { prefix: string; name: string; perMinute: number; keyOf?: (req: Request) => string },
  logger: Logger,
): RequestHandler {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${options.prefix}rl:${options.name}`,
    points: options.perMinute,
    duration: 60,
  });
  return async (req, res, next) => {
    try {
      await limiter.consume(options.keyOf?.(req) ?? callerKey(req, res));
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooMany(retryAfter(err));
      logger.warn(
        { limiter: options.name, err: (err as Error).message },
        'rate limiter unavailable, failing open',
      );
    }
    next();
  };
}

/**
 * The general create and retrieve limits (per principal, else per IP), counted locally first and
 * shared across replicas through Redis every 100 ms (shared-window-counter.ts states the
 * tolerance): no Redis round trip on the request path, and without Redis each replica still
 * enforces the limit for what it sees.
 */
export function localFirstRateLimit(
  redis: Redis,
  options: { prefix: string; name: string; perMinute: number; syncMs?: number },
  logger: Logger,
): RequestHandler {
  const counter = new SharedWindowCounter(
    redis,
    {
      prefix: `${options.prefix}rl2:${options.name}:`,
      perMinute: options.perMinute,
      ...(options.syncMs !== undefined ? { syncMs: options.syncMs } : {}),
    },
    logger,
  );
  return (req, res, next) => {
    const admitted = counter.take(callerKey(req, res));
    next(admitted.ok ? undefined : tooMany(admitted.retryAfterSeconds));
  };
}

/**
 * Several limits taken at once: each one's Redis round trip runs beside the others', so a frozen
 * Redis costs a request one command deadline, not one per limit (then they all fail open). The
 * first refusal (429) is the answer.
 */
export function allLimits(...limits: RequestHandler[]): RequestHandler {
  const taken = (limit: RequestHandler, req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => {
      const done = (err?: unknown) =>
        err === undefined ? resolve() : reject(err instanceof Error ? err : new Error('a rate limit failed'));
      Promise.resolve(limit(req, res, done)).catch(done);
    });
  return async (req, res, next) => {
    await Promise.all(limits.map((limit) => taken(limit, req, res)));
    next();
  };
}

/**
 * Invalid bearer tokens per IP (unknown, expired, revoked or malformed): past `perMinute`, a caller
 * gets 429 before its next token is looked up at the auth service, so random tokens can neither
 * hammer the auth service nor crowd the introspection cache. Atomic: each lookup is taken from the
 * count (Redis INCR) before it starts and given back when the token was valid, so a burst of
 * parallel lookups reaches the auth service at most `perMinute` times; the others are refused
 * unlooked-up (a burst of valid, uncached tokens from one address is capped the same way while in
 * flight). Fails open without Redis (logged): the auth service still refuses the tokens.
 */
export function createInvalidTokenLimiter(
  redis: Redis,
  options: { prefix: string; perMinute: number },
  logger: Logger,
): InvalidTokenLimiter {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${options.prefix}rl:invalid-token`,
    points: options.perMinute,
    duration: 60,
  });
  const failOpen = (err: unknown) =>
    logger.warn(
      { limiter: 'invalid-token', err: (err as Error).message },
      'rate limiter unavailable, failing open',
    );
  return {
    async take(ip) {
      try {
        await limiter.consume(ip ?? 'unknown');
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) return failOpen(err);
        const wait = retryAfter(err);
        throw new HttpError(
          429,
          'rate_limited',
          `Too many invalid tokens. Please retry in ${wait} seconds.`,
          {
            headers: { 'Retry-After': String(wait) },
          },
        );
      }
    },
    async giveBack(ip) {
      await limiter.reward(ip ?? 'unknown').catch(failOpen);
    },
    async recordInvalid(ip) {
      await limiter.penalty(ip ?? 'unknown').catch(failOpen);
    },
  };
}

/** `notify_emails` calls per user and minute (Password Pusher's limit). */
export const NOTIFY_EMAILS_PER_MINUTE = 5;

/**
 * `notify_emails`: 5 calls a minute per principal, then 429 with Password Pusher's message. Fails
 * open without Redis (logged): the daily cap, in PostgreSQL, still bounds what can be sent.
 */
export function notifyEmailsRateLimit(
  redis: Redis,
  options: {
    prefix: string;
    perMinute?: number;
    /** Whom a request counts for, when not its principal (the web app's signed-in person). */
    keyOf?: (res: Response) => string | undefined;
  },
  logger: Logger,
): RequestHandler {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${options.prefix}rl:notify-emails`,
    points: options.perMinute ?? NOTIFY_EMAILS_PER_MINUTE,
    duration: 60,
  });
  return async (_req, res, next) => {
    try {
      await limiter.consume(options.keyOf?.(res) ?? principalOf(res)?.id ?? 'anonymous');
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        throw new HttpError(
          429,
          'rate_limited',
          'Too many email notification requests. Please try again in a minute.',
          { headers: { 'Retry-After': String(retryAfter(err)) } },
        );
      }
      logger.warn(
        { limiter: 'notify-emails', err: (err as Error).message },
        'rate limiter unavailable, failing open',
      );
    }
    next();
  };
}

/** A request's answers per minute, whoever sends them: keyed by its url_token's SHA-256 (never the token). */
export const perRequestKey = (req: Request): string =>
  `request:${createHash('sha256').update(String(req.params.url_token)).digest('hex')}`;
