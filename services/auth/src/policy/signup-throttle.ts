import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '@secret-push/logger';

export interface SignupThrottleOptions {
  /** Sign-up attempts allowed per IP per window. */
  maxPerIp: number;
  windowSeconds: number;
  prefix: string;
}

/** Whether a sign-up may go ahead; when not, when to come back. */
export type SignupAllowance = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Redis did not answer: sign-up is refused (503), never let through uncounted. */
export class SignupThrottleUnavailable extends Error {}

/**
 * Self sign-ups counted per IP in Redis, shared by every replica: at most `maxPerIp` attempts per
 * window. An attempt is a form that passed its own checks (CSRF, a valid email, an acceptable
 * password typed twice alike) and so reaches the database: one that creates an account, and one
 * refused because the email is taken (counting those too keeps the sign-up page from being used to
 * test which addresses have an account). Forms refused before (a typo in the second password) do
 * not count. Any Redis error throws `SignupThrottleUnavailable`: the page then answers 503.
 */
export class SignupThrottle {
  private readonly perIp: RateLimiterRedis;

  constructor(
    redis: Redis,
    options: SignupThrottleOptions,
    private readonly logger: Logger,
  ) {
    this.perIp = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${options.prefix}signup:ip`,
      points: options.maxPerIp,
      duration: options.windowSeconds,
      rejectIfRedisNotReady: true,
    });
  }

  /** Counts one attempt from `ip`; refused once the IP has used up its attempts for the window. */
  async admit(ip: string): Promise<SignupAllowance> {
    try {
      await this.perIp.consume(ip);
      return { allowed: true };
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
      }
      this.logger.warn({ err: (err as Error).message }, 'sign-up throttle unavailable (sign-up refused)');
      throw new SignupThrottleUnavailable('sign-up throttle unavailable', { cause: err });
    }
  }
}
